/**
 * The page to read and try the API: Swagger UI, from swagger-ui-dist's files
 * shipped in the package (no CDN: it works offline), showing the served
 * document (served-spec.ts), at `/docs`, where the server's root redirects. Its
 * "Authorize" button takes the API key, and "Try it out" sends real requests
 * to this server (the document's server URL is the base path, relative).
 *
 * The page and its files need no key: they hold nothing the interface's
 * document does not. Requests here are not journaled (they are not the
 * interface's); they are logged like any other.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OperationDescriptor } from '../../spec/operations.js';
import { JSON_CONTENT_TYPE, type Exchange, type Responder } from './respond.js';
import { servedDocument } from './served-spec.js';

export const DOCS_PREFIX = '/docs';
/** Where the page reads the findings (the control API's, which docs.ts does not import: it only names the path). */
const CONTROL_FINDINGS = '/__control/findings';
const SPEC_PATH = `${DOCS_PREFIX}/openapi.json`;

/** The files of swagger-ui-dist the page loads, with their media types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Where the page's files are: dist/swagger-ui/, next to the compiled code (the
 * build copies them there, scripts/bundle-swagger-ui.js, and the published
 * package holds them instead of depending on swagger-ui-dist), else, run from
 * the sources in this repository, the swagger-ui-dist devDependency itself.
 */
function swaggerUiDir(): string {
  const bundled = fileURLToPath(new URL('../../swagger-ui/', import.meta.url));
  if (existsSync(join(bundled, 'swagger-ui-bundle.js'))) return bundled;
  return (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
}

/**
 * Swagger UI's set-up, as a file of its own rather than an inline script, so
 * the page would also run under a Content-Security-Policy without
 * 'unsafe-inline'. validatorUrl null: the default badge asks a server on the
 * internet to validate the document.
 */
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(SPEC_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  tryItOutEnabled: true,
  defaultModelsExpandDepth: 1,
});
`;

/**
 * The findings so far, above the reference: what the developer's client (or
 * their clicks here) got wrong, read from GET /__control/findings every few
 * seconds with the key given to Authorize. Without a key it asks nothing
 * (a refused request would be an error in the browser's console), and says
 * where to give one. Built with textContent only: findings quote what
 * clients sent, which is never markup.
 */
const FINDINGS_JS = `(() => {
  const panel = document.getElementById('petstore-findings');
  const body = panel.querySelector('.findings-body');
  const summary = panel.querySelector('summary');
  const say = (text) => { body.replaceChildren(Object.assign(document.createElement('p'), { textContent: text })); };
  const key = () => {
    const authorized = window.ui && window.ui.authSelectors && window.ui.authSelectors.authorized();
    const all = authorized && authorized.toJS ? authorized.toJS() : {};
    for (const scheme of Object.values(all)) if (scheme && typeof scheme.value === 'string' && scheme.value) return scheme.value;
    return undefined;
  };
  const line = (label, text) => {
    const row = document.createElement('div');
    const name = Object.assign(document.createElement('b'), { textContent: label + ' ' });
    row.append(name, document.createTextNode(text));
    return row;
  };
  const show = (findings) => {
    const errors = findings.filter((f) => f.severity === 'error').length;
    summary.textContent = 'Findings: what clients got wrong (' + errors + ' error' + (errors === 1 ? '' : 's') + ', ' + (findings.length - errors) + ' warning' + (findings.length - errors === 1 ? '' : 's') + ')';
    if (findings.length === 0) return say('None so far: every request kept to the interface.');
    body.replaceChildren(...findings.map((f) => {
      const item = document.createElement('div');
      item.className = 'finding finding-' + f.severity;
      const head = Object.assign(document.createElement('div'), { textContent: f.severity + ' ' + f.code + ' ×' + f.count + ': ' + f.message });
      head.className = 'finding-head';
      item.append(head, line('sent', f.sent), line('expected', f.expected), line('where', f.first.method + ' ' + f.first.target + ' (request ' + f.first.request + (f.count > 1 ? ', last ' + f.last.request : '') + ')'), line('rule', f.rule + ' (seed ' + f.seed + ')'));
      return item;
    }));
  };
  const refresh = async () => {
    const k = key();
    if (!k) return say('Give a key to Authorize (below) to see them; GET /__control/findings has them too.');
    try {
      const res = await fetch(${JSON.stringify(`${CONTROL_FINDINGS}`)}, { headers: { Authorization: 'Bearer ' + k } });
      if (res.ok) show(await res.json());
      else say('The control API answered ' + res.status + ' to the key given to Authorize.');
    } catch (error) {
      say('The findings cannot be read now: ' + error.message);
    }
  };
  refresh();
  setInterval(() => { if (document.visibilityState === 'visible') refresh(); }, 3000);
})();
`;

const FINDINGS_PANEL = `<details id="petstore-findings" open style="margin:16px auto;max-width:1420px;padding:0 20px;font-family:sans-serif;font-size:14px">
<summary style="cursor:pointer;font-weight:bold">Findings: what clients got wrong</summary>
<style>#petstore-findings .finding{margin:8px 0;padding:6px 10px;border-left:4px solid #fca130;background:#fff8ef}#petstore-findings .finding-error{border-color:#f93e3e;background:#fff1f1}#petstore-findings .finding-head{font-weight:bold;margin-bottom:4px}</style>
<div class="findings-body"></div>
</details>
`;

const PAGE = (withFindings: boolean) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet Store Service Interface: petstore serve</title>
<link rel="icon" type="image/png" href="${DOCS_PREFIX}/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_PREFIX}/swagger-ui.css">
</head>
<body>
${withFindings ? FINDINGS_PANEL : ''}<div id="swagger-ui"></div>
<script src="${DOCS_PREFIX}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PREFIX}/init.js"></script>
${withFindings ? `<script src="${DOCS_PREFIX}/findings.js"></script>\n` : ''}</body>
</html>
`;

/** Whether a request target is the page's: the root, or under /docs. */
export function isDocsTarget(url: string | undefined): boolean {
  if (url === undefined) return false;
  // Every request asks this: an interface target (/v1/…) is told apart by its second character.
  if (url.charCodeAt(1) !== 0x64 /* d */) return url === '/' || url.startsWith('/?');
  const next = url[DOCS_PREFIX.length];
  return url.startsWith(DOCS_PREFIX) && (next === undefined || next === '/' || next === '?');
}

/** `findings`: the control API is served, so the page shows the findings panel. */
export function createDocsHandler(
  operations: readonly OperationDescriptor[],
  basePath: string,
  respond: Responder,
  options: { findings?: boolean } = {},
): (x: Exchange) => void {
  const withFindings = options.findings === true;
  const files = new Map<string, { type: string; body: Buffer }>([
    [SPEC_PATH, { type: JSON_CONTENT_TYPE, body: Buffer.from(JSON.stringify(servedDocument(operations, basePath), null, 2)) }],
    [`${DOCS_PREFIX}/init.js`, { type: 'text/javascript; charset=utf-8', body: Buffer.from(INIT_JS) }],
    ...(withFindings ? [[`${DOCS_PREFIX}/findings.js`, { type: 'text/javascript; charset=utf-8', body: Buffer.from(FINDINGS_JS) }] as const] : []),
  ]);
  const page = { type: 'text/html; charset=utf-8', body: Buffer.from(PAGE(withFindings)) };
  // swagger-ui-dist's files are read once, on the first request for one: a server that nobody opens the page of never reads them.
  let assetsDir: string | undefined;
  const asset = (name: string) => {
    const type = ASSETS[name];
    if (type === undefined) return undefined;
    let file = files.get(`${DOCS_PREFIX}/${name}`);
    if (!file) {
      assetsDir ??= swaggerUiDir();
      file = { type, body: readFileSync(join(assetsDir, name)) };
      files.set(`${DOCS_PREFIX}/${name}`, file);
    }
    return file;
  };

  return (x) => {
    const url = x.req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = x.req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      return respond.sendError(x, 'method_not_allowed', `${method} is not allowed on ${path}; allowed: GET, HEAD`, ['allow', 'GET, HEAD']);
    }
    // The root sends a browser to the page. A redirect rather than the page itself: an answer
    // with a body is JSON everywhere but under /docs, which clients and the fuzz tests rely on.
    if (path === '/') return respond.send(x, 302, undefined, ['location', DOCS_PREFIX]);
    const file = path === DOCS_PREFIX || path === `${DOCS_PREFIX}/` ? page : (files.get(path) ?? asset(path.slice(DOCS_PREFIX.length + 1)));
    if (!file) return respond.sendError(x, 'route_not_found', `no page at ${path}`);
    respond.answer(x, 200, file.type, file.body, ['cache-control', 'no-cache']);
  };
}
