/**
 * Request bodies: the media type, the size limit, and collecting the bytes.
 */
import type { IncomingMessage } from 'node:http';
import { parseJsonBytes, type JsonValue, type ParseLimits } from '../json/index.js';
import { CLOSE } from './headers.js';
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

/** Whether the request carries a body at all (RFC 9112 §6.3). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

export type BodyResult = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/** Collects the body, stopping as soon as it passes `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      req.removeListener('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) settle({ ok: false, reason: 'too_large' });
      else chunks.push(chunk);
    };
    const onEnd = () => settle({ ok: true, bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    // An aborted request ends in 'close' without 'end' (after 'error', when it has one).
    const onAbort = () => settle({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

export interface JsonBodyRules {
  readonly maxBytes: number;
  readonly parse: ParseLimits;
  /** What the body should be, for the message when there is none: "a NewPet as JSON". */
  readonly expected: string;
}

/**
 * A request body as JSON, or `undefined` once the problem has been answered:
 * no body (400), another media type or a content coding (415, RFC 9110
 * §8.4.1), too large (413, closing the connection, since the rest is not
 * read), not JSON (400). The one way every body of the server is read.
 */
export async function readJsonBody(x: Exchange, respond: Responder, rules: JsonBodyRules): Promise<JsonValue | undefined> {
  const { req } = x;
  if (!hasBody(req)) return void respond.sendError(x, 'invalid_body', `a request body is required: ${rules.expected}`);
  const type = req.headers['content-type'];
  if (!isJsonContentType(type)) {
    return void respond.sendError(x, 'unsupported_media_type', `the body must be sent as application/json, not ${type ?? 'without a Content-Type'}`);
  }
  const coding = req.headers['content-encoding']?.trim().toLowerCase();
  if (coding && coding !== 'identity') {
    return void respond.sendError(x, 'unsupported_media_type', `Content-Encoding ${coding} is not supported: send the JSON as it is`);
  }
  const body = await readBody(req, rules.maxBytes);
  if (!body.ok) {
    if (body.reason === 'too_large') respond.sendError(x, 'payload_too_large', `the body is larger than ${rules.maxBytes} bytes`, CLOSE);
    return undefined;
  }
  const parsed = parseJsonBytes(body.bytes, rules.parse);
  if (!parsed.ok) return void respond.sendError(x, 'malformed_json', parsed.message);
  return parsed.value;
}
