/**
 * The methods their standards define as safe (a request with one asks for no
 * change), each with where it says so. Written from the standards, not read
 * from the suite's catalogue (conformance/catalogues/methods.ts), so that the
 * tests judge the catalogue rather than repeat it.
 */
export const SAFE_BY_STANDARD: Readonly<Record<string, string>> = {
  GET: 'RFC 9110 §9.2.1',
  HEAD: 'RFC 9110 §9.2.1',
  OPTIONS: 'RFC 9110 §9.2.1',
  TRACE: 'RFC 9110 §9.2.1',
  PROPFIND: 'RFC 4918 §9.1 (WebDAV)',
  REPORT: 'RFC 3253 §3.6 (WebDAV versioning)',
  SEARCH: 'RFC 5323 §2 (WebDAV SEARCH)',
  QUERY: 'draft-ietf-httpbis-safe-method-w-body',
};
