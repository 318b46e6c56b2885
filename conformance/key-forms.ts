/**
 * The API key and the texts derived from it that give it away. The suite
 * sends such near misses on purpose (the key as Basic credentials, with its
 * case swapped, without its last character: arbitraries/requests.ts), and a
 * failure report shows the request; so every report writes each of them as
 * the POSIX shell expression that rebuilds it from $PETSTORE_API_KEY.
 */
export const KEY_VARIABLE = 'PETSTORE_API_KEY';

export interface KeyForm {
  /** The text as sent. */
  readonly text: string;
  /** A shell word that evaluates to `text`, given $PETSTORE_API_KEY. */
  readonly shell: string;
  /** How a report shows it: safe inside JSON strings, XML and TAP. */
  readonly shown: string;
}

/** RFC 7617 Basic credentials for the key as user id and an empty password. */
export function basicCredentials(apiKey: string): string {
  return Buffer.from(`${apiKey}:`).toString('base64');
}

export function swapCase(text: string): string {
  const swapped = [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
  return swapped === text ? `${text}X` : swapped;
}

/** Where replaceMiddle changes the key: its middle character (0-based). */
const middleOf = (text: string): number => Math.floor([...text].length / 2);

/** The key with its middle character changed (to another b64token character), so its length, start and end still match. */
export function replaceMiddle(apiKey: string): string {
  return replaceAt(apiKey, middleOf(apiKey));
}

/** The key with the character at `index` (negative: from the end) changed to another b64token character: a wrong key of the key's length. */
export function replaceAt(apiKey: string, index: number): string {
  const chars = [...apiKey];
  const i = index < 0 ? chars.length + index : index;
  chars[i] = chars[i] === 'Q' ? 'R' : 'Q';
  return chars.join('');
}

// Shorter derived texts would match ordinary words of a report.
const MIN_DERIVED_LENGTH = 6;

/** The key and its telling forms, longest first (so the key wins over its own prefix). */
export function keyForms(apiKey: string): KeyForm[] {
  if (!apiKey) return [];
  const v = `$${KEY_VARIABLE}`;
  const derived: KeyForm[] = [
    { text: basicCredentials(apiKey), shell: `"$(printf '%s:' "${v}" | base64 | tr -d '\\n')"`, shown: `base64(${v}:)` },
    // tr swaps ASCII letters only, as keys are (RFC 6750 b64token).
    { text: swapCase(apiKey), shell: `"$(printf '%s' "${v}" | tr 'a-zA-Z' 'A-Za-z')"`, shown: `swapcase(${v})` },
    { text: apiKey.slice(0, -1), shell: `"\${${KEY_VARIABLE}%?}"`, shown: `\${${KEY_VARIABLE}%?}` },
    // sed's s/./C/N replaces the Nth character: POSIX, like the forms above.
    {
      text: replaceMiddle(apiKey),
      shell: `"$(printf '%s' "${v}" | sed 's/./${[...replaceMiddle(apiKey)][middleOf(apiKey)]}/${middleOf(apiKey) + 1}')"`,
      shown: `midchange(${v})`,
    },
  ].filter((f) => f.text.length >= MIN_DERIVED_LENGTH && !f.text.includes(apiKey));
  return [{ text: apiKey, shell: `"${v}"`, shown: v }, ...derived].sort((a, b) => b.text.length - a.text.length);
}

/**
 * What a report must not show: the API key, or the key and the other secrets
 * the run sent (the values of --header), each with the environment variable
 * a replay reads it from.
 */
export type Secrets = string | { readonly apiKey: string; readonly others: readonly Secret[] };

export interface Secret {
  readonly text: string;
  /** The environment variable a replay reads it from. */
  readonly variable: string;
}

/** Every form of every secret, longest first. */
export function secretForms(secrets: Secrets): KeyForm[] {
  if (typeof secrets === 'string') return keyForms(secrets);
  const others = secrets.others.filter((s) => s.text !== '').map((s): KeyForm => ({ text: s.text, shell: `"$${s.variable}"`, shown: `$${s.variable}` }));
  return [...keyForms(secrets.apiKey), ...others].sort((a, b) => b.text.length - a.text.length);
}

/** Splits `text` into literal pieces and the forms of each secret, in order. */
export function splitKeyForms(text: string, secrets: Secrets): (string | KeyForm)[] {
  const forms = secretForms(secrets);
  if (forms.length === 0) return [text];
  const pattern = new RegExp(forms.map((f) => f.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  const out: (string | KeyForm)[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out.push(text.slice(last, match.index));
    out.push(forms.find((f) => f.text === match[0])!);
    last = match.index! + match[0].length;
  }
  out.push(text.slice(last));
  return out.filter((piece) => piece !== '');
}
