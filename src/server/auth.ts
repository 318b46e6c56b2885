/**
 * Bearer authentication (RFC 6750 §2.1) against a fixed set of API keys.
 */
import { timingSafeEqual } from 'node:crypto';
import { AUTH_REALM } from './decisions.js';

/** `missing`: no Bearer credential at all; `invalid`: a Bearer key that is not accepted. */
export type AuthOutcome = 'ok' | 'missing' | 'invalid';

// RFC 9110 §11.1: the scheme is case-insensitive; one or more spaces separate it from the token.
const BEARER = /^bearer +(\S.*)$/i;

export function createAuthenticator(keys: readonly string[]): (header: string | undefined) => AuthOutcome {
  if (keys.length === 0) throw new Error('at least one API key is required');
  // Every key is compared, each with timingSafeEqual over the key's own
  // length: a presented key of another length is compared as a stand-in of
  // the right length that cannot match. So the time taken depends on the
  // presented key's length (which its sender knows) and the keys' lengths,
  // never on how close a guess was. No hashing is needed for that, and a
  // SHA-256 per request was the largest single cost of an authenticated request.
  const accepted = keys.map((key) => {
    const bytes = Buffer.from(key, 'utf8');
    return { bytes, standIn: Buffer.alloc(bytes.length) };
  });
  return (header) => {
    if (!header) return 'missing';
    const match = BEARER.exec(header);
    if (!match) return 'missing';
    const presented = Buffer.from(match[1] as string, 'utf8');
    let ok = false;
    for (const key of accepted) {
      const sameLength = presented.length === key.bytes.length;
      const equal = timingSafeEqual(sameLength ? presented : key.standIn, key.bytes);
      ok = (equal && sameLength) || ok;
    }
    return ok ? 'ok' : 'invalid';
  };
}

/** The `WWW-Authenticate` challenge for a 401 (RFC 6750 §3). */
export function challenge(outcome: Exclude<AuthOutcome, 'ok'>): string {
  return outcome === 'invalid'
    ? `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="The API key is not accepted"`
    : `Bearer realm="${AUTH_REALM}"`;
}
