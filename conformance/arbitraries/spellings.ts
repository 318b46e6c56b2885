/**
 * Other spellings of a request that HTTP stacks, routers and proxies may
 * route to the same handler as the spec's own: a trailing slash, the letter
 * case of literal segments, a percent-encoded letter, a doubled slash, dot
 * segments (RFC 3986 §5.2.4 removes them), an encoded slash, a matrix
 * parameter (servlet containers strip `;…` from a segment), a format suffix
 * (`.json`), an empty query, and HEAD for GET
 * (RFC 9110 §9.3.2: HEAD is GET without the content). An auth layer mounted
 * on the canonical route often misses them.
 */

export interface Spelling {
  readonly label: string;
  readonly method: string;
  /** The request path below the base URL, spelled this way. */
  readonly path: string;
}

/** A path's segments, with which of them are literal (not `{parameters}` of the template). */
interface Segment {
  readonly text: string;
  readonly literal: boolean;
}

function segmentsOf(template: string, filled: string): Segment[] {
  const names = template.split('/').slice(1);
  return filled
    .split('/')
    .slice(1)
    .map((text, i) => ({ text, literal: !(names[i] ?? '').startsWith('{') }));
}

const join = (segments: readonly Segment[]): string => segments.map((s) => `/${s.text}`).join('');

/** Each literal segment changed by `change`; undefined when that changes nothing. */
function withLiterals(segments: readonly Segment[], change: (text: string) => string): string | undefined {
  const changed = segments.map((s) => (s.literal ? { ...s, text: change(s.text) } : s));
  const path = join(changed);
  return path === join(segments) ? undefined : path;
}

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The first letter of each literal segment as `%XX` (RFC 3986 §2.1: an unreserved character need not be encoded, but may be). */
const encodeFirstLetter = (text: string): string => text.replace(/[A-Za-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/**
 * The spellings of `method filled` (a path made from `template` with its
 * parameters filled), each different from the canonical request.
 */
export function routeSpellings(method: string, template: string, filled: string): Spelling[] {
  const segments = segmentsOf(template, filled);
  const first = segments[0]?.text ?? '';
  const last = segments.length - 1;
  const candidates: (Spelling | undefined)[] = [
    { label: 'a trailing slash', method, path: `${filled}/` },
    spelled(
      'literal segments in upper case',
      method,
      withLiterals(segments, (t) => t.toUpperCase()),
    ),
    spelled('literal segments capitalised', method, withLiterals(segments, capitalise)),
    spelled('a percent-encoded letter', method, withLiterals(segments, encodeFirstLetter)),
    { label: 'a doubled slash at the start', method, path: `/${filled}` },
    ...(last > 0 ? [{ label: 'a doubled slash inside', method, path: `${join(segments.slice(0, last))}/${join(segments.slice(last))}` }] : []),
    { label: 'a dot segment', method, path: `/.${filled}` },
    { label: 'a dot-dot segment', method, path: `/${first}/..${filled}` },
    ...(last > 0 ? [{ label: 'an encoded slash', method, path: `${join(segments.slice(0, last))}%2F${segments[last]!.text}` }] : []),
    { label: 'a matrix parameter', method, path: `${join(segments.slice(0, last))}/${segments[last]?.text ?? ''};x=1` },
    // Rails-style routes take `/pets.json` for `/pets` (a format suffix).
    { label: 'a format suffix', method, path: `${filled}.json` },
    { label: 'an empty query', method, path: `${filled}?` },
    ...(method === 'GET' ? [{ label: 'HEAD for GET', method: 'HEAD', path: filled }] : []),
  ];
  return candidates.filter((s): s is Spelling => s !== undefined && !(s.method === method && s.path === filled));
}

function spelled(label: string, method: string, path: string | undefined): Spelling | undefined {
  return path === undefined ? undefined : { label, method, path };
}
