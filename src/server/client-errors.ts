/**
 * Answers for what Node's HTTP parser refuses before a request reaches the
 * pipeline (a malformed request line, headers over the limit, a timeout):
 * Node's own answers have no body; these are Error bodies like every other,
 * written on the raw socket in the right order and then the connection ends.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Clock } from './clock.js';
import type { Limits } from './decisions.js';
import { errorJson, statusOf, type ErrorCode } from './errors.js';
import { JSON_CONTENT_TYPE } from './respond.js';
import { endAndLinger } from './linger.js';

/**
 * Node's parser refuses some requests before they reach the handler (a
 * malformed request line, headers over the limit, a timeout). Its default
 * answer has no body; this one is an Error body like every other.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket, clock: Clock, limits: Limits): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  // A pipelined request that is already complete (a POST being answered) may
  // precede the bytes that broke the parser. Its answer goes first; writing the
  // 400 now would end the connection under it, and the client would take the
  // 400 for its POST although the pet was created. (`_httpMessage` is Node's
  // response in progress on this socket.)
  const inFlight = (socket as Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished && inFlight.req?.complete) {
    const retry = () => {
      socket.off('close', retry);
      inFlight.off('finish', retry);
      setImmediate(() => answerClientError(error, socket, clock, limits));
    };
    inFlight.once('finish', retry);
    socket.once('close', retry);
    return;
  }
  const [code, message] = clientErrorAnswer(error, limits);
  const body = errorJson(code, message);
  const status = statusOf(code);
  // An answer to HEAD has no content (RFC 9110 §9.3.2), even when it is an
  // error: when the bytes that broke the parser are a HEAD's own header section.
  const { rawPacket: raw, bytesParsed } = error as { rawPacket?: unknown; bytesParsed?: unknown };
  const head =
    Buffer.isBuffer(raw) &&
    raw.subarray(0, 5).toString('latin1') === 'HEAD ' &&
    !raw.subarray(0, typeof bytesParsed === 'number' ? bytesParsed : raw.length).includes('\r\n\r\n');
  endAndLinger(
    socket,
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
      `Date: ${clock.httpDate()}\r\n` +
      `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      (head ? '' : body),
  );
}

function clientErrorAnswer(error: NodeJS.ErrnoException, limits: Limits): [ErrorCode, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return isRequestLineOverflow(error)
        ? ['uri_too_long', `the request target is longer than ${limits.maxUrlBytes} bytes`]
        : ['header_too_large', 'the request headers are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ['request_timeout', 'the request did not arrive in time'];
    case 'HPE_URI_TOO_LONG':
      return ['uri_too_long', 'the request target is too long'];
    default:
      return ['bad_request', 'the request is not well-formed HTTP/1.1'];
  }
}

/**
 * Node counts the request line into its header limit, so a target longer
 * than that limit overflows before the handler's 414 check can see it. When
 * the chunk being parsed starts with a request line that had not ended where
 * the parser gave up, the target is what was too long: answer 414, not 431.
 */
function isRequestLineOverflow(error: NodeJS.ErrnoException & { rawPacket?: unknown; bytesParsed?: unknown }): boolean {
  const raw = error.rawPacket;
  if (!Buffer.isBuffer(raw)) return false;
  const end = typeof error.bytesParsed === 'number' ? Math.min(error.bytesParsed, raw.length) : raw.length;
  return REQUEST_LINE_START.test(raw.subarray(0, 32).toString('latin1')) && !raw.subarray(0, end).includes(0x0a);
}

const REQUEST_LINE_START = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ \S/;
