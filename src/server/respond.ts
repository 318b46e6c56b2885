/**
 * Writing responses. Every body is JSON with `Content-Type: application/json;
 * charset=utf-8`; the `Date` header comes from the server clock, so a client
 * of a server started with `--now` sees that time.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Clock } from './clock.js';
import { errorJson, statusOf, type ErrorCode } from './errors.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** One request and the headers that every response to it must carry (CORS, deprecation). */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  headers: OutgoingHttpHeaders | undefined;
}

const ERROR_CODE = Symbol('petstore.errorCode');
const FAULT = Symbol('petstore.fault');

/** Records that a fault was injected into this response, for the journal and the logs. */
export function markFault(res: ServerResponse, description: string): void {
  (res as ServerResponse & { [FAULT]?: string })[FAULT] = description;
}

export function faultOf(res: ServerResponse): string | undefined {
  return (res as ServerResponse & { [FAULT]?: string })[FAULT];
}

/** The Error `code` a response was answered with, for the journal and the logs. */
export function errorCodeOf(res: ServerResponse): ErrorCode | undefined {
  return (res as ServerResponse & { [ERROR_CODE]?: ErrorCode })[ERROR_CODE];
}

export function createResponder(clock: Clock) {
  function send(x: Exchange, status: number, body: string | Buffer | undefined, headers?: OutgoingHttpHeaders): void {
    const all: OutgoingHttpHeaders = { date: clock.httpDate() };
    if (body !== undefined) {
      all['content-type'] = JSON_CONTENT_TYPE;
      all['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    }
    if (x.headers) Object.assign(all, x.headers);
    if (headers) Object.assign(all, headers);
    // An answer given before the body was read (401, 404, 415…) still lets the
    // body arrive and be discarded, so the connection stays usable at once
    // instead of stalling the client's next request on it.
    if (!x.req.complete && all['connection'] !== 'close') x.req.resume();
    x.res.writeHead(status, all);
    x.res.end(body);
  }

  function sendError(x: Exchange, code: ErrorCode, message: string, headers?: OutgoingHttpHeaders, status: number = statusOf(code)): void {
    (x.res as ServerResponse & { [ERROR_CODE]?: ErrorCode })[ERROR_CODE] = code;
    send(x, status, errorJson(code, message, status), headers);
  }

  return { send, sendError };
}

export type Responder = ReturnType<typeof createResponder>;
