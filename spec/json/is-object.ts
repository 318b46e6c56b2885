import type { JsonObject } from './parse.js';

/** A JSON object, as opposed to an array, null or a scalar: what both halves ask of a body before reading its members. */
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
