/**
 * Readers of the response header fields the suite judges, to the grammar of
 * their RFCs: HTTP-dates (RFC 9110 §5.6.7), challenges (§11.3, RFC 6750 §3),
 * Cache-Control directives (RFC 9111 §5.2), Content-Range (RFC 9110 §14.4)
 * and lists of tokens (§5.6.1). Each returns a value or undefined; none
 * throws.
 */

const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** RFC 9110 §5.6.7: the one form a sender generates. */
export const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$`);

/** The instant of an IMF-fixdate, or undefined when `value` is not one. */
export function imfFixdate(value: string | undefined): number | undefined {
  if (value === undefined || !IMF_FIXDATE.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

export interface Challenge {
  /** The auth-scheme, lower-cased. */
  readonly scheme: string;
  readonly token68?: string;
  /** auth-params by lower-cased name, quoted-strings unquoted. */
  readonly params: Readonly<Record<string, string>>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*/;
const QUOTED = /^"((?:[^"\\]|\\.)*)"/;

/**
 * The challenges of a WWW-Authenticate value (RFC 9110 §11.6.1: a list of
 * `auth-scheme [ 1*SP ( token68 / #auth-param ) ]`), or undefined when the
 * value does not parse. A list element that is `name=value` continues the
 * challenge before it; any other starts a new one.
 */
export function parseChallenges(value: string): Challenge[] | undefined {
  const out: { scheme: string; token68?: string; params: Record<string, string> }[] = [];
  let rest = value.trim();
  const skip = (pattern: RegExp) => {
    rest = rest.replace(pattern, '');
  };
  /** `name BWS = BWS value` at the start of `rest`, into `params`; false when it is not there. */
  const param = (params: Record<string, string>): boolean => {
    const match = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)[ \t]*=[ \t]*/.exec(rest);
    if (!match) return false;
    const after = rest.slice(match[0].length);
    const quoted = QUOTED.exec(after);
    const plain = TOKEN.exec(after);
    if (!quoted && !plain) return false;
    params[match[1]!.toLowerCase()] = quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : plain![0];
    rest = after.slice((quoted ?? plain)![0].length);
    return true;
  };
  while (rest.length > 0) {
    if (rest.startsWith(',')) {
      skip(/^,[ \t]*/);
      continue;
    }
    const current = out[out.length - 1];
    if (current && !current.token68 && param(current.params)) {
      skip(/^[ \t]*/);
      continue;
    }
    const scheme = TOKEN.exec(rest)?.[0];
    if (scheme === undefined) return undefined;
    const challenge: { scheme: string; token68?: string; params: Record<string, string> } = { scheme: scheme.toLowerCase(), params: {} };
    out.push(challenge);
    rest = rest.slice(scheme.length);
    if (rest === '' || rest.startsWith(',')) continue;
    if (!/^[ \t]/.test(rest)) return undefined;
    skip(/^[ \t]*/);
    const token68 = TOKEN68.exec(rest)?.[0];
    if (token68 !== undefined && /^[ \t]*(,|$)/.test(rest.slice(token68.length))) {
      challenge.token68 = token68;
      rest = rest.slice(token68.length);
    } else if (!param(challenge.params) && rest !== '' && !rest.startsWith(',')) return undefined;
    skip(/^[ \t]*/);
  }
  return out;
}

/** RFC 6750 §3: what the values of `error`, `error_description` and `scope` may hold. */
export const BEARER_PARAM_CHARS: Readonly<Record<string, RegExp>> = {
  error: /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/,
  error_description: /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/,
  scope: /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/,
};

/** Cache-Control directives by lower-cased name (RFC 9111 §5.2), their arguments unquoted ('' for none). */
export function cacheDirectives(value: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of splitList(value ?? '')) {
    const [name, ...argument] = part.split('=');
    out.set(
      name!.trim().toLowerCase(),
      argument
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
  }
  return out;
}

/** The members of a comma-separated list (RFC 9110 §5.6.1), commas inside quoted strings kept. */
export function splitList(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === '"' && value[i - 1] !== '\\') quoted = !quoted;
    if (c === ',' && !quoted) {
      out.push(current);
      current = '';
    } else current += c;
  }
  out.push(current);
  return out.map((m) => m.trim()).filter((m) => m !== '');
}

/** `bytes first-last/complete` of a Content-Range (RFC 9110 §14.4), or undefined. */
export function contentRange(value: string | undefined): { first: number; last: number; complete?: number } | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/i.exec(value?.trim() ?? '');
  if (!match) return undefined;
  const first = Number(match[1]);
  const last = Number(match[2]);
  if (last < first) return undefined;
  return match[3] === '*' ? { first, last } : { first, last, complete: Number(match[3]) };
}
