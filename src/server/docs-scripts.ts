/**
 * The page's own scripts (docs.ts serves them): Swagger UI's set-up, made per
 * server, and the findings panel. Each is a file of its own rather than an
 * inline script, so the page would also run under a Content-Security-Policy
 * without 'unsafe-inline'.
 */

/** Where the page reads the findings and the journal (the control API's, which this module does not import: it only names the paths). */
const CONTROL_FINDINGS = '/__control/findings';
const CONTROL_JOURNAL = '/__control/journal';
/** The largest `limit` GET /__control/journal takes (spec/control-openapi.ts). */
const JOURNAL_LIMIT_MAX = 100_000;

export interface InitOptions {
  /** Where the page reads the document it shows. */
  readonly specUrl: string;
  /**
   * The key the page comes authorized with, and the security scheme to give
   * it to: the public development key alone, when no key was configured.
   * A configured key is a secret, and the page is served to anyone.
   */
  readonly developmentKey?: { readonly scheme: string; readonly key: string };
}

/**
 * Swagger UI's set-up. validatorUrl null: the default badge asks a server on
 * the internet to validate the document. persistAuthorization: the key given
 * to Authorize is kept in this origin's localStorage, so a reload does not
 * forget it. The development key is given after the document has loaded
 * (onComplete): preauthorizeApiKey looks the scheme up in it, and does
 * nothing before.
 */
export function initScript(options: InitOptions): string {
  const preauthorize = options.developmentKey
    ? `  onComplete: () => window.ui.preauthorizeApiKey(${JSON.stringify(options.developmentKey.scheme)}, ${JSON.stringify(options.developmentKey.key)}),\n`
    : '';
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(options.specUrl)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  tryItOutEnabled: true,
  defaultModelsExpandDepth: 1,
  persistAuthorization: true,
${preauthorize}});
`;
}

/**
 * The findings so far, above the reference: what the developer's client (or
 * their clicks here) got wrong, read from GET /__control/findings every few
 * seconds, and as soon as Authorize changes, with the key given there.
 * Without a key it asks nothing (a refused request would be an error in the
 * browser's console), and says where to give one. A finding's request
 * numbers show that request's journal entry under it. Built with textContent
 * only: findings and journal entries quote what clients sent, which is never
 * markup.
 */
export const FINDINGS_JS = `(() => {
  const panel = document.getElementById('petstore-findings');
  const body = panel.querySelector('.findings-body');
  const summary = panel.querySelector('summary');
  const el = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  // The findings last rendered, as their JSON: a refresh that finds them unchanged leaves the panel (and a selection in it) alone.
  let shown;
  const say = (text) => { shown = undefined; body.replaceChildren(el('p', '', text)); };
  const key = () => {
    const authorized = window.ui && window.ui.authSelectors && window.ui.authSelectors.authorized();
    const all = authorized && authorized.toJS ? authorized.toJS() : {};
    for (const scheme of Object.values(all)) if (scheme && typeof scheme.value === 'string' && scheme.value) return scheme.value;
    return undefined;
  };
  const ask = (path, k) => fetch(path, { headers: { Authorization: 'Bearer ' + k } });
  const line = (label, ...parts) => {
    const row = el('div');
    row.append(el('b', '', label + ' '), ...parts);
    return row;
  };

  // A request's entry, read from the newest end of the journal only as far back as the request:
  // ids grow by one per request to the interface, so it is among the newest (newest id - id + 1),
  // and the journal may keep far more (--journal-size). Requests arriving meanwhile push it back: ask again.
  const journalEntry = async (id, k) => {
    let limit = 1;
    for (let tries = 0; tries < 8; tries++) {
      const res = await ask(${JSON.stringify(CONTROL_JOURNAL)} + '?limit=' + limit, k);
      if (!res.ok) throw new Error('the control API answered ' + res.status);
      const entries = await res.json();
      const found = entries.find((entry) => entry.id === id);
      if (found) return found;
      if (entries.length < limit || entries[0].id < id || limit === ${JOURNAL_LIMIT_MAX}) return 'gone';
      limit = Math.min(entries[entries.length - 1].id - id + 1, ${JOURNAL_LIMIT_MAX});
    }
    return 'busy';
  };
  const message = (label, part) => {
    const headers = Object.entries(part.headers).map(([name, value]) => name + ': ' + value).join('\\n');
    return [el('b', '', label), el('pre', '', headers + '\\n\\n' + (part.body === undefined ? '(no body)' : part.body))];
  };
  const entryParts = (id, entry) => {
    if (entry === 'gone') return [el('p', '', 'Request ' + id + ' is no longer in the journal: it keeps the latest requests only (100 unless --journal-size says otherwise), and a reset or DELETE /__control/journal empties it.')];
    if (entry === 'busy') return [el('p', '', 'Request ' + id + ' could not be found while requests kept arriving: click it again.')];
    const head = el('div', 'journal-head', 'request ' + id + ': ' + entry.method + ' ' + entry.path + ' → ' + entry.status + (entry.code ? ' ' + entry.code : '') + ' (' + entry.at + ', ' + entry.latencyMs + ' ms)');
    const answer = entry.response ? message('answer', entry.response) : [el('p', '', 'No answer: the connection was closed before one was sent.')];
    return [head, ...message('request', entry.request), ...answer];
  };

  // The entry shown under each finding, by finding: a refresh rebuilds the list, and puts them back.
  const opened = new Map();
  const findingKey = (f) => JSON.stringify([f.code, f.rule, f.sent, f.first.request]);
  const toggle = async (item, f, id) => {
    const was = opened.get(findingKey(f));
    if (was) { was.view.remove(); opened.delete(findingKey(f)); }
    if (was && was.id === id) return;
    const view = el('div', 'journal-entry', 'Reading request ' + id + ' from the journal…');
    opened.set(findingKey(f), { id, view });
    item.append(view);
    const k = key();
    if (!k) return view.replaceChildren(el('p', '', 'Give a key to Authorize (below) to read the journal.'));
    try {
      view.replaceChildren(...entryParts(id, await journalEntry(id, k)));
    } catch (error) {
      view.replaceChildren(el('p', '', 'The journal cannot be read now: ' + error.message));
    }
  };
  const requestLink = (item, f, id) => {
    const link = el('button', 'finding-request', String(id));
    link.type = 'button';
    link.title = 'Show request ' + id + ' as the journal keeps it';
    link.addEventListener('click', () => toggle(item, f, id));
    return link;
  };

  const show = (findings) => {
    const text = JSON.stringify(findings);
    if (text === shown) return;
    shown = text;
    const errors = findings.filter((f) => f.severity === 'error').length;
    // Behind petstore proxy, the upstream's answers have findings too (side: server).
    const whose = findings.some((f) => f.side === 'server') ? 'what clients sent and the upstream answered' : 'what clients got wrong';
    summary.textContent = 'Findings: ' + whose + ' (' + errors + ' error' + (errors === 1 ? '' : 's') + ', ' + (findings.length - errors) + ' warning' + (findings.length - errors === 1 ? '' : 's') + ')';
    const current = new Set(findings.map(findingKey));
    for (const k of opened.keys()) if (!current.has(k)) opened.delete(k);
    if (findings.length === 0) return body.replaceChildren(el('p', '', 'None so far: every request kept to the interface.'));
    body.replaceChildren(...findings.map((f) => {
      const item = el('div', 'finding finding-' + f.severity);
      const where = [f.first.method + ' ' + f.first.target + ' (request ', requestLink(item, f, f.first.request)];
      if (f.count > 1) where.push(', last ', requestLink(item, f, f.last.request));
      where.push(')');
      const upstream = f.side === 'server';
      item.append(el('div', 'finding-head', (upstream ? 'upstream ' : '') + f.severity + ' ' + f.code + ' ×' + f.count + ': ' + f.message), line(upstream ? 'answered' : 'sent', f.sent), line('expected', f.expected), line('where', ...where), line('rule', f.rule + ' (seed ' + f.seed + ')'));
      const open = opened.get(findingKey(f));
      if (open) item.append(open.view);
      return item;
    }));
  };
  const refresh = async () => {
    const k = key();
    if (!k) return say('Give a key to Authorize (below) to see them; GET ${CONTROL_FINDINGS} has them too.');
    try {
      const res = await ask(${JSON.stringify(CONTROL_FINDINGS)}, k);
      if (res.ok) show(await res.json());
      else say('The control API answered ' + res.status + ' to the key given to Authorize.');
    } catch (error) {
      say('The findings cannot be read now: ' + error.message);
    }
  };
  refresh();
  setInterval(() => { if (document.visibilityState === 'visible') refresh(); }, 3000);
  // A key given (or restored, or forgotten) shows at once, not at the next refresh.
  let lastKey = key();
  if (window.ui && window.ui.getStore) window.ui.getStore().subscribe(() => {
    const k = key();
    if (k !== lastKey) { lastKey = k; refresh(); }
  });
})();
`;
