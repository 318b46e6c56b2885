/**
 * A JSON writer for objects of one schema, compiled once: the keys are
 * pre-quoted, in the schema's property order, and each value is written by
 * its declared type. Written once per pet at creation, it is what a store of a
 * million pets spends most of its loading time on; this is about three times
 * faster than walking the object generically.
 */
import type { Schema } from '../operations.js';
import { stringifyJson, type JsonObject, type JsonValue } from '../json/index.js';

type Writer = (value: JsonValue) => string;

function writerFor(schema: Schema): Writer {
  switch (schema['type']) {
    case 'integer':
      return (v) => (typeof v === 'bigint' || Number.isSafeInteger(v) ? String(v) : stringifyJson(v));
    case 'string':
      return (v) => JSON.stringify(v);
    default:
      return stringifyJson;
  }
}

/**
 * Writes an object's schema properties, in the schema's order, skipping
 * absent ones; other keys are not written. A property in `fields` takes the
 * place of `value`'s own, so a caller adding one (the store, a new pet's id)
 * makes no merged copy of the object: a spread costs more than the writing.
 */
export function compileObjectSerializer(schema: Schema): (value: Readonly<Record<string, unknown>>, fields?: JsonObject) => string {
  const properties = Object.entries((schema['properties'] ?? {}) as Record<string, Schema>).map(([name, sub]) => ({
    name,
    key: `${JSON.stringify(name)}:`,
    write: writerFor(sub),
  }));
  return (value, fields) => {
    let out = '{';
    for (const { name, key, write } of properties) {
      // Only the properties the schema declares are read, of a value validated against it before.
      const v = (fields !== undefined && fields[name] !== undefined ? fields[name] : value[name]) as JsonValue | undefined;
      if (v === undefined) continue;
      if (out.length > 1) out += ',';
      out += key + write(v);
    }
    return `${out}}`;
  };
}
