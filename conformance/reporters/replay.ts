/**
 * One command line that replays a failing request exactly, with the API key
 * read from $PETSTORE_API_KEY so that no report ever contains it, nor any
 * form of it that gives it away (key-forms.ts).
 */
import { joinUrl, type WireRequest } from '../client.js';
import { KEY_VARIABLE, type Secrets, splitKeyForms } from '../key-forms.js';
import { shellQuote } from '../shell.js';

export { KEY_VARIABLE };

/** A POSIX-shell word: literal text single-quoted, each form of the key the expression that rebuilds it. */
function shellWord(text: string, secrets: Secrets): string {
  const pieces = splitKeyForms(text, secrets);
  if (pieces.length === 0) return "''";
  return pieces.map((piece) => (typeof piece === 'string' ? shellQuote(piece) : piece.shell)).join('');
}

export function curlCommand(baseUrl: string, request: WireRequest, secrets: Secrets): string {
  const url = request.fromOrigin ? new URL(baseUrl).origin + request.path : joinUrl(baseUrl, request.path);
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellWord(url, secrets)];
  for (const [name, values] of Object.entries(request.headers)) {
    for (const value of [values].flat()) parts.push('-H', shellWord(`${name}: ${value}`, secrets));
  }
  if (request.body !== undefined) parts.push('--data-binary', shellWord(request.body, secrets));
  // Dot segments and doubled slashes are sent as they are (curl would remove them, RFC 3986 §5.2.4).
  if (/\/\.|\/\//.test(url.replace(/^[a-z]+:\/\//, ''))) parts.push('--path-as-is');
  return parts.join(' ');
}

/** The command that runs the failing check again with the seed that found it (the key from the environment). */
export function rerunCommand(target: string, checkId: string, seed: number, reach: readonly string[] = []): string {
  return `petstore conform --base-url ${target} --api-key "$${KEY_VARIABLE}"${reach.map((word) => ` ${word}`).join('')} --checks ${checkId} --seed ${seed}`;
}

/** Replaces every occurrence of the key, and of each form of it that gives it away, in `text`. */
export function redact(text: string, secrets: Secrets): string {
  return splitKeyForms(text, secrets)
    .map((piece) => (typeof piece === 'string' ? piece : piece.shown))
    .join('');
}

/** Where names come from the wire (headers, parsed bodies), and so may hold the key too. */
const WIRE_RECORDS = new Set(['headers', 'json']);

/**
 * Fields the suite writes itself, from its own check definitions and the
 * spec, never from what was sent or received: they cannot hold the key, and
 * redacting them would garble them for a key short enough to occur in words.
 */
const SUITE_TEXT = new Set([
  'id',
  'checkId',
  'family',
  'operationId',
  'title',
  'requirement',
  'seedSection',
  'status',
  'decision',
  'seed',
  'referenceBehaviour',
  'coverage',
]);

/**
 * A copy of `value` with the key removed from every string in it but the
 * suite's own (SUITE_TEXT), and from the names of what came over the wire. Reports are rendered from this copy
 * rather than redacted as finished text, where a short key would be found
 * inside the report's own words and field names.
 */
export function redactDeep<T>(value: T, secrets: Secrets, wireNames = false): T {
  if (typeof value === 'string') return redact(value, secrets) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets, wireNames)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) =>
        wireNames
          ? [redact(name, secrets), redactDeep(item, secrets, true)]
          : [name, SUITE_TEXT.has(name) ? item : redactDeep(item, secrets, WIRE_RECORDS.has(name))],
      ),
    ) as T;
  }
  return value;
}
