/**
 * How a client sent its key, described without the key: the seed (§5) says
 * `Authorization: Bearer <API_KEY>`, and a client that sends anything else
 * (another scheme, the key in another header or the query, `bearer` in lower
 * case) finds out here rather than from a gateway in production.
 */

/** Where clients commonly put a key instead of `Authorization: Bearer`: header names, lower-case. */
const KEY_HEADERS = ['x-api-key', 'api-key', 'apikey', 'x-auth-token', 'x-access-token', 'token'] as const;
/** Query parameters commonly carrying a key. */
const KEY_PARAMETERS = /(?:^|[?&])(api_key|apikey|api-key|key|token|access_token|auth)=/i;

export interface AuthRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly url?: string | undefined;
}

/** Whether the header is the seed's own spelling: `Bearer`, one space, the key. */
export function isCanonicalBearer(header: string): boolean {
  const first = header.charCodeAt(7);
  return header.startsWith('Bearer ') && first > 0x20 && first !== 0xa0;
}

/**
 * The form of an Authorization value with its credentials taken out: the
 * scheme as written and the whitespace after it, made visible. A value with
 * no whitespace may be a bare key, and a "scheme" longer than 20 characters
 * may be one too: nothing of either is shown. (A shorter one is shown whole,
 * so that `redact` takes out a key sent in its place.)
 */
export function authorizationForm(header: string, redact: (text: string) => string): string {
  const match = /^(\S+)(\s+)(\S?)/.exec(header);
  if (!match) return header.trim() === '' ? 'Authorization: (empty)' : 'Authorization: a value with no scheme (a bare key?)';
  const written = match[1] as string;
  const scheme = written.length > 20 ? `(a scheme of ${written.length} characters)` : redact(written);
  const gap = match[2] as string;
  const shownGap = gap === ' ' ? ' ' : ` [${gapWords(gap)}] `;
  return `Authorization: ${scheme}${shownGap}${match[3] ? '<key>' : '(nothing after the scheme)'}`;
}

function gapWords(gap: string): string {
  if (/^ +$/.test(gap)) return `${gap.length} spaces`;
  if (gap === '\t') return 'a tab';
  return `${gap.length} whitespace characters`;
}

/** Where the key was put instead, when it was not in Authorization: `the X-Api-Key header`, `the query parameter api_key`. */
export function keyElsewhere(req: AuthRequest): string | undefined {
  for (const name of KEY_HEADERS) if (req.headers[name] !== undefined) return `the ${name} header`;
  const query = req.url?.includes('?') ? KEY_PARAMETERS.exec(req.url.slice(req.url.indexOf('?'))) : null;
  if (query) return `the query parameter ${query[1]}`;
  if (req.headers['cookie'] !== undefined) return 'a cookie, perhaps';
  return undefined;
}
