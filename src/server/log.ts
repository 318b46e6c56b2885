/**
 * One line per request on stdout: readable on a terminal, or JSON lines with
 * pino's field names (level, time, pid, hostname, msg, req, res,
 * responseTime) for log pipelines. API keys never appear: only the method,
 * the request target, the status, the Error code and the findings (their
 * severity and rule) are logged.
 */
import { hostname } from 'node:os';
import type { JournalEntry } from './control/journal.js';

export type LogFormat = 'pretty' | 'json' | 'off';

/** pino's `pid` and `hostname`, the same on every line. */
const pinoBase = () => `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

export function createRequestLogger(format: LogFormat, write: (line: string) => void): ((entry: JournalEntry) => void) | undefined {
  if (format === 'off') return undefined;
  if (format === 'json') {
    const base = pinoBase();
    return (e) =>
      write(
        `{"level":${e.status >= 500 ? 50 : e.status >= 400 ? 40 : 30},"time":${Date.parse(e.at)},${base},"msg":"request completed",` +
          `"req":{"method":${JSON.stringify(e.method)},"url":${JSON.stringify(e.path)}},"res":{"statusCode":${e.status}},` +
          `"responseTime":${e.latencyMs}${e.code ? `,"code":${JSON.stringify(e.code)}` : ''}${e.fault ? `,"fault":${JSON.stringify(e.fault)}` : ''}` +
          `${e.findings ? `,"findings":${JSON.stringify(e.findings)}` : ''}}\n`,
      );
  }
  return (e) =>
    write(
      `${e.at.slice(11, 23)} ${e.method.padEnd(6)} ${e.path} → ${e.status}${e.code ? ` ${e.code}` : ''} ${e.latencyMs.toFixed(1)} ms${e.fault ? ` [fault: ${e.fault}]` : ''}` +
        `${e.findings ? ` [${e.findings}]` : ''}\n`,
    );
}

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
