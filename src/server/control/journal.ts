/**
 * The request journal: the last N requests to the interface, for a client's
 * own tests to assert on ("my client sent exactly one POST") and for its
 * developer to see what was sent and answered: the headers both ways and
 * both bodies. A ring buffer, so it costs a fixed amount of memory however
 * long the server runs.
 *
 * Recording is on every request's path, so it only keeps references (the
 * raw request headers, the header list the answer was written with, the
 * bodies, each cut to a fixed size): everything else (redaction, text, the
 * ISO date) is done when the journal is read.
 */
import type { HeaderList } from '../headers.js';

/** What a JournalEntry or the log shows of a request, any API key taken out. */
export interface JournalEntry {
  /** The request's id: 1, 2, 3… over the interface's requests since start (findings name it); absent for the control API's. */
  readonly id?: number;
  /** When the request arrived, ISO 8601 by the server clock. */
  readonly at: string;
  readonly method: string;
  /** The request target as sent, query included (an API key in it redacted). */
  readonly path: string;
  readonly status: number;
  readonly latencyMs: number;
  /** Of latencyMs, how long the upstream took to answer: only for a request `petstore proxy` passed on. */
  readonly upstreamMs?: number;
  /** The Error body's `code`, for error answers. */
  readonly code?: string;
  /** The fault injected into this request, if any. */
  readonly fault?: string;
  /** The findings the request showed (`warning /paths/…`, comma-separated): what the client got wrong. */
  readonly findings?: string;
}

/** One side of an exchange as the journal shows it. */
export interface JournalMessage {
  /** Header fields by lower-case name; a repeated field's values joined with ", " (RFC 9110 §5.3). Credentials redacted. */
  readonly headers: Record<string, string>;
  /** The body as UTF-8 text, cut after `limits.journalBodyBytes` with a marker; absent when there was none or it was not read. */
  readonly body?: string;
  /** The body's size in bytes (when cut, the size it had). */
  readonly bodyBytes?: number;
}

export interface DetailedJournalEntry extends JournalEntry {
  readonly request: JournalMessage;
  /** Absent when the connection was dropped without an answer (status 0). */
  readonly response?: JournalMessage;
}

/**
 * What the server records of a request as it answers. Formatting costs more
 * than the rest of the record, so it is done when the journal is read.
 */
export interface JournalRecord {
  /** The request's id (Exchange.seq); 0 for the control API's. */
  readonly id: number;
  /** The findings the request showed, as the log marks them. */
  readonly findings: string | undefined;
  /** The operation the request was routed to, if it was: what requests({ operation }) selects by. */
  readonly operationId?: string | undefined;
  /** When the request arrived, in milliseconds since the epoch by the server clock. */
  readonly arrivedAt: number;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly latencyMs: number;
  /** How long the upstream took, when a relay passed the request on. */
  readonly upstreamMs?: number | undefined;
  readonly code: string | undefined;
  readonly fault: string | undefined;
  readonly httpVersion: string;
  /** The request's header fields as received: name, value, name, value… */
  readonly requestHeaders: readonly string[];
  /** The body read (cut to the journal's size), or undefined when none was read. */
  readonly requestBody: Buffer | undefined;
  /** The body's full size when it was cut. */
  readonly requestBytes: number;
  readonly responseHeaders: HeaderList | undefined;
  readonly responseBody: string | Buffer | undefined;
  readonly responseBytes: number;
}

export const REDACTED = '[redacted]';
/** Header fields that carry credentials: their values are never kept in what is shown. */
const CREDENTIAL_FIELDS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** Takes every configured API key out of a text. */
export type Redactor = (text: string) => string;

/** Replaces each of `keys` in a text with the redacted marker; the longest first, so a key inside another is not left half. */
export function createRedactor(keys: readonly string[]): Redactor {
  const sorted = [...keys].filter((key) => key !== '').sort((a, b) => b.length - a.length);
  return (text) => {
    for (const key of sorted) if (text.includes(key)) text = text.replaceAll(key, REDACTED);
    return text;
  };
}

/**
 * A body's bytes as the journal keeps them: up to `cap` bytes, always a copy
 * unless the buffer is its own (a body Node.js read is a view of the
 * socket's buffer, a created pet's JSON a view of the store's arena: a
 * view kept would keep all of that alive). A getPet's pet and a kept page
 * are their own memory, and are kept as they are.
 */
export function keepBytes(body: Buffer, cap: number): Buffer {
  if (body.length <= cap && body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  return Buffer.from(body.subarray(0, Math.min(cap, body.length)));
}

export function journalEntry(r: JournalRecord, redact: Redactor): JournalEntry {
  const at = new Date(r.arrivedAt).toISOString();
  const path = redact(r.path);
  // The control API's requests have no id (0): the property is left out, not undefined.
  const entry: { -readonly [K in keyof JournalEntry]: JournalEntry[K] } =
    r.id === 0
      ? { at, method: r.method, path, status: r.status, latencyMs: r.latencyMs }
      : { id: r.id, at, method: r.method, path, status: r.status, latencyMs: r.latencyMs };
  if (r.upstreamMs !== undefined) entry.upstreamMs = r.upstreamMs;
  if (r.code !== undefined) entry.code = r.code;
  if (r.fault !== undefined) entry.fault = r.fault;
  if (r.findings !== undefined) entry.findings = r.findings;
  return entry;
}

/** A header value as shown: credentials redacted whole, any key elsewhere taken out. */
export function shownHeaderValue(name: string, value: string, redact: Redactor): string {
  return CREDENTIAL_FIELDS.has(name.toLowerCase()) ? REDACTED : redact(value);
}

/** Header fields (name, value, …) as [name, value] pairs, as shown. */
export function shownHeaderPairs(fields: readonly (string | number)[] | undefined, redact: Redactor): [string, string][] {
  const pairs: [string, string][] = [];
  if (fields)
    for (let i = 0; i + 1 < fields.length; i += 2) pairs.push([String(fields[i]), shownHeaderValue(String(fields[i]), String(fields[i + 1]), redact)]);
  return pairs;
}

function headerObject(pairs: [string, string][]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  return headers;
}

/**
 * A body as shown: UTF-8 text, keys taken out, and when it was cut, the
 * marker. A cut may fall inside a key; whatever a key begins with at the
 * very end goes too, so no part of a key is ever shown.
 */
export function shownBody(body: string | Buffer, fullBytes: number, cap: number, redact: Redactor, keys: readonly string[]): { text: string; bytes: number } {
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : fullBytes;
  let text = typeof body === 'string' ? (bytes > cap ? Buffer.from(body).toString('utf8', 0, cap) : body) : body.toString('utf8');
  text = redact(text);
  if (bytes <= cap) return { text, bytes };
  for (const key of keys) {
    for (let n = Math.min(key.length - 1, text.length); n > 0; n--) {
      if (text.endsWith(key.slice(0, n))) {
        text = text.slice(0, -n);
        break;
      }
    }
  }
  return { text: `${text}… [cut: ${bytes} bytes in all]`, bytes };
}

/** Reads records into what the journal shows: redacted, bodies as text. */
export function createJournalReader(keys: readonly string[], cap: number) {
  const redact = createRedactor(keys);
  const message = (fields: readonly (string | number)[] | undefined, body: string | Buffer | undefined, fullBytes: number): JournalMessage => {
    const shown: { -readonly [K in keyof JournalMessage]: JournalMessage[K] } = { headers: headerObject(shownHeaderPairs(fields, redact)) };
    if (body !== undefined && (typeof body === 'string' ? body.length > 0 : fullBytes > 0)) {
      const { text, bytes } = shownBody(body, fullBytes, cap, redact, keys);
      shown.body = text;
      shown.bodyBytes = bytes;
    }
    return shown;
  };
  return {
    redact,
    cap,
    keys,
    entry: (r: JournalRecord): JournalEntry => journalEntry(r, redact),
    detailed(r: JournalRecord): DetailedJournalEntry {
      return {
        ...journalEntry(r, redact),
        request: message(r.requestHeaders, r.requestBody, r.requestBytes),
        ...(r.status === 0 ? {} : { response: message(r.responseHeaders, r.responseBody, r.responseBytes) }),
      };
    },
  };
}

export type JournalReader = ReturnType<typeof createJournalReader>;

/** Which entries select() answers. */
export interface JournalQuery {
  /** An operationId of the interface. */
  readonly operation?: string | undefined;
  /** The first request id wanted (a mark()). */
  readonly since?: number | undefined;
}

export class Journal {
  private records: (JournalRecord | undefined)[];
  private next = 0;
  private count = 0;

  constructor(
    readonly capacity: number,
    readonly reader: JournalReader = createJournalReader([], 16 * 1024),
  ) {
    this.records = new Array(capacity);
  }

  add(record: JournalRecord): void {
    if (this.capacity === 0) return;
    this.records[this.next] = record;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    if (this.count < this.capacity) this.count++;
  }

  /** The latest `limit` records, oldest first. */
  latestRecords(limit = this.capacity): JournalRecord[] {
    const n = Math.min(limit, this.count);
    const out: JournalRecord[] = [];
    for (let i = n; i > 0; i--) out.push(this.records[(this.next - i + this.capacity) % this.capacity] as JournalRecord);
    return out;
  }

  /** The latest `limit` entries, oldest first, with headers and bodies. */
  latest(limit = this.capacity): DetailedJournalEntry[] {
    return this.latestRecords(limit).map((r) => this.reader.detailed(r));
  }

  /**
   * The entries of the requests to `operation` (any, when not given) whose id
   * is `since` or later, oldest first, as latest() shows them: what one test
   * sent, when it took a mark before.
   */
  select({ operation, since = 0 }: JournalQuery = {}): DetailedJournalEntry[] {
    return this.latestRecords()
      .filter((r) => r.id >= since && (operation === undefined || r.operationId === operation))
      .map((r) => this.reader.detailed(r));
  }

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.records = new Array(this.capacity);
    this.next = 0;
    this.count = 0;
  }
}
