/**
 * Values as the wire shows them, for every report: integers as their digits
 * (a bigint is never `3n`), strings quoted, and long texts cut with a
 * visible marker that says how long they were.
 */

/** A generated input or a parsed body, written the way JSON would write it. */
export function showValue(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(showValue).join(',')}]`;
  // fast-check's commands and the like say what they are through toString.
  if (typeof value.toString === 'function' && value.toString !== Object.prototype.toString) return String(value);
  return `{${Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${JSON.stringify(k)}:${showValue(v)}`)
    .join(',')}}`;
}

/** `text` cut to `max` characters, with a marker saying how much there was. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [cut: ${text.length} characters in all]` : text;
}

/**
 * Where two strings part, in code points, for a message that names both: two
 * names that print alike (an Å and an A with a combining ring, a non-breaking
 * space, a zero-width joiner) are told apart by what follows. Empty unless both
 * are strings and differ.
 */
export function whereTheyDiffer(first: unknown, second: unknown): string {
  if (typeof first !== 'string' || typeof second !== 'string' || first === second) return '';
  const a = [...first];
  const b = [...second];
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const rest = (chars: string[]) =>
    at >= chars.length
      ? '(the end)'
      : chars
          .slice(at, at + 4)
          .map(codePoint)
          .join(' ') + (chars.length > at + 4 ? ' …' : '');
  return ` (they differ from character ${at + 1}: ${rest(a)}, then ${rest(b)})`;
}

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
