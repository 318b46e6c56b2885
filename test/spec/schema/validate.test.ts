// spec/schema/validate.ts: the JSON Schema keywords the spec uses, on values from parseJson
// (integers are bigints), with messages that name the field.
import t from 'tap';
import { componentSchema, operations } from '../../../spec/operations.js';
import { compileSchema } from '../../../spec/schema/validate.js';

t.test('a keyword the validator does not handle makes compileSchema throw, so no rule goes unchecked', async (t) => {
  for (const keyword of ['oneOf', 'anyOf', 'allOf', 'not', '$ref', 'patternProperties', 'multipleOf', 'uniqueItems']) {
    t.throws(() => compileSchema({ type: 'object', [keyword]: {} }), { message: `compileSchema: the keyword "${keyword}" is not supported` }, keyword);
  }
  t.throws(() => compileSchema({ properties: { a: { if: {} } } }), 'in a nested schema too');
  t.doesNotThrow(
    () => compileSchema({ type: 'string', description: 'd', title: 't', examples: [], default: 'x', deprecated: true, 'x-anything': 1 }),
    'annotations and x- keys',
  );
});

t.test('every schema of the spec compiles', async (t) => {
  for (const name of ['PetStatus', 'NewPet', 'Pet', 'Pets', 'Error'] as const) t.doesNotThrow(() => compileSchema(componentSchema(name)), name);
  for (const op of operations) for (const p of op.parameters) t.doesNotThrow(() => compileSchema(p.schema), `${op.operationId} ${p.name}`);
});

t.test('type integer means a bigint; a double with a fraction is not an integer', async (t) => {
  const v = compileSchema({ type: 'integer' });
  t.equal(v(5n), undefined);
  t.equal(v(-5n), undefined);
  t.match(v(1.5, 'x'), { path: 'x', message: 'x must be an integer, got number' });
  t.match(v('1', 'x'), { message: 'x must be an integer, got string' });
  t.match(v(true, 'x'), { message: 'x must be an integer, got boolean' });
  t.match(v(null, 'x'), { message: 'x must be an integer, got null' });
  t.match(v([], 'x'), { message: 'x must be an integer, got array' });
});

t.test('type number accepts integers and finite doubles; other types are matched exactly', async (t) => {
  const n = compileSchema({ type: 'number' });
  t.equal(n(1n), undefined);
  t.equal(n(1.5), undefined);
  t.ok(n(Number.NaN), 'NaN is not a JSON number');
  t.ok(n('1'));
  const s = compileSchema({ type: ['string', 'null'] });
  t.equal(s('x'), undefined);
  t.equal(s(null), undefined);
  t.match(s(1n, 'v'), { message: 'v must be a string or a null, got integer' });
  t.ok(compileSchema({ type: 'object' })([]), 'an array is not an object');
  t.ok(compileSchema({ type: 'array' })({}), 'an object is not an array');
  t.ok(compileSchema({ type: 'object' })(null), 'null is not an object');
});

t.test('an absent value is reported as required', async (t) => {
  t.match(compileSchema({ type: 'string' })(undefined, 'name'), { path: 'name', message: 'name is required' });
  t.match(compileSchema({})(undefined), { message: 'the value is required' });
});

t.test('enum and const compare exactly', async (t) => {
  const e = compileSchema({ enum: ['available', 'pending', 'sold'] });
  t.equal(e('sold'), undefined);
  t.match(e('Sold', 'status'), { message: 'status must be one of: available, pending, sold' });
  t.ok(e(null));
  const c = compileSchema({ const: 'x' });
  t.equal(c('x'), undefined);
  t.match(c('y', 'k'), { message: 'k must be "x"' });
});

t.test('format int64 and int32 check the range digit for digit', async (t) => {
  const int64 = compileSchema({ type: 'integer', format: 'int64' });
  t.equal(int64(2n ** 63n - 1n), undefined, 'max');
  t.equal(int64(-(2n ** 63n)), undefined, 'min');
  t.match(int64(2n ** 63n, 'categoryId'), { path: 'categoryId', message: /^categoryId must be within the int64 range/ }, 'max + 1');
  t.ok(int64(-(2n ** 63n) - 1n), 'min - 1');
  const int32 = compileSchema({ type: 'integer', format: 'int32' });
  t.equal(int32(2147483647n), undefined);
  t.ok(int32(2147483648n));
  t.equal(compileSchema({ type: 'string', format: 'email' })('not checked'), undefined, 'other formats are annotations');
});

t.test('minimum, maximum and the exclusive bounds work on bigints and doubles', async (t) => {
  const limit = compileSchema({ type: 'integer', minimum: 1, maximum: 100 });
  t.equal(limit(1n), undefined);
  t.equal(limit(100n), undefined);
  t.match(limit(0n, 'limit'), { message: 'limit must be at least 1' });
  t.match(limit(101n, 'limit'), { message: 'limit must be at most 100' });
  t.match(limit(-(2n ** 70n), 'limit'), { message: 'limit must be at least 1' }, 'far below');
  const open = compileSchema({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 });
  t.equal(open(0.5), undefined);
  t.match(open(0n, 'p'), { message: 'p must be greater than 0' });
  t.match(open(1, 'p'), { message: 'p must be less than 1' });
});

t.test('minLength and maxLength count code points, not UTF-16 units', async (t) => {
  const v = compileSchema({ type: 'string', minLength: 1, maxLength: 2 });
  t.equal(v('🐶🐱'), undefined, 'two astral characters are two');
  t.match(v('', 'name'), { message: 'name must have at least 1 characters' });
  t.match(v('abc', 'name'), { message: 'name must have at most 2 characters' });
  t.equal(compileSchema({ type: 'string' })(''), undefined, 'without minLength the empty string is valid');
});

t.test('pattern is a Unicode regular expression', async (t) => {
  const v = compileSchema({ type: 'string', pattern: '^\\p{Lu}' });
  t.equal(v('Élan'), undefined);
  t.match(v('élan', 'w'), { message: 'w must match ^\\p{Lu}' });
});

t.test('required, properties and additionalProperties name the field, with nested paths', async (t) => {
  const v = compileSchema({
    type: 'object',
    required: ['a'],
    properties: { a: { type: 'object', required: ['b'], properties: { b: { type: 'integer' } }, additionalProperties: false } },
    additionalProperties: { type: 'string' },
  });
  t.equal(v({ a: { b: 1n }, extra: 'x' }), undefined);
  t.match(v({}), { path: 'a', message: 'a is required' });
  t.match(v({ a: {} }), { path: 'a.b', message: 'a.b is required' });
  t.match(v({ a: { b: 'x' } }), { path: 'a.b', message: 'a.b must be an integer, got string' });
  t.match(v({ a: { b: 1n, c: 1n } }), { path: 'a.c', message: 'a.c is not an allowed property' });
  t.match(v({ a: { b: 1n }, extra: 1n }), { path: 'extra', message: 'extra must be a string, got integer' });
});

t.test('a property inherited from Object.prototype does not satisfy required', async (t) => {
  const v = compileSchema({ type: 'object', required: ['toString'] });
  t.match(v({}), { message: 'toString is required' });
});

t.test('items, minItems and maxItems check arrays with indexed paths', async (t) => {
  const v = compileSchema({ type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3 });
  t.equal(v([1n, 2n]), undefined);
  t.match(v([], 'tags'), { message: 'tags must have at least 1 items' });
  t.match(v([1n, 2n, 3n, 4n], 'tags'), { message: 'tags must have at most 3 items' });
  t.match(v([1n, 'x'], 'tags'), { path: 'tags[1]', message: 'tags[1] must be an integer, got string' });
});

t.test('the spec NewPet schema: name and categoryId required, status a PetStatus, unknown properties allowed', async (t) => {
  const v = compileSchema(componentSchema('NewPet'));
  t.equal(v({ name: 'Rex', categoryId: 1n }), undefined);
  t.equal(v({ name: '', categoryId: -(2n ** 63n), status: 'sold', extra: [] }), undefined);
  t.match(v({ categoryId: 1n }), { message: 'name is required' });
  t.match(v({ name: 'Rex' }), { message: 'categoryId is required' });
  t.match(v({ name: 'Rex', categoryId: 1n, status: null }), { path: 'status' });
  t.match(v({ name: 'Rex', categoryId: 2n ** 63n }), { path: 'categoryId' });
  t.match(v([]), { message: 'the value must be an object, got array' });
});
