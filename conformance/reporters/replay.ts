/**
 * One command line that replays a failing request exactly, with the API key
 * read from $PETSTORE_API_KEY so that no report ever contains it.
 */
import { joinUrl, type WireRequest } from '../client.js';

export const KEY_VARIABLE = 'PETSTORE_API_KEY';

/** A POSIX-shell single-quoted word; the key, wherever it occurs, becomes "$PETSTORE_API_KEY". */
function shellWord(text: string, apiKey: string): string {
  const quote = (part: string) => (part === '' ? '' : `'${part.replace(/'/g, `'\\''`)}'`);
  if (!apiKey || !text.includes(apiKey)) return quote(text) || "''";
  return text.split(apiKey).map(quote).join(`"$${KEY_VARIABLE}"`);
}

export function curlCommand(baseUrl: string, request: WireRequest, apiKey: string): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellWord(joinUrl(baseUrl, request.path), apiKey)];
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', shellWord(`${name}: ${value}`, apiKey));
  if (request.body !== undefined) parts.push('--data-binary', shellWord(request.body, apiKey));
  return parts.join(' ');
}

/** Replaces every occurrence of the key in `text`. */
export function redact(text: string, apiKey: string): string {
  return apiKey ? text.split(apiKey).join(`$${KEY_VARIABLE}`) : text;
}
