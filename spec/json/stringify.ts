/**
 * The inverse of `parseJson`: like `JSON.stringify`, but a `bigint` is written
 * as its exact digits. It takes what `JSON.stringify` takes (a client's
 * `bodySerializer` is typed `(body: unknown) => string`) and treats it alike:
 * object keys keep their order; `toJSON` is called (a `Date` is written as its
 * ISO string); `undefined`, functions and symbols are left out of an object and
 * written as `null` in an array. What has no JSON text at all (`undefined` on
 * its own) is a TypeError, since the answer is always a string.
 */
export function stringifyJson(value: unknown): string {
  const text = write(value);
  if (text === undefined) throw new TypeError(`stringifyJson: a ${typeof value} has no JSON text`);
  return text;
}

/** The JSON text of `value`, or undefined where JSON.stringify leaves it out. */
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      const withToJson = value as { toJSON?: unknown };
      if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON());
      if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
      const members: string[] = [];
      for (const key of Object.keys(value)) {
        const text = write((value as Record<string, unknown>)[key]);
        if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
      }
      return `{${members.join(',')}}`;
    }
    default:
      return undefined;
  }
}
