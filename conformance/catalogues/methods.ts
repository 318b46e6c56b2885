/**
 * Request methods, from the IANA HTTP Method Registry
 * (https://www.iana.org/assignments/http-methods, RFC 9110 §16.1), plus the
 * unregistered ones that proxies and frameworks act on. One line a method:
 * adding one is adding a line. `safe` is the registry's column; a method
 * that is not safe may change state on a server that implements it.
 *
 * Left out: CONNECT (it asks for a tunnel, not a resource: RFC 9110 §9.3.6)
 * and PRI (the HTTP/2 connection preface, never a request method).
 */
export interface MethodEntry {
  readonly method: string;
  readonly safe: boolean;
  /** Where it is defined. */
  readonly source: string;
}

export const METHODS: readonly MethodEntry[] = [
  { method: 'GET', safe: true, source: 'RFC 9110 §9.3.1' },
  { method: 'HEAD', safe: true, source: 'RFC 9110 §9.3.2' },
  { method: 'POST', safe: false, source: 'RFC 9110 §9.3.3' },
  { method: 'PUT', safe: false, source: 'RFC 9110 §9.3.4' },
  { method: 'DELETE', safe: false, source: 'RFC 9110 §9.3.5' },
  { method: 'OPTIONS', safe: true, source: 'RFC 9110 §9.3.7' },
  { method: 'TRACE', safe: true, source: 'RFC 9110 §9.3.8' },
  { method: 'PATCH', safe: false, source: 'RFC 5789' },
  { method: 'QUERY', safe: true, source: 'draft-ietf-httpbis-safe-method-w-body' },
  { method: 'PROPFIND', safe: true, source: 'RFC 4918 §9.1' },
  { method: 'PROPPATCH', safe: false, source: 'RFC 4918 §9.2' },
  { method: 'MKCOL', safe: false, source: 'RFC 4918 §9.3' },
  { method: 'COPY', safe: false, source: 'RFC 4918 §9.8' },
  { method: 'MOVE', safe: false, source: 'RFC 4918 §9.9' },
  { method: 'LOCK', safe: false, source: 'RFC 4918 §9.10' },
  { method: 'UNLOCK', safe: false, source: 'RFC 4918 §9.11' },
  { method: 'SEARCH', safe: true, source: 'RFC 5323' },
  { method: 'REPORT', safe: true, source: 'RFC 3253 §3.6' },
  { method: 'MERGE', safe: false, source: 'RFC 3253 §11.2' },
  { method: 'BIND', safe: false, source: 'RFC 5842 §4' },
  { method: 'LINK', safe: false, source: 'RFC 2068 §19.6.1.2' },
  { method: 'UNLINK', safe: false, source: 'RFC 2068 §19.6.1.3' },
  // Not registered, but acted on: caches purge on it (Varnish, Squid, nginx's proxy_cache_purge).
  { method: 'PURGE', safe: false, source: 'not registered (cache purge)' },
];
