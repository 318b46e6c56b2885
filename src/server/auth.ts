/**
 * Bearer authentication (RFC 6750 §2.1) against a fixed set of API keys.
 */
import crypto, { createHash, timingSafeEqual } from 'node:crypto';
import { AUTH_REALM } from './decisions.js';

/** `missing`: no Bearer credential at all; `invalid`: a Bearer key that is not accepted. */
export type AuthOutcome = 'ok' | 'missing' | 'invalid';

// RFC 9110 §11.1: the scheme is case-insensitive; one or more spaces separate it from the token.
const BEARER = /^bearer +(\S.*)$/i;

export function createAuthenticator(keys: readonly string[]): (header: string | undefined) => AuthOutcome {
  if (keys.length === 0) throw new Error('at least one API key is required');
  // Keys are compared as SHA-256 digests with timingSafeEqual, and every key
  // is compared, so the time taken says nothing about how close a guess was.
  const digests = keys.map(digest);
  return (header) => {
    if (!header) return 'missing';
    const match = BEARER.exec(header);
    if (!match) return 'missing';
    const presented = digest(match[1] as string);
    let accepted = false;
    for (const d of digests) accepted = timingSafeEqual(d, presented) || accepted;
    return accepted ? 'ok' : 'invalid';
  };
}

// The one-shot crypto.hash (Node 20.12+) costs a third of a Hash object per
// request; older Node 20 releases fall back to createHash.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;

function digest(key: string): Buffer {
  return oneShot ? oneShot('sha256', key, 'buffer') : createHash('sha256').update(key).digest();
}

/** The `WWW-Authenticate` challenge for a 401 (RFC 6750 §3). */
export function challenge(outcome: Exclude<AuthOutcome, 'ok'>): string {
  return outcome === 'invalid'
    ? `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="The API key is not accepted"`
    : `Bearer realm="${AUTH_REALM}"`;
}
