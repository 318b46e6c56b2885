/**
 * Texts from a request as a finding shows them: never an API key, never
 * longer than a bound. A key is taken out before the text is cut, and a cut
 * that falls inside a key drops whatever the key begins with at the end, so
 * no part of one is ever shown (as the journal does with its bodies).
 */
export function cutShown(text: string, max: number, keys: readonly string[]): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max);
  for (const key of keys) {
    for (let n = Math.min(key.length - 1, cut.length); n > 0; n--) {
      if (cut.endsWith(key.slice(0, n))) {
        cut = cut.slice(0, -n);
        break;
      }
    }
  }
  return `${cut}… (${text.length} characters)`;
}

/** A JSON value as a finding shows what was sent: short values whole, long ones by their size only. */
export function shownValue(json: string, redact: (text: string) => string): string {
  const text = redact(json);
  return text.length <= 60 ? text : `${text[0] === '"' ? 'a string' : 'a value'} of ${json.length} characters`;
}
