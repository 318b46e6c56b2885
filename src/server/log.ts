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

/** Writes the log line of one finished request, read from its record (the journal's), any key taken out by `redact`. */
export type RequestLog = (record: JournalRecord, redact: Redactor) => void;

/**
 * The request log. It reads the record the server keeps anyway rather than a
 * JournalEntry, so a logged request costs its line and nothing more: making
 * an entry (an ISO date, an object) cost more than formatting the line.
 */
export function createRequestLogger(format: LogFormat, write: (line: string) => void): RequestLog | undefined {
  if (format === 'off') return undefined;
  if (format === 'json') {
    const base = pinoBase();
    return (r, redact) =>
      write(
        `{"level":${r.status >= 500 ? 50 : r.status >= 400 ? 40 : 30},"time":${Math.round(r.arrivedAt)},${base},"msg":"request completed",` +
          `"req":{"method":${JSON.stringify(r.method)},"url":${JSON.stringify(redact(r.path))}},"res":{"statusCode":${r.status}},` +
          `"responseTime":${r.latencyMs}${r.code ? `,"code":${JSON.stringify(r.code)}` : ''}${r.fault ? `,"fault":${JSON.stringify(r.fault)}` : ''}` +
          `${r.findings ? `,"findings":${JSON.stringify(r.findings)}` : ''}}\n`,
      );
  }
  const timeOfDay = createTimeOfDay();
  return (r, redact) =>
    write(
      `${timeOfDay(r.arrivedAt)} ${padMethod(r.method)} ${redact(r.path)} → ${r.status}${r.code ? ` ${r.code}` : ''} ${r.latencyMs.toFixed(1)} ms` +
        `${r.fault ? ` [fault: ${r.fault}]` : ''}${r.findings ? ` [${r.findings}]` : ''}\n`,
    );
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
