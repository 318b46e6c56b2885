// The compiled JSON writer of one schema's objects (spec/schema/serialize.ts):
// the schema's properties in the schema's order, absent ones and undeclared
// keys left out, int64 values exactly, and `fields` taking the place of the
// value's own properties without a merged copy.
import fc from 'fast-check';
import t from 'tap';
import { type JsonValue, parseJson } from '../../../spec/json/index.js';
import { componentSchema } from '../../../spec/operations.js';
import { compileObjectSerializer } from '../../../spec/schema/serialize.js';

const writePet = compileObjectSerializer(componentSchema('Pet'));

t.test("properties are written in the schema's order, whatever the object's own order", async (t) => {
  t.equal(writePet({ status: 'sold', categoryId: 2n, name: 'Rex', id: 7n }), '{"id":7,"name":"Rex","categoryId":2,"status":"sold"}');
});

t.test('an absent property is left out, and so is every key the schema does not declare', async (t) => {
  t.equal(writePet({ name: 'Tom', id: 1n, categoryId: 3n }), '{"id":1,"name":"Tom","categoryId":3}', 'no status');
  t.equal(writePet({ id: 1n, name: 'Tom', categoryId: 3n, status: undefined }), '{"id":1,"name":"Tom","categoryId":3}', 'status undefined');
  t.equal(writePet({ name: 'Tom', categoryId: 3n, owner: 'me', tags: ['x'] }), '{"name":"Tom","categoryId":3}', 'no comma where id was missing');
  t.equal(writePet({}), '{}');
});

t.test('an int64 is written digit for digit, beyond what a number can hold', async (t) => {
  t.equal(
    writePet({ id: 9007199254740993n, name: 'a', categoryId: -9223372036854775808n }),
    '{"id":9007199254740993,"name":"a","categoryId":-9223372036854775808}',
  );
  t.equal(writePet({ id: 42, name: 'a', categoryId: 0 }), '{"id":42,"name":"a","categoryId":0}', 'a safe integer number');
  t.equal(
    writePet({ id: Number.NaN, name: 'a', categoryId: 1.5 }),
    '{"id":null,"name":"a","categoryId":1.5}',
    'what is no safe integer is written as JSON would',
  );
});

t.test('a string is escaped as JSON', async (t) => {
  t.equal(writePet({ name: 'say "hi"\\\n\u0001é😀' }), '{"name":"say \\"hi\\"\\\\\\n\\u0001é😀"}');
});

t.test("a property in fields takes the place of the value's own, and the value is not changed", async (t) => {
  const newPet = { name: 'Rex', categoryId: 1n, status: 'available' };
  t.equal(writePet(newPet, { id: 12n }), '{"id":12,"name":"Rex","categoryId":1,"status":"available"}', 'an added id, in its place');
  t.equal(writePet(newPet, { name: 'Max' }), '{"name":"Max","categoryId":1,"status":"available"}', 'only the properties given in fields are replaced');
  t.strictSame(newPet, { name: 'Rex', categoryId: 1n, status: 'available' });
  t.notOk('id' in newPet);
});

t.test('an untyped property is written generically, nested values included', async (t) => {
  const write = compileObjectSerializer({ type: 'object', properties: { b: {}, a: { type: 'array' } } });
  t.equal(write({ a: [1n, 'x', null, { k: true }], b: { z: 1, y: 2n } }), '{"b":{"z":1,"y":2},"a":[1,"x",null,{"k":true}]}');
});

t.test('what is written reads back as the object restricted to the schema', async (t) => {
  const pet = fc.record(
    {
      id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      name: fc.string({ unit: 'grapheme' }),
      categoryId: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      status: fc.constantFrom('available', 'pending', 'sold'),
      extra: fc.string(),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(pet, (value) => {
      const parsed = parseJson(writePet(value));
      if (!parsed.ok) return false;
      const read = parsed.value as Record<string, JsonValue>;
      const declared = (['id', 'name', 'categoryId', 'status'] as const).filter((key) => value[key] !== undefined);
      // Same keys in the schema's order, each with the same value (bigints compared exactly).
      return JSON.stringify(Object.keys(read)) === JSON.stringify(declared) && declared.every((key) => read[key] === value[key]);
    }),
    { seed: 1, numRuns: 100 },
  );
  t.pass('100 generated pets read back as written');
});
