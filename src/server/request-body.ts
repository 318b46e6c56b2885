/**
 * Request bodies: the media type, the size limit, and collecting the bytes.
 */
import type { IncomingMessage } from 'node:http';
import { parseJsonBytes, type JsonValue, type ParseLimits } from '../../spec/json/index.js';
import { CLOSE, hasBody } from './headers.js';
import type { Exchange, Responder } from './respond.js';

/**
 * Whether a Content-Type names JSON as the spec requires: `application/json`,
 * case-insensitively, with no charset other than UTF-8 (RFC 8259 §8.1).
 */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  // What nearly every client sends, answered without splitting the header apart.
  if (header === 'application/json' || header === 'application/json; charset=utf-8') return true;
  const [type, ...parameters] = header.split(';');
  if (type?.trim().toLowerCase() !== 'application/json') return false;
  for (const parameter of parameters) {
    const [name, value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset' && value?.trim().replace(/^"|"$/g, '').toLowerCase() !== 'utf-8') return false;
  }
  return true;
}

/** `head`: what was read before the body passed the limit (only when the rest is kept unread for a relay). */
type BodyResult = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large'; head?: Buffer };

/**
 * Collects the body, stopping as soon as it passes `maxBytes`, and hands it
 * to `done` once. A request aborted midway never reaches `done`: there is no
 * one left to answer. Plain listeners rather than a promise: this runs for
 * every createPet, and each promise layer is work per request (an
 * allocation, a microtask) that a callback does not need.
 */
function readBody(req: IncomingMessage, maxBytes: number, keepRest: boolean, done: (result: BodyResult) => void): void {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) return done({ ok: false, reason: 'too_large' });
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      settled = true;
      req.removeListener('data', onData);
      if (!keepRest) return done({ ok: false, reason: 'too_large' });
      // A relay passes the body on whole: what was read, then the rest, left in the request until then.
      req.pause();
      return done({ ok: false, reason: 'too_large', head: Buffer.concat([...(chunks ?? (first ? [first] : [])), chunk]) });
    }
    // Nearly every body is one chunk: no array for it.
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  };
  req.on('data', onData);
  // Without an 'error' listener Node.js emits no error for an aborted request (it just never ends).
  req.on('end', () => {
    if (settled) return;
    settled = true;
    done({ ok: true, bytes: chunks ? Buffer.concat(chunks, size) : (first ?? EMPTY) });
  });
}

const EMPTY = Buffer.alloc(0);

export interface JsonBodyRules {
  readonly maxBytes: number;
  readonly parse: ParseLimits;
  /** What the body should be, for the message when there is none: "a NewPet as JSON". */
  readonly expected: string;
  /** Keep a body longer than maxBytes unread past its head (Exchange.bodyCut), for a relay to pass on; by default the rest is discarded. */
  readonly keepRest?: boolean;
}

/**
 * Reads a request body as JSON and hands it to `then`, or answers the
 * problem itself: no body (400), another media type or a content coding (415,
 * RFC 9110 §8.4.1), too large (413, closing the connection, since the rest is
 * not read), not JSON (400). The one way every body of the server is read.
 * `then` runs after the request's handler has returned, so what it throws is
 * answered here (500), not left to crash the process.
 */
export function readJsonBody(x: Exchange, respond: Responder, rules: JsonBodyRules, then: (value: JsonValue) => void): void {
  const { req } = x;
  if (!hasBody(req)) return respond.sendError(x, 'invalid_body', `a request body is required: ${rules.expected}`);
  const type = req.headers['content-type'];
  if (!isJsonContentType(type)) {
    return respond.sendError(x, 'unsupported_media_type', `the body must be sent as application/json, not ${type ?? 'without a Content-Type'}`);
  }
  const coding = req.headers['content-encoding']?.trim().toLowerCase();
  if (coding && coding !== 'identity') {
    return respond.sendError(x, 'unsupported_media_type', `Content-Encoding ${coding} is not supported: send the JSON as it is`);
  }
  readBody(req, rules.maxBytes, rules.keepRest === true, (body) => {
    try {
      if (!body.ok) {
        if (body.head) {
          x.requestBody = body.head;
          x.bodyCut = true;
        }
        return respond.sendError(x, 'payload_too_large', `the body is larger than ${rules.maxBytes} bytes`, CLOSE);
      }
      // For the journal: what the client sent, whatever the answer.
      x.requestBody = body.bytes;
      const parsed = parseJsonBytes(body.bytes, rules.parse);
      if (!parsed.ok) return respond.sendError(x, 'malformed_json', parsed.message);
      then(parsed.value);
    } catch (error) {
      respond.fail(x, error);
    }
  });
}
