// spec/operations.ts: the spec's operations as data, and the server that is
// built from them (every operation has a handler and is served).
import t from 'tap';
import { describeOperations, operationById, operations, resolvePointer } from '../../spec/operations.js';
import { openapi } from '../../spec/openapi.js';
import { createServer } from '../../src/server/index.js';
import { startTestServer } from '../helpers/server.js';

t.test('the spec has listPets, createPet and getPet, all requiring the bearer key', async (t) => {
  t.strictSame(
    operations.map((op) => `${op.operationId} ${op.method} ${op.path}`),
    ['listPets GET /pets', 'createPet POST /pets', 'getPet GET /pets/{petId}'],
  );
  t.ok(operations.every((op) => op.requiresAuth));
});

t.test('listPets: limit 1..100 default 20, status a PetStatus, answers 200 and 401', async (t) => {
  const op = operationById('listPets');
  const limit = op.parameters.find((p) => p.name === 'limit');
  t.match(limit, { in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
  t.match(
    op.parameters.find((p) => p.name === 'status'),
    { in: 'query', schema: { enum: ['available', 'pending', 'sold'] } },
  );
  t.strictSame(
    op.responses.map((r) => r.status),
    [200, 401],
  );
});

t.test('createPet: a required NewPet body, answers 201, 400 and 401', async (t) => {
  const op = operationById('createPet');
  t.equal(op.requestBody?.required, true);
  t.strictSame(op.requestBody?.schema['required'], ['name', 'categoryId']);
  t.strictSame(
    op.responses.map((r) => r.status),
    [201, 400, 401],
  );
});

t.test('getPet: deprecated, sunset on 5 December 2030, replaced by listPets; answers 200, 401 and 404', async (t) => {
  const op = operationById('getPet');
  t.equal(op.deprecated, true);
  t.equal(op.sunset?.toISOString(), '2030-12-05T00:00:00.000Z');
  t.equal(op.replacement, 'listPets');
  t.match(op.parameters, [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }]);
  t.strictSame(
    op.responses.map((r) => r.status),
    [200, 401, 404],
  );
});

t.test('a response declares no headers in this spec; declared names are read lower-cased', async (t) => {
  t.ok(operations.every((op) => op.responses.every((r) => r.headers.length === 0)));
  const declaring = {
    paths: { '/a': { get: { operationId: 'a', responses: { '200': { description: 'ok', headers: { 'X-Rate-Limit': { schema: { type: 'integer' } } } } } } } },
  };
  t.strictSame(describeOperations(declaring)[0]?.responses[0]?.headers, ['x-rate-limit']);
});

t.test('every $ref is resolved, and a dangling or circular one is an error', async (t) => {
  t.notMatch(JSON.stringify(operations), /\$ref/);
  t.throws(() => resolvePointer(openapi, '#/components/schemas/Nope'), { message: /unresolved/ });
  t.throws(() => resolvePointer(openapi, 'other.json#/x'), { message: /only local/ });
  const circular = { paths: { '/a': { get: { operationId: 'a', responses: { '200': { $ref: '#/x' } } } } }, x: { $ref: '#/x' } };
  t.throws(() => describeOperations(circular), { message: /circular/ });
  t.throws(() => operationById('deletePet'), { message: /no operation deletePet/ });
});

t.test('every operation of the spec has a handler: createServer builds, and refuses an operation it cannot serve', async (t) => {
  t.doesNotThrow(() => createServer());
  const unknown = { ...operationById('getPet'), operationId: 'deletePet', method: 'DELETE' as const };
  t.throws(() => createServer({ operations: [...operations, unknown] }), { message: 'no handler for operation deletePet of the spec' });
});

t.test('every operation of the spec is served at its method and path, answering one of its responses', async (t) => {
  const { api } = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n }] });
  for (const op of operations) {
    const path = op.path.replace(/\{[^}]+\}/g, '1');
    const r = await api(path, { method: op.method, ...(op.requestBody ? { json: { name: 'Tom', categoryId: 2 } } : {}) });
    t.ok(op.responses.some((response) => response.status === r.status) && r.status < 300, `${op.operationId}: ${op.method} ${path} → ${r.status}`);
  }
});
