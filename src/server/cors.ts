/**
 * CORS (Fetch standard), so that a page in a browser can use the stand-in.
 * The interface authenticates with a bearer header, not cookies, so any
 * origin may call it: `*` is right and needs no `Vary: Origin`.
 */
import type { HeaderList } from './headers.js';

/** On every response to a request that has an `Origin`. */
export const corsHeaders: HeaderList = [
  'access-control-allow-origin',
  '*',
  // Without this a page cannot read them (they are not CORS-safelisted).
  'access-control-expose-headers',
  'Deprecation, Sunset, Link, WWW-Authenticate, Allow, Location, Petstore-Fault, Petstore-Finding',
];

/** On a preflight answer, for a path whose methods are `allow`. */
export function preflightHeaders(allow: string): HeaderList {
  return ['access-control-allow-methods', allow, 'access-control-allow-headers', 'Authorization, Content-Type', 'access-control-max-age', '600'];
}
