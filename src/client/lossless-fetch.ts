/**
 * A fetch for clients generated from the interface (openapi-fetch and the
 * like), so that int64 values survive: JSON.parse turns 9007199254740993 into
 * 9007199254740992, and such a client reads every body with `response.json()`.
 * The answers it returns read JSON bodies with the package's lossless codec:
 * every integer as a bigint (so an id is one type, whatever its size), a
 * number with a fraction or an exponent as a number. Pair it with
 * `stringifyJson` as the body serializer, which writes a bigint as its
 * digits. docs/stand-in.md gives the recipe, with the types to generate.
 */
import { parseJson } from '../../spec/json/index.js';

/** Statuses whose answer has no body (a Response built with one throws). */
const NO_BODY = new Set([101, 204, 205, 304]);

export function losslessFetch(fetchImpl: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (NO_BODY.has(response.status) || !/^application\/([\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '')) return response;
    const text = await response.text();
    const read = new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    Object.defineProperty(read, 'json', {
      value: async () => {
        const parsed = parseJson(text);
        if (!parsed.ok) throw new SyntaxError(`the body is not JSON: ${parsed.message}`);
        return parsed.value;
      },
    });
    return read;
  };
}
