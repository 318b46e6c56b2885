/**
 * The findings seen so far, counted per rule: a client that sends the same
 * mistake 10,000 times makes one finding with a count and its first and last
 * request. Memory is bounded per rule (MAX_FINDINGS_PER_RULE), whatever a
 * client sends: the rules come from the spec, so they are finitely many.
 *
 * Noting a finding seen before costs two map lookups and a few number
 * writes: a client repeating a mistake under load (every getPet is a
 * deprecated call) must not make each request allocate. Texts are made when
 * the findings are read.
 */
import type { Clock } from '../clock.js';
import { cutShown } from './shown.js';
import { MAX_FINDINGS_PER_RULE, MAX_SHOWN_CHARS, type Finding, type FindingDraft, type Severity } from './finding.js';

/** What the ledger reads of a request: its journal id, method and target, and where it marks the request's findings for the log. */
export interface NotedRequest {
  readonly seq: number;
  readonly req: { readonly method?: string | undefined; readonly url?: string | undefined };
  /** The findings of this request as the log shows them: `warning /paths/…`, comma-separated. */
  findings?: string | undefined;
  /** The codes of this request's findings as its answer's Petstore-Finding header gives them: in the order found, each once, comma-separated. */
  findingCodes?: string | undefined;
  /** The hints of this request's findings (FindingDraft.hint), each once, `; `-separated: what a 4xx Error's message ends with. */
  hints?: string | undefined;
}

interface Seen {
  at: number;
  seq: number;
  method: string;
  url: string;
}

interface Entry {
  readonly draft: FindingDraft;
  /** Only on a rule's overflow entry: the first of the drafts it counts. */
  readonly overflow: boolean;
  count: number;
  readonly first: Seen;
  readonly last: Seen;
  /** The order entries were first seen in, for listing. */
  readonly order: number;
  /** How the log marks a request that showed it: `warning /paths/…`. */
  readonly mark: string;
}

interface RuleEntries {
  readonly bySubject: Map<string, Entry>;
  overflow: Entry | undefined;
}

export interface FindingLedger {
  /** Counts `draft` for the request `x` and marks `x` for the log. */
  note(x: NotedRequest, draft: FindingDraft): void;
  /**
   * Every finding, in the order first seen; with `since` (a request id),
   * only those last seen in that request or a later one. When `since` was
   * taken with mark(), `count` is the number of occurrences since then;
   * otherwise it counts every occurrence since the ledger was last cleared.
   */
  list(since?: number): Finding[];
  /** Remembers every finding's count now, for list(`since`) to count from: `since` is the id the next request will get; returned. */
  mark(since: number): number;
  /** How many distinct findings of `severity` (of any, when not given) were seen. */
  count(severity?: Severity): number;
  clear(): void;
}

export interface LedgerOptions {
  readonly clock: Clock;
  /** Takes every configured API key out of a text. */
  readonly redact: (text: string) => string;
  readonly keys: readonly string[];
}

export function createFindingLedger({ clock, redact, keys }: LedgerOptions): FindingLedger {
  let rules = new Map<string, RuleEntries>();
  let seen = 0;
  // The counts at each mark, by the request id it was taken at: the latest MAX_MARKS of them.
  let marks = new Map<number, Map<Entry, number>>();
  const counts = { error: 0, warning: 0 };

  const entry = (draft: FindingDraft, x: NotedRequest, at: number, overflow: boolean): Entry => {
    const request = (): Seen => ({ at, seq: x.seq, method: x.req.method ?? '', url: x.req.url ?? '' });
    counts[draft.severity]++;
    return { draft, overflow, count: 1, first: request(), last: request(), order: seen++, mark: `${draft.severity} ${draft.rule}` };
  };

  const show = (s: Seen) => ({ request: s.seq, method: s.method, target: cutShown(redact(s.url), MAX_SHOWN_CHARS, keys), at: new Date(s.at).toISOString() });

  return {
    note(x, draft) {
      const at = clock.now();
      // The upstream's findings are counted apart from the client's: a client's mistakes must not crowd them out of a rule's bound.
      const key = draft.side === 'server' ? `server ${draft.rule}` : draft.rule;
      let rule = rules.get(key);
      if (rule === undefined) rules.set(key, (rule = { bySubject: new Map(), overflow: undefined }));
      let found = rule.bySubject.get(draft.subject);
      if (found === undefined && rule.bySubject.size < MAX_FINDINGS_PER_RULE) rule.bySubject.set(draft.subject, (found = entry(draft, x, at, false)));
      else if (found === undefined && rule.overflow === undefined) found = rule.overflow = entry(draft, x, at, true);
      else {
        found ??= rule.overflow as Entry;
        found.count++;
        const last = found.last;
        last.at = at;
        last.seq = x.seq;
        // References only: shown (redacted, cut) when read.
        last.method = x.req.method ?? '';
        last.url = x.req.url ?? '';
      }
      x.findings = x.findings === undefined ? found.mark : `${x.findings}, ${found.mark}`;
      markAnswer(x, draft);
    },

    mark(since) {
      const taken = new Map<Entry, number>();
      for (const e of entries(rules)) taken.set(e, e.count);
      marks.delete(since);
      marks.set(since, taken);
      if (marks.size > MAX_MARKS) marks.delete(marks.keys().next().value as number);
      return since;
    },

    list(since) {
      const all = since === undefined ? entries(rules) : entries(rules).filter((e) => e.last.seq >= since);
      const before = since === undefined ? undefined : marks.get(since);
      all.sort((a, b) => a.order - b.order);
      return all.map((e): Finding => {
        const d = e.draft;
        // One order of fields for every finding, whatever the draft's.
        return {
          code: d.code,
          side: d.side ?? 'client',
          severity: d.severity,
          ...(d.status === undefined ? {} : { status: d.status }),
          rule: d.rule,
          seed: d.seed,
          ...(d.operationId === undefined ? {} : { operationId: d.operationId }),
          sent: e.overflow
            ? `${d.sent}, and others: more than ${MAX_FINDINGS_PER_RULE} distinct findings of this rule were seen, the rest are counted here together`
            : d.sent,
          expected: d.expected,
          message: d.message,
          // A finding noted late for a request older than the mark still counts once.
          count: before === undefined ? e.count : Math.max(1, e.count - (before.get(e) ?? 0)),
          first: show(e.first),
          last: show(e.last),
        };
      });
    },

    count(severity) {
      return severity === undefined ? counts.error + counts.warning : counts[severity];
    },

    clear() {
      rules = new Map();
      marks = new Map();
      seen = 0;
      counts.error = 0;
      counts.warning = 0;
    },
  };
}

/** Marks remembered for counting since: a test suite takes one per test, and only the latest tests still ask. */
const MAX_MARKS = 256;

function entries(rules: Map<string, RuleEntries>): Entry[] {
  const all: Entry[] = [];
  for (const rule of rules.values()) {
    for (const e of rule.bySubject.values()) all.push(e);
    if (rule.overflow) all.push(rule.overflow);
  }
  return all;
}

/**
 * Marks the request's answer with the finding, before it is written: its code
 * for the Petstore-Finding header, its hint for an Error's message. A
 * request's first finding costs two references; only a second one makes text.
 */
function markAnswer(x: NotedRequest, draft: FindingDraft): void {
  const codes = x.findingCodes;
  if (codes === undefined) x.findingCodes = draft.code;
  else if (!holds(codes, draft.code, ', ')) x.findingCodes = `${codes}, ${draft.code}`;
  const hint = draft.hint;
  if (hint === undefined) return;
  const said = x.hints;
  if (said === undefined) x.hints = hint;
  else if (!holds(said, hint, '; ')) x.hints = `${said}; ${hint}`;
}

/** Whether `list` (items joined by `separator`) holds `item` as a whole item, not merely as a part of one. */
function holds(list: string, item: string, separator: string): boolean {
  for (let at = list.indexOf(item); at !== -1; at = list.indexOf(item, at + 1)) {
    const end = at + item.length;
    if ((at === 0 || list.startsWith(separator, at - separator.length)) && (end === list.length || list.startsWith(separator, end))) return true;
  }
  return false;
}
