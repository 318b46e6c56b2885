/**
 * Turning untrusted JSON into a NewPet: validated against the spec's NewPet
 * schema, and reduced to the properties that schema names, so that unknown
 * properties are never stored or echoed.
 */
import { componentSchema } from '../../spec/operations.js';
import type { NewPet } from '../../spec/types.js';
import type { JsonObject, JsonValue } from '../../spec/json/index.js';
import { compileSchema } from '../../spec/schema/validate.js';

const schema = componentSchema('NewPet');
const validate = compileSchema(schema);
const propertyNames = Object.keys(schema['properties'] as object);

export type NewPetResult = { ok: true; pet: NewPet } | { ok: false; message: string };

export function readNewPet(value: JsonValue): NewPetResult {
  const issue = validate(value);
  if (issue) return { ok: false, message: issue.path === '' ? issue.message.replace('the value', 'the body') : issue.message };
  const source = value as JsonObject;
  const pet: JsonObject = {};
  for (const name of propertyNames) if (name in source) pet[name] = source[name] as JsonValue;
  return { ok: true, pet: pet as unknown as NewPet };
}
