/**
 * One line per request on stdout: readable on a terminal, or JSON lines with
 * pino's field names (level, time, pid, hostname, msg, req, res,
 * responseTime) for log pipelines. API keys never appear: only the method,
 * the request target, the status, the Error code and the findings (their
 * severity and rule) are logged.
 */
import { hostname } from 'node:os';
import type { JournalRecord, Redactor } from './control/journal.js';

export type LogFormat = 'pretty' | 'json' | 'off';

/** pino's `pid` and `hostname`, the same on every line. */
const pinoBase = () => `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

/**
 * Writes the log line of one finished request, read from its record (the
 * journal's), any key taken out by `redact`. The line is handed to `write` as
 * its UTF-8 bytes, one character per byte (see utf8Bytes).
 */
export type RequestLog = (record: JournalRecord, redact: Redactor) => void;

/**
 * `text` as the characters of its UTF-8 bytes, one per byte: what
 * `Buffer.from(bytes, 'latin1')` writes as exactly those bytes. ASCII text is
 * itself, and costs a look at each character.
 *
 * Why: a line holding one character past U+00FF (the log's `→`) makes V8
 * keep it, and every text it is joined to, two bytes a character, and
 * encoding that to UTF-8 cost as much as a quarter of what the rest of the
 * log did per request. Lines of bytes stay one byte a character, and are
 * written with a copy.
 */
export function utf8Bytes(text: string): string {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return Buffer.from(text, 'utf8').toString('latin1');
  return text;
}

const ARROW = utf8Bytes('→');

/**
 * utf8Bytes, remembering its last answer: a request's findings are most
 * often the same text as the previous request's (the same object: a rule's
 * mark), so this usually costs one comparison.
 */
function lastBytes(): (text: string) => string {
  let last = '';
  let bytes = '';
  return (text) => {
    if (text !== last) {
      last = text;
      bytes = utf8Bytes(text);
    }
    return bytes;
  };
}

/**
 * The request log. It reads the record the server keeps anyway rather than a
 * JournalEntry, so a logged request costs its line and nothing more: making
 * an entry (an ISO date, an object) cost more than formatting the line.
 * `write` is handed each line as its UTF-8 bytes, one character per byte:
 * write it with `Buffer.from(line, 'latin1')` (utf8Bytes).
 */
export function createRequestLogger(format: LogFormat, write: (line: string) => void): RequestLog | undefined {
  if (format === 'off') return undefined;
  const findingsBytes = lastBytes();
  if (format === 'json') {
    const base = utf8Bytes(pinoBase());
    return (r, redact) =>
      write(
        `{"level":${r.status >= 500 ? 50 : r.status >= 400 ? 40 : 30},"time":${Math.round(r.arrivedAt)},${base},"msg":"request completed",` +
          `"req":{"method":${JSON.stringify(r.method)},"url":${JSON.stringify(utf8Bytes(redact(r.path)))}},"res":{"statusCode":${r.status}},` +
          `"responseTime":${r.latencyMs}${r.code ? `,"code":${JSON.stringify(r.code)}` : ''}${r.fault ? `,"fault":${JSON.stringify(utf8Bytes(r.fault))}` : ''}` +
          `${r.findings ? `,"findings":${JSON.stringify(findingsBytes(r.findings))}` : ''}}\n`,
      );
  }
  const timeOfDay = createTimeOfDay();
  return (r, redact) =>
    write(
      `${timeOfDay(r.arrivedAt)} ${padMethod(r.method)} ${utf8Bytes(redact(r.path))} ${ARROW} ${r.status}${r.code ? ` ${r.code}` : ''} ${tenths(r.latencyMs)} ms` +
        `${r.fault ? ` [fault: ${utf8Bytes(r.fault)}]` : ''}${r.findings ? ` [${findingsBytes(r.findings)}]` : ''}\n`,
    );
}

/**
 * `ms.toFixed(1)`, the same text for every number, in half the time for a
 * latency as the server records it (hundredths: `Math.round(x * 100) / 100`).
 * Such a number is the double nearest k / 100, which is never within 0.01 of
 * a tie between two tenths unless k ends in 5: then whether the double lies
 * above or below the tie decides, and toFixed is asked.
 */
export function tenths(ms: number): string {
  const k = Math.round(ms * 100);
  const last = k % 10;
  if (last === 5 || !(k >= 0 && k <= Number.MAX_SAFE_INTEGER) || k / 100 !== ms) return ms.toFixed(1);
  const n = (k - last) / 10 + (last > 5 ? 1 : 0);
  const units = n % 10;
  return `${(n - units) / 10}.${units}`;
}

/** `HH:MM:SS.mmm` (UTC, as the ISO date shows it) of an instant; the part up to the second made once a second. */
function createTimeOfDay(): (ms: number) => string {
  let second = Number.NaN;
  let prefix = '';
  return (ms) => {
    const whole = Math.floor(ms);
    const s = Math.floor(whole / 1000);
    if (s !== second) {
      second = s;
      prefix = new Date(s * 1000).toISOString().slice(11, 20);
    }
    const milli = whole - s * 1000;
    return `${prefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}`;
  };
}

const PADDED: Record<string, string> = Object.fromEntries(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((m) => [m, m.padEnd(6)]));
const padMethod = (method: string) => PADDED[method] ?? method.padEnd(6);

/**
 * The server's own notices (where it serves, that it is stopping): text, or
 * with `json` one pino line (level 30) per line of text, so that stdout stays
 * JSON lines from the first line on and a log pipeline can read all of it.
 */
export function createNoticeWriter(format: LogFormat, write: (text: string) => void): (text: string) => void {
  if (format !== 'json') return write;
  const base = pinoBase();
  return (text) => {
    for (const line of text.split('\n')) {
      if (line.trim() !== '') write(`{"level":30,"time":${Date.now()},${base},"msg":${JSON.stringify(line.trim())}}\n`);
    }
  };
}
