/**
 * Turning untrusted JSON into a NewPet: validated against the spec's NewPet
 * schema, and reduced to the properties that schema names, so that unknown
 * properties are never stored or echoed.
 */
import { componentSchema } from '../../spec/operations.js';
import type { NewPet } from '../../spec/types.js';
import type { JsonObject, JsonValue } from '../../spec/json/index.js';
import { isObject } from '../../spec/json/is-object.js';
import { compileChecker } from '../../spec/schema/validate.js';

const schema = componentSchema('NewPet');
const check = compileChecker<NewPet>(schema);
const propertyNames = Object.keys(schema['properties'] as object);

/** A refusal names the field at fault (`categoryId`, `` for the body itself). */
export type NewPetResult = { ok: true; pet: NewPet } | { ok: false; message: string; field: string };

export function readNewPet(value: JsonValue): NewPetResult {
  // Only the properties the schema names are kept (and checked): unknown ones are ignored, never stored.
  const checked = check(isObject(value) ? pick(value) : value);
  if (!checked.ok) {
    const { path, message } = checked.issue;
    return { ok: false, message: path === '' ? message.replace('the value', 'the body') : message, field: path };
  }
  return { ok: true, pet: checked.value };
}

function pick(source: JsonObject): JsonObject {
  const pet: JsonObject = {};
  for (const name of propertyNames) if (name in source) pet[name] = source[name] as JsonValue;
  return pet;
}
