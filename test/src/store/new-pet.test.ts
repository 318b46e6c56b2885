// src/store/new-pet.ts: untrusted JSON into a NewPet, validated by the spec's
// schema and reduced to the properties it names.
import t from 'tap';
import { parseJson, type JsonValue } from '../../../spec/json/index.js';
import { readNewPet } from '../../../src/store/index.js';

const json = (text: string): JsonValue => {
  const r = parseJson(text);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};

t.test('a valid NewPet is kept with exactly name, categoryId and status', async (t) => {
  t.strictSame(readNewPet(json('{"name":"Rex","categoryId":1,"status":"sold"}')), { ok: true, pet: { name: 'Rex', categoryId: 1n, status: 'sold' } });
  t.strictSame(readNewPet(json('{"name":"Rex","categoryId":1}')), { ok: true, pet: { name: 'Rex', categoryId: 1n } }, 'no status key when none was given');
});

t.test('unknown properties are dropped, __proto__ included', async (t) => {
  const r = readNewPet(json('{"id":7,"name":"Rex","color":"red","categoryId":1,"__proto__":{"status":"sold"}}'));
  t.ok(r.ok);
  if (r.ok) t.strictSame(Object.keys(r.pet), ['name', 'categoryId']);
});

t.test('an invalid NewPet gives a message naming the field, or "the body" for a non-object', async (t) => {
  t.strictSame(readNewPet(json('[]')), { ok: false, message: 'the body must be an object, got array', field: '' });
  t.match(readNewPet(json('{"categoryId":1}')), { ok: false, message: 'name is required', field: 'name' });
  t.match(readNewPet(json('{"name":"Rex","categoryId":"1"}')), { ok: false, message: 'categoryId must be an integer, got string' });
  t.match(readNewPet(json('{"name":"Rex","categoryId":1,"status":"lost"}')), { ok: false, message: /^status must be one of/ });
});
