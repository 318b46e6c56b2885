/**
 * Request header fields that intermediaries and frameworks act on: method
 * overrides, rewrites of the target, client addresses that allow-lists
 * trust, conditional and range fields, and other places a key may be looked
 * for. One line a field and value: a field an attacker controls is sent with
 * the values an attacker would choose (the interface's own paths and others,
 * every method, loopback and private addresses, internal host names), not
 * only the one that names the real route. A field marked `keyElsewhere` carries the API key
 * somewhere the interface does not take it (§5.2: `Authorization: Bearer`);
 * a request carrying only such a field has no valid credential.
 */
export interface FieldInputs {
  readonly apiKey: string;
  /** The base URL's path (`/v1`), for fields that name a target. */
  readonly basePath: string;
}

export interface FieldEntry {
  readonly name: string;
  readonly value: (inputs: FieldInputs) => string;
  /** Who acts on it. */
  readonly actedOnBy: string;
  readonly keyElsewhere?: true;
  /** Safe to send with the valid key to a staging: it asks for no change of state. */
  readonly safe: boolean;
}

const FUTURE = 'Sun, 01 Jan 2090 00:00:00 GMT';

export const REQUEST_FIELDS: readonly FieldEntry[] = [
  { name: 'x-http-method-override', value: () => 'DELETE', actedOnBy: 'Google APIs, express method-override, Spring HiddenHttpMethodFilter', safe: false },
  { name: 'x-http-method-override', value: () => 'PUT', actedOnBy: 'Google APIs, express method-override', safe: false },
  { name: 'x-http-method-override', value: () => 'GET', actedOnBy: 'Google APIs, express method-override', safe: true },
  { name: 'x-http-method-override', value: () => 'POST', actedOnBy: 'Google APIs, express method-override', safe: false },
  { name: 'x-http-method-override', value: () => 'OPTIONS', actedOnBy: 'express method-override ahead of a CORS handler that lets preflights in', safe: true },
  { name: 'x-http-method', value: () => 'DELETE', actedOnBy: 'Microsoft (OData)', safe: false },
  { name: 'x-method-override', value: () => 'PATCH', actedOnBy: 'IBM, various gateways', safe: false },
  { name: 'x-original-url', value: ({ basePath }) => `${basePath}/pets`, actedOnBy: 'IIS URL rewrite, Symfony', safe: true },
  { name: 'x-original-url', value: ({ basePath }) => `${basePath}/pets/1`, actedOnBy: 'IIS URL rewrite, Symfony', safe: true },
  { name: 'x-original-url', value: ({ basePath }) => `${basePath}/pets?limit=1000`, actedOnBy: 'IIS URL rewrite, Symfony', safe: true },
  { name: 'x-original-url', value: () => '/', actedOnBy: 'IIS URL rewrite, Symfony (a public root)', safe: true },
  { name: 'x-rewrite-url', value: ({ basePath }) => `${basePath}/pets`, actedOnBy: 'IIS, Zend', safe: true },
  { name: 'x-rewrite-url', value: () => '/health', actedOnBy: 'IIS, Zend (a public health check)', safe: true },
  { name: 'x-original-method', value: () => 'GET', actedOnBy: 'nginx auth_request setups', safe: true },
  { name: 'x-forwarded-for', value: () => '127.0.0.1', actedOnBy: 'IP allow-lists behind a proxy', safe: true },
  { name: 'x-forwarded-for', value: () => '::1', actedOnBy: 'IP allow-lists behind a proxy (IPv6 loopback)', safe: true },
  { name: 'x-forwarded-for', value: () => '10.0.0.1', actedOnBy: 'IP allow-lists of a private network (RFC 1918)', safe: true },
  { name: 'x-forwarded-for', value: () => '192.168.1.1', actedOnBy: 'IP allow-lists of a private network (RFC 1918)', safe: true },
  { name: 'x-forwarded-for', value: () => '203.0.113.7, 127.0.0.1', actedOnBy: 'allow-lists that read the last address a proxy appended', safe: true },
  { name: 'x-real-ip', value: () => '127.0.0.1', actedOnBy: 'nginx real_ip, IP allow-lists', safe: true },
  { name: 'x-real-ip', value: () => '10.0.0.1', actedOnBy: 'nginx real_ip, private-network allow-lists', safe: true },
  { name: 'x-client-ip', value: () => '127.0.0.1', actedOnBy: 'IP allow-lists', safe: true },
  { name: 'true-client-ip', value: () => '127.0.0.1', actedOnBy: 'Akamai, Cloudflare', safe: true },
  { name: 'forwarded', value: () => 'for=127.0.0.1;proto=https;host=localhost', actedOnBy: 'RFC 7239 proxies', safe: true },
  { name: 'x-forwarded-host', value: () => 'localhost', actedOnBy: 'Express trust proxy, Spring ForwardedHeaderFilter', safe: true },
  { name: 'x-forwarded-host', value: () => 'admin.internal', actedOnBy: 'virtual hosts chosen by forwarded host (an internal admin host)', safe: true },
  { name: 'x-forwarded-proto', value: () => 'https', actedOnBy: 'Express trust proxy, Rails force_ssl', safe: true },
  { name: 'x-forwarded-prefix', value: () => '/', actedOnBy: 'Spring ForwardedHeaderFilter', safe: true },
  { name: 'x-forwarded-prefix', value: () => '/internal', actedOnBy: 'Spring ForwardedHeaderFilter (a prefix an allow-list trusts)', safe: true },
  { name: 'x-api-key', value: ({ apiKey }) => apiKey, actedOnBy: 'API gateways (AWS API Gateway, Kong)', keyElsewhere: true, safe: true },
  { name: 'api-key', value: ({ apiKey }) => apiKey, actedOnBy: 'Azure API Management', keyElsewhere: true, safe: true },
  { name: 'x-auth-token', value: ({ apiKey }) => apiKey, actedOnBy: 'OpenStack, custom auth middleware', keyElsewhere: true, safe: true },
  { name: 'x-access-token', value: ({ apiKey }) => apiKey, actedOnBy: 'custom auth middleware', keyElsewhere: true, safe: true },
  { name: 'x-authorization', value: ({ apiKey }) => `Bearer ${apiKey}`, actedOnBy: 'gateways that move Authorization aside', keyElsewhere: true, safe: true },
  {
    name: 'proxy-authorization',
    value: ({ apiKey }) => `Bearer ${apiKey}`,
    actedOnBy: 'proxies (RFC 9110 §11.7.2): never the origin',
    keyElsewhere: true,
    safe: true,
  },
  { name: 'cookie', value: ({ apiKey }) => `access_token=${apiKey}`, actedOnBy: 'session middleware, SPA backends', keyElsewhere: true, safe: true },
  { name: 'cookie', value: ({ apiKey }) => `session=${apiKey}`, actedOnBy: 'session middleware', keyElsewhere: true, safe: true },
  { name: 'if-none-match', value: () => '*', actedOnBy: 'caches, conditional GET (RFC 9110 §13.1.2)', safe: true },
  { name: 'if-modified-since', value: () => FUTURE, actedOnBy: 'caches, conditional GET (RFC 9110 §13.1.3)', safe: true },
  { name: 'range', value: () => 'bytes=0-9', actedOnBy: 'static-file and range middleware (RFC 9110 §14.2)', safe: true },
  { name: 'cache-control', value: () => 'no-cache', actedOnBy: 'caches (RFC 9111 §5.2.1.4)', safe: true },
  { name: 'max-forwards', value: () => '0', actedOnBy: 'proxies, for TRACE and OPTIONS (RFC 9110 §7.6.2)', safe: true },
  { name: 'origin', value: () => 'https://attacker.example', actedOnBy: 'CORS middleware', safe: true },
  { name: 'access-control-request-method', value: () => 'DELETE', actedOnBy: 'CORS preflight handlers', safe: true },
  { name: 'accept', value: () => 'text/html', actedOnBy: 'content negotiation, error pages', safe: true },
  { name: 'content-encoding', value: () => 'gzip', actedOnBy: 'body parsers that inflate (body-parser)', safe: true },
];

/**
 * Query parameters that frameworks read a key or a method from. The
 * `access_token` parameter is RFC 6750 §2.3's own way of sending a bearer
 * token (which a resource server MAY support and SHOULD NOT): a server that
 * takes it is reported as an advisory, every other one as a failure.
 */
export interface QueryEntry {
  readonly query: (inputs: FieldInputs) => string;
  readonly actedOnBy: string;
  readonly keyElsewhere?: true;
  /** Open by the standards (an advisory when the target acts on it). */
  readonly open?: string;
}

export const QUERY_FORMS: readonly QueryEntry[] = [
  { query: ({ apiKey }) => `api_key=${encodeURIComponent(apiKey)}`, actedOnBy: 'Swagger-era APIs', keyElsewhere: true },
  { query: ({ apiKey }) => `apiKey=${encodeURIComponent(apiKey)}`, actedOnBy: 'custom auth middleware', keyElsewhere: true },
  { query: ({ apiKey }) => `key=${encodeURIComponent(apiKey)}`, actedOnBy: 'Google APIs', keyElsewhere: true },
  { query: ({ apiKey }) => `token=${encodeURIComponent(apiKey)}`, actedOnBy: 'custom auth middleware', keyElsewhere: true },
  {
    query: ({ apiKey }) => `access_token=${encodeURIComponent(apiKey)}`,
    actedOnBy: 'RFC 6750 §2.3 (URI query parameter)',
    keyElsewhere: true,
    open: 'RFC 6750 §2.3 lets a resource server take a bearer token from access_token (MAY; SHOULD NOT unless the header is impossible)',
  },
  { query: () => 'callback=conformCallback', actedOnBy: 'JSONP middleware (a script tag reads it from any origin)' },
  { query: () => '_method=DELETE', actedOnBy: 'Rails, Laravel, express method-override (query)' },
  { query: () => '_method=PUT', actedOnBy: 'Rails, Laravel' },
];
