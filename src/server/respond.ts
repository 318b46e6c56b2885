/**
 * Writing responses. Every body is JSON with `Content-Type: application/json`
 * (D9); the `Date` header follows the server clock, so a client of
 * a server started with `--now` sees that time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationDescriptor } from '../../spec/operations.js';
import type { Clock } from './clock.js';
import type { Culprit } from './findings/detect.js';
import { errorJson, errorMessage, statusOf, type ErrorCode } from './errors.js';
import { FINDING_HEADER } from './findings/finding.js';
import { CLOSE, hasBody, saysClose, type HeaderList } from './headers.js';
import { lingerAfterAnswer } from './linger.js';
import { createOutbox } from './outbox.js';

// RFC 8259 §11: application/json has no charset parameter (JSON is UTF-8),
// and tools that compare the media type exactly (Dredd) fail on one.
export const JSON_CONTENT_TYPE = 'application/json';

/** One request and the headers that every response to it must carry (CORS, deprecation). */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  headers: HeaderList | undefined;
  /** When the request arrived (performance.now()), for the journal's latency. */
  readonly arrived: number;
  /** Whether the request is for the control API, which the journal leaves out. */
  readonly toControl: boolean;
  /** The fault injected into this request, if any (see control/faults.ts). */
  fault?: string;
  /** The body read from the request, if one was (body.ts), for the journal. */
  requestBody?: Buffer;
  /** The body was longer than the limit: `requestBody` is its head, the rest is still unread in `req` (kept for a relay only). */
  bodyCut?: true;
  /** How long the upstream took to answer, when a relay passed the request on (milliseconds). */
  upstreamMs?: number;
  /** The request's id in the journal (1, 2, 3… for the interface's requests; 0 for the control API's and the page's). */
  readonly seq: number;
  /** The operation the request was routed to, once it was. */
  operation?: OperationDescriptor;
  /** What a refusal was about (a parameter, a field), for its finding. */
  culprit?: Culprit;
  /** The findings the request showed, as its log line marks them. */
  findings?: string;
  /** Their codes, as the answer's Petstore-Finding header gives them. */
  findingCodes?: string;
  /** Their hints, as a 4xx Error's message ends with them. */
  hints?: string;
}

/**
 * What the server around the responder needs to know. Every answer of the
 * interface and the control API goes through `send`, so the journal and the
 * logs are fed here, without a listener per response.
 */
export interface ResponderHooks {
  /** Whether the server is shutting down: then every answer closes its connection. */
  closing(): boolean;
  /**
   * An Error is about to be answered (`message`: its message, made when asked
   * for): what the request showed must be known before the answer is written,
   * which carries it.
   */
  refusing?(x: Exchange, code: ErrorCode, message: () => string): void;
  /** An answer was written, with these header fields and body (status 0: the connection was dropped without one). */
  answered(x: Exchange, status: number, code?: ErrorCode, headers?: HeaderList, body?: string | Buffer): void;
  /** The server failed in a way it did not expect (a bug): for the operator to see. */
  failed(error: unknown, req: IncomingMessage): void;
}

const NO_HOOKS: ResponderHooks = { closing: () => false, answered: () => {}, failed: () => {} };

export function createResponder(clock: Clock, hooks: ResponderHooks = NO_HOOKS) {
  /** Reports an unexpected error and cuts the connection: for an answer that had begun. */
  function cutOff(error: unknown, res: ServerResponse): void {
    hooks.failed(error, res.req);
    res.destroy();
  }
  const outbox = createOutbox(cutOff);

  /** An answer with a JSON body; with `code`, the body is that Error's, made already (the 401s are made once). */
  function send(x: Exchange, status: number, body: string | Buffer | undefined, headers?: HeaderList, code?: ErrorCode): void {
    if (code === undefined) return answer(x, status, JSON_CONTENT_TYPE, body, headers);
    hooks.refusing?.(x, code, () => errorMessage(body));
    // Only a body made before the request's findings were known is made again, so that its message says them.
    const told = x.hints === undefined || !isClientStatus(status) ? body : errorJson(code, `${errorMessage(body)}; ${x.hints}`, status);
    answer(x, status, JSON_CONTENT_TYPE, told, headers, code);
  }

  /** An answer whose body is of `type`: JSON for every answer of the interface and the control API; the page at /docs and its files. */
  function answer(x: Exchange, status: number, type: string, body: string | Buffer | undefined, headers?: HeaderList, code?: ErrorCode): void {
    const all: (string | number)[] =
      body === undefined ? [] : ['content-type', type, 'content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.length];
    // Node.js writes a cached Date of its own when none is given; the server
    // clock's is needed only when it has been moved.
    if (!clock.isRealTime()) all.push('date', clock.httpDate());
    if (x.headers) for (const field of x.headers) all.push(field);
    if (headers) for (const field of headers) all.push(field);
    if (x.findingCodes !== undefined) all.push(FINDING_HEADER, x.findingCodes);
    // Node would answer with keep-alive, and close() would then wait out its grace period.
    const asked = saysClose(headers);
    const closes = asked || hooks.closing();
    if (closes && !asked) all.push(...CLOSE);
    // An answer given before the body was read (401, 404, 415…) still lets the
    // body arrive and be discarded, so the connection stays usable at once
    // instead of stalling the client's next request on it. When the
    // connection closes instead (413), it lingers, so that a client still
    // sending its body reads the answer rather than a reset. A request without
    // a body is left to Node.js, which discards the rest of it when the answer ends.
    if (!x.req.complete && hasBody(x.req)) {
      if (!closes) x.req.resume();
      else lingerAfterAnswer(x.req.socket);
    }
    x.res.writeHead(status, all);
    outbox.end(x.res, body);
    hooks.answered(x, status, code, all, body);
  }

  function sendError(x: Exchange, code: ErrorCode, message: string, headers?: HeaderList, status: number = statusOf(code)): void {
    hooks.refusing?.(x, code, () => message);
    // The request's findings say in the client's terms what the Error alone cannot (a rounded id, a misspelt name).
    const told = x.hints === undefined || !isClientStatus(status) ? message : `${message}; ${x.hints}`;
    answer(x, status, JSON_CONTENT_TYPE, errorJson(code, told, status), headers, code);
  }

  /** Reports an unexpected error and answers 500, or cuts the connection if the answer had begun. */
  function fail(x: Exchange, error: unknown): void {
    if (x.res.headersSent) return cutOff(error, x.res);
    hooks.failed(error, x.req);
    sendError(x, 'internal_error', 'the server failed to answer this request', CLOSE);
  }

  /** Cuts the connection without an answer (an injected fault). */
  function drop(x: Exchange): void {
    x.req.socket.destroy();
    hooks.answered(x, 0);
  }

  return { send, answer, sendError, fail, drop };
}

export type Responder = ReturnType<typeof createResponder>;

/** A 4xx: the answers whose cause is the request, which a finding's hint may explain. */
function isClientStatus(status: number): boolean {
  return status >= 400 && status < 500;
}
