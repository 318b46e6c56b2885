/**
 * Header fields: the raw list form answers are written with, and what a
 * request's framing fields say.
 */
import type { IncomingMessage } from 'node:http';

/**
 * Response header fields as name, value, name, value…: the raw form that
 * `writeHead` takes as it is, where an object would be walked key by key on
 * every answer.
 */
export type HeaderList = readonly (string | number)[];

/** `Connection: close`, for answers after which the connection cannot be used again. */
export const CLOSE: HeaderList = ['connection', 'close'];

/** Whether `headers` asks for the connection to close. */
export function saysClose(headers: HeaderList | undefined): boolean {
  if (headers) for (let i = 0; i < headers.length; i += 2) if (headers[i] === 'connection' && headers[i + 1] === 'close') return true;
  return false;
}

/** Whether the request carries a body at all (RFC 9112 §6.3). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}
