/**
 * Request header fields from the IANA HTTP Field Name Registry
 * (https://www.iana.org/assignments/http-fields, RFC 9110 §16.3), the ones a
 * client may send, plus the unregistered ones that proxies and frameworks act
 * on (catalogues/request-fields.ts has those with the values that name the
 * real route). oracle.composed sends them without a key, each with values an
 * attacker would choose (VALUE_KINDS), drawn by fast-check: what a server
 * does with any of them is its own, so long as nothing is served without the
 * key. One line a field. Left out: the fields that frame the message or name
 * the connection (Content-Length, Transfer-Encoding, Host, Connection,
 * Upgrade, TE, Keep-Alive), Expect and Proxy-Authorization, which undici sets
 * itself or refuses to send (the latter through a proxy), and the http family
 * probes by hand where it can, and Authorization, which is the credential.
 */
export const REGISTERED_FIELDS: readonly string[] = [
  'accept',
  'accept-charset',
  'accept-encoding',
  'accept-language',
  'access-control-request-headers',
  'access-control-request-method',
  'cache-control',
  'content-language',
  'content-location',
  'cookie',
  'date',
  'dnt',
  'early-data',
  'forwarded',
  'from',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-range',
  'if-unmodified-since',
  'max-forwards',
  'origin',
  'pragma',
  'prefer',
  'priority',
  'range',
  'referer',
  'sec-fetch-dest',
  'sec-fetch-mode',
  'sec-fetch-site',
  'sec-fetch-user',
  'sec-purpose',
  'user-agent',
  'via',
  'x-client-ip',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-prefix',
  'x-forwarded-proto',
  'x-forwarded-server',
  'x-http-method',
  'x-http-method-override',
  'x-method-override',
  'x-original-method',
  'x-original-uri',
  'x-original-url',
  'x-real-ip',
  'x-rewrite-url',
  'x-requested-with',
  'x-internal',
  'x-debug',
];

/** What an attacker puts in a field, given the base path (`/v1`): kinds of value, each a list to draw from. */
export const VALUE_KINDS: readonly { readonly kind: string; readonly values: (basePath: string) => readonly string[] }[] = [
  { kind: "the interface's own paths", values: (b) => [`${b}/pets`, `${b}/pets/1`, `${b}/pets?limit=1000`, `${b}/`, b] },
  { kind: 'other paths', values: () => ['/', '/admin', '/health', '/internal', '/public', '/../v1/pets'] },
  { kind: 'addresses', values: () => ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.10', '169.254.169.254', 'localhost', 'for=127.0.0.1'] },
  { kind: 'methods', values: () => ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'] },
  { kind: 'numbers at type edges', values: () => ['0', '-1', '1', '2147483648', '4294967296', '9223372036854775808', '1e400', 'NaN'] },
  { kind: 'words that switch behaviour', values: () => ['true', '1', 'yes', 'internal', 'admin', 'debug', 'XMLHttpRequest', '*'] },
];
