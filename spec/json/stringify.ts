import type { JsonValue } from './parse.js';

/**
 * The inverse of `parseJson`: like `JSON.stringify`, but a `bigint` is written
 * as its exact digits. Object keys keep their order; `undefined` members are
 * left out, as `JSON.stringify` does.
 */
export function stringifyJson(value: JsonValue): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    default:
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map(stringifyJson).join(',')}]`;
      return (
        '{' +
        Object.keys(value)
          .filter((key) => value[key] !== undefined)
          .map((key) => `${JSON.stringify(key)}:${stringifyJson(value[key] as JsonValue)}`)
          .join(',') +
        '}'
      );
  }
}
