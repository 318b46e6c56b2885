/**
 * Bearer authentication (RFC 6750 §2.1) against a fixed set of API keys.
 */
import { AUTH_REALM } from './decisions.js';

/** `missing`: no Bearer credential at all; `invalid`: a Bearer key that is not accepted. */
export type AuthOutcome = 'ok' | 'missing' | 'invalid';

// RFC 9110 §11.1: the scheme is case-insensitive; one or more spaces separate it from the token.
const BEARER = /^bearer +(\S.*)$/i;

/**
 * Whether `text` from `start` to its end holds exactly `key`'s bytes, one
 * character per byte, in a time that depends on the key's length and
 * nothing else: every byte of the key is compared, and no comparison decides
 * a branch. (crypto.timingSafeEqual does the same in C++, but needs both
 * sides as buffers: copying the presented key into one, and the two calls
 * into C++, cost more than the rest of authentication.)
 */
export function sameBytes(text: string, start: number, key: Uint8Array): boolean {
  const length = text.length - start;
  let difference = length ^ key.length;
  for (let i = 0; i < key.length; i++) {
    // Past the end of a shorter text, its first character stands in: the lengths already differ.
    difference |= text.charCodeAt(start + (i < length ? i : 0)) ^ (key[i] as number);
  }
  return difference === 0;
}

/**
 * Any key sent as `Bearer <key>`, whatever the key: a proxy in front of an
 * upstream that holds the keys checks only that the client sends one, in the
 * interface's form, and leaves the key itself to the upstream.
 */
export function acceptAnyBearer(header: string | undefined): AuthOutcome {
  return header !== undefined && BEARER.test(header) ? 'ok' : 'missing';
}

/**
 * `header` is the Authorization field as Node.js delivers it: one character
 * per byte of the request.
 */
export function createAuthenticator(keys: readonly string[]): (header: string | undefined) => AuthOutcome {
  if (keys.length === 0) throw new Error('at least one API key is required');
  // Every key is compared, each over its whole length, so the time taken
  // depends on the keys' lengths (and the presented key's, which its sender
  // knows), never on how close a guess was, nor on which key matched. No
  // hashing is needed for that, and a SHA-256 per request was the largest
  // single cost of an authenticated request.
  const accepted = keys.map((key) => Buffer.from(key, 'utf8'));
  return (header) => {
    if (!header) return 'missing';
    // The usual spelling is read without the regular expression.
    const first = header.charCodeAt(7);
    let start = 7;
    if (!(header.startsWith('Bearer ') && first > 0x20 && first !== 0xa0)) {
      const token = BEARER.exec(header)?.[1];
      if (token === undefined) return 'missing';
      start = header.length - token.length; // the token runs to the end of the field
    }
    let ok = false;
    for (const key of accepted) ok = sameBytes(header, start, key) || ok;
    return ok ? 'ok' : 'invalid';
  };
}

/**
 * Whether the request carries more than one Authorization field. It is not a
 * list field (RFC 9110 §11.6.2), so two of them are malformed, and which one a
 * proxy in front reads is anyone's guess; Node.js keeps only the first in
 * `req.headers`. Such a request is refused as invalid. Asked only once the
 * first field was accepted, so a refused request costs nothing more.
 */
export function hasRepeatedAuthorization(rawHeaders: readonly string[]): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    // The usual spellings are compared as they are, without making a lower-case copy.
    if (name.length === 13 && (name === 'Authorization' || name === 'authorization' || name.toLowerCase() === 'authorization') && ++seen > 1) return true;
  }
  return false;
}

/**
 * Whether the request carries more than one Host field (RFC 9112 §3.2: such
 * a request is answered 400). Node.js keeps only the first in `req.headers`,
 * so the raw list is read; only names of four characters are compared.
 */
export function hasRepeatedHost(rawHeaders: readonly string[]): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host') && ++seen > 1) return true;
  }
  return false;
}

/** The `WWW-Authenticate` challenge for a 401 (RFC 6750 §3). */
export function challenge(outcome: Exclude<AuthOutcome, 'ok'>): string {
  return outcome === 'invalid'
    ? `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="The API key is not accepted"`
    : `Bearer realm="${AUTH_REALM}"`;
}
