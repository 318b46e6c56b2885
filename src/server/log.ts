/**
 * One line per request on stdout: readable on a terminal, or JSON lines with
 * pino's field names (level, time, pid, hostname, msg, req, res,
 * responseTime) for log pipelines. API keys never appear: only the method,
 * the request target, the status and the Error code are logged.
 */
import { hostname } from 'node:os';
import type { JournalEntry } from './control/journal.js';

export type LogFormat = 'pretty' | 'json' | 'off';

export function createRequestLogger(format: LogFormat, write: (line: string) => void): ((entry: JournalEntry) => void) | undefined {
  if (format === 'off') return undefined;
  if (format === 'json') {
    const base = `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
    return (e) =>
      write(
        `{"level":${e.status >= 500 ? 50 : e.status >= 400 ? 40 : 30},"time":${Date.parse(e.at)},${base},"msg":"request completed",` +
          `"req":{"method":${JSON.stringify(e.method)},"url":${JSON.stringify(e.path)}},"res":{"statusCode":${e.status}},` +
          `"responseTime":${e.latencyMs}${e.code ? `,"code":${JSON.stringify(e.code)}` : ''}${e.fault ? `,"fault":${JSON.stringify(e.fault)}` : ''}}\n`,
      );
  }
  return (e) =>
    write(`${e.at.slice(11, 23)} ${e.method.padEnd(6)} ${e.path} → ${e.status}${e.code ? ` ${e.code}` : ''} ${e.latencyMs.toFixed(1)} ms${e.fault ? ` [fault: ${e.fault}]` : ''}\n`);
}
