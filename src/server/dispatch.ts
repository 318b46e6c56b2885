/**
 * The first step of every request node:http hands over: it waits for the
 * request's turn, brings an absolute-form target to the origin form, makes
 * the Exchange, answers a request whose Host is wrong, and passes the rest to
 * the page, the control API or the interface.
 */
import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { hasRepeatedHost } from './authenticator.js';
import { CONTROL_PREFIX } from './control/api.js';
import { isDocsTarget } from './docs.js';
import type { RequestHandler } from './handler.js';
import { CLOSE } from './headers.js';
import type { Exchange, Responder } from './respond.js';

export interface DispatchParts {
  readonly respond: Responder;
  /** The interface's pipeline. */
  readonly handle: RequestHandler;
  /** The control API under /__control; none when it is not served. */
  readonly control: RequestHandler | undefined;
  /** The page at / and /docs; none when it is not served. */
  readonly docs: RequestHandler | undefined;
  /** Where the interface's request ids are counted: the server reads it to tell the id the next request will get (mark()). */
  readonly ids?: RequestIds;
}

/** The last id given to a request of the interface (0: none yet); ids only grow, a reset included. */
export interface RequestIds {
  last: number;
}

/** Serves one request of the node:http server. */
export type Dispatch = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export function createDispatch({ respond, handle, control, docs, ids = { last: 0 } }: DispatchParts): Dispatch {
  const isControl = (url: string | undefined) =>
    control !== undefined &&
    url?.startsWith(CONTROL_PREFIX) === true &&
    (url.length === CONTROL_PREFIX.length || '/?'.includes(url[CONTROL_PREFIX.length] as string));

  const dispatch: Dispatch = (req, res) => {
    // RFC 9112 §9.3.2: pipelined requests may be processed in parallel only
    // when all are safe. Node hands over a pipelined request at once, its
    // response queued without a socket; it waits here for its turn, so a
    // getPet pipelined behind a createPet finds the pet.
    if (!res.socket) return void res.once('socket', () => dispatch(req, res));
    // RFC 9112 §3.2.2: a server must accept the absolute form (`GET http://host/v1/pets`).
    if (req.url !== undefined && req.url.charCodeAt(0) !== 0x2f && /^https?:\/\//i.test(req.url)) req.url = originForm(req.url);
    const toDocs = docs !== undefined && isDocsTarget(req.url);
    // The page, like the control API, is not the interface: the journal leaves both out.
    const toControl = toDocs || isControl(req.url);
    // Every field set here, so that every Exchange has one shape (the pipeline fills some in).
    const x: Exchange = {
      req,
      res,
      headers: undefined,
      arrived: performance.now(),
      toControl,
      requestBody: undefined,
      // The interface's requests so far: each one's id in the journal and in findings.
      seq: toControl ? 0 : ++ids.last,
      operation: undefined,
      culprit: undefined,
      findings: undefined,
      findingCodes: undefined,
      hints: undefined,
    };
    // RFC 9112 §3.2: an HTTP/1.1 request without Host, or with two, is
    // answered 400. Node's own check (requireHostHeader) answers the first
    // with no body and lets the second through (it keeps the first Host).
    if (req.headers.host === undefined && req.httpVersion === '1.1')
      return respond.sendError(x, 'bad_request', 'an HTTP/1.1 request must carry a Host header', CLOSE);
    if (hasRepeatedHost(req.rawHeaders)) return respond.sendError(x, 'bad_request', 'a request carries one Host header, not several', CLOSE);
    return toDocs ? docs(x) : toControl ? control!(x) : handle(x);
  };
  return dispatch;
}

/** The origin form (path and query) of an absolute-form request target. */
function originForm(target: string): string {
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return target;
  }
}
