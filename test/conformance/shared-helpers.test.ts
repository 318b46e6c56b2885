// The families find the operations they test by what the spec says each
// does, not by name (conformance/checks/shared.ts): the list is the GET
// without path parameters that answers 200 with an array, the create is the
// POST with a body that answers 201, the read is the GET of one item by a path
// parameter, the page size is the integer query parameter with a maximum, and
// a filter is a query parameter named after a property of the listed items.
// So a spec that gains operations, or lists them in another order, is tested
// the same way: these tests put decoys first.
import fc from 'fast-check';
import t from 'tap';
import { createOperation, filterParameters, getOperation, isObject, listOperation, pageSizeParameter, validRequest } from '../../conformance/checks/shared.js';
import type { CheckContext } from '../../conformance/types.js';
import { operationById, operations, type OperationDescriptor, type ParameterDescriptor, type ResponseDescriptor } from '../../spec/operations.js';

const listPets = operationById('listPets');
const createPet = operationById('createPet');
const getPet = operationById('getPet');

const op = (fields: Partial<OperationDescriptor> & Pick<OperationDescriptor, 'operationId' | 'method' | 'path'>): OperationDescriptor => ({
  parameters: [],
  responses: [],
  deprecated: false,
  requiresAuth: true,
  ...fields,
});
const answers = (status: number, type?: string): ResponseDescriptor => ({ status, description: '', headers: [], ...(type ? { schema: { type } } : {}) });
const query = (name: string, schema: Record<string, unknown>): ParameterDescriptor => ({ name, in: 'query', required: false, schema });
const ctx = (ops: readonly OperationDescriptor[]) => ({ operations: ops }) as unknown as CheckContext;

const id = { name: 'petId', in: 'path', required: true, schema: { type: 'integer' } } as const;
const body = { required: true, schema: { type: 'object' } };
const everyOperation = [...operations].reverse();

t.test('the list is the GET without path parameters that answers 200 with an array', async (t) => {
  const decoys = [
    op({ operationId: 'replacePets', method: 'PUT', path: '/pets', responses: [answers(200, 'array')] }),
    op({
      operationId: 'listOwnerPets',
      method: 'GET',
      path: '/owners/{ownerId}/pets',
      parameters: [{ ...id, name: 'ownerId' }],
      responses: [answers(200, 'array')],
    }),
    op({ operationId: 'metrics', method: 'GET', path: '/metrics', responses: [answers(200)] }), // a 200 with no JSON body
    op({ operationId: 'listLater', method: 'GET', path: '/jobs', responses: [answers(202, 'array')] }),
    op({ operationId: 'health', method: 'GET', path: '/health', responses: [answers(400, 'array'), answers(200, 'object')] }),
  ];
  t.equal(listOperation(ctx(operations))?.operationId, 'listPets');
  t.equal(listOperation(ctx([...decoys, ...everyOperation]))?.operationId, 'listPets', 'after operations that each lack one trait');
  t.equal(listOperation(ctx(decoys)), undefined);
});

t.test('the create is the POST with a body that answers 201', async (t) => {
  const decoys = [
    op({ operationId: 'searchPets', method: 'POST', path: '/pets/search', requestBody: body, responses: [answers(200, 'array')] }),
    op({ operationId: 'ping', method: 'POST', path: '/ping', responses: [answers(201, 'object')] }),
    op({ operationId: 'putPet', method: 'PUT', path: '/pets/new', requestBody: body, responses: [answers(201, 'object')] }),
  ];
  t.equal(createOperation(ctx(operations))?.operationId, 'createPet');
  t.equal(createOperation(ctx([...decoys, ...everyOperation]))?.operationId, 'createPet', 'after operations that each lack one trait');
  t.equal(createOperation(ctx(decoys)), undefined);
});

t.test('the read is the GET with a path parameter that answers 200', async (t) => {
  const decoys = [
    op({ operationId: 'deletePet', method: 'DELETE', path: '/pets/{petId}', parameters: [id], responses: [answers(200, 'object')] }),
    op({ operationId: 'health', method: 'GET', path: '/health', responses: [answers(200, 'object')] }),
    op({ operationId: 'petPhoto', method: 'GET', path: '/pets/{petId}/photo', parameters: [id], responses: [answers(302)] }),
  ];
  t.equal(getOperation(ctx(operations))?.operationId, 'getPet');
  t.equal(getOperation(ctx([...decoys, ...everyOperation]))?.operationId, 'getPet', 'after operations that each lack one trait');
  t.equal(getOperation(ctx(decoys)), undefined);
});

t.test('the page size is the integer query parameter with a maximum', async (t) => {
  t.equal(pageSizeParameter(listPets)?.name, 'limit');
  const decoyed = op({
    operationId: 'listPets',
    method: 'GET',
    path: '/pets',
    parameters: [
      { name: 'limit', in: 'header', required: false, schema: { type: 'integer', maximum: 5 } },
      query('offset', { type: 'integer', minimum: 0 }),
      query('weight', { type: 'number', maximum: 50 }),
      query('name', { type: 'string', maxLength: 20 }),
      query('pageSize', { type: 'integer', minimum: 1, maximum: 100 }),
    ],
  });
  t.equal(pageSizeParameter(decoyed)?.name, 'pageSize');
  t.equal(pageSizeParameter(getPet), undefined);
  t.equal(pageSizeParameter(op({ operationId: 'x', method: 'GET', path: '/x', parameters: [query('offset', { type: 'integer' })] })), undefined);
});

t.test('a filter is a query parameter named after a property of the listed items', async (t) => {
  t.same(
    filterParameters(listPets).map((p) => p.name),
    ['status'],
  );
  const list = op({
    operationId: 'listPets',
    method: 'GET',
    path: '/pets',
    parameters: [
      query('limit', { type: 'integer', maximum: 9 }),
      query('name', { type: 'string' }),
      query('sort', { type: 'string' }),
      { name: 'status', in: 'header', required: false, schema: { type: 'string' } },
    ],
    responses: [
      answers(400, 'object'),
      { status: 200, description: '', headers: [], schema: { type: 'array', items: { properties: { id: {}, name: {}, status: {} } } } },
    ],
  });
  t.same(
    filterParameters(list).map((p) => p.name),
    ['name'],
    'not a header, not a parameter the items lack',
  );
  t.same(
    filterParameters(op({ operationId: 'x', method: 'GET', path: '/x', parameters: [query('name', { type: 'string' })], responses: [answers(200, 'array')] })),
    [],
    'items without properties',
  );
  t.same(filterParameters(op({ operationId: 'x', method: 'GET', path: '/x', parameters: [query('name', { type: 'string' })] })), [], 'no 200 at all');
});

t.test('a valid request fills the path from the path parameters and the query from the query parameters', async (t) => {
  const both = op({
    operationId: 'listOwnerPets',
    method: 'GET',
    path: '/owners/{ownerId}/pets',
    // The same name in the path and in the query (OpenAPI tells parameters apart by name and location), the query's last.
    parameters: [
      { name: 'ownerId', in: 'path', required: true, schema: { type: 'integer', minimum: 7, maximum: 7 } },
      query('ownerId', { type: 'string', enum: ['from-the-query'] }),
    ],
  });
  for (const planned of fc.sample(validRequest(both, 'p-'), { numRuns: 20, seed: 1 })) {
    t.match(planned.path, /^\/owners\/7\/pets(\?ownerId=from-the-query)?$/);
  }
  for (const planned of fc.sample(validRequest(getPet, 'p-'), { numRuns: 20, seed: 2 })) {
    t.match(planned, { method: 'GET', path: /^\/pets\/-?\d+$/, description: 'GET /pets/{petId}' });
    t.notOk('body' in planned, 'no body where the operation takes none');
  }
  for (const planned of fc.sample(validRequest(listPets, 'p-'), { numRuns: 30, seed: 3 })) {
    const url = new URL(planned.path, 'http://x');
    t.equal(url.pathname, '/pets');
    const limit = url.searchParams.get('limit');
    if (limit !== null) t.ok(Number(limit) >= 1 && Number(limit) <= 100, `limit ${limit}`);
  }
  for (const planned of fc.sample(validRequest(createPet, 'p-'), { numRuns: 10, seed: 4 })) {
    t.match(planned, { method: 'POST', path: '/pets', description: 'POST /pets' });
    t.match(JSON.parse(planned.body!.text), { name: /^p-/ });
  }
});

t.test('an object is a JSON object: not null, not an array', async (t) => {
  t.ok(isObject({}));
  t.notOk(isObject(null));
  t.notOk(isObject([]));
  t.notOk(isObject('x'));
  t.notOk(isObject(1n));
});
