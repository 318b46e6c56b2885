// The families find the operations they test by what the spec says each
// does, not by name (conformance/checks/family-requests.ts): the list is the GET
// without path parameters that answers 200 with an array, the create is the
// POST with a body that answers 201, the read is the GET of one item by a path
// parameter, the page size is the integer query parameter with a maximum, and
// a filter is a query parameter named after a property of the listed items.
// So a spec that gains operations, or lists them in another order, is tested
// the same way: these tests put decoys first.
import fc from 'fast-check';
import t from 'tap';
import {
  createOperation,
  createPet as create,
  filterParameters,
  getOperation,
  listOperation,
  pageSizeParameter,
  readablePath,
  someExistingId,
  validRequest,
} from '../../../conformance/checks/family-requests.js';
import type { WireRequest, WireResponse } from '../../../conformance/client.js';
import { Knowledge } from '../../../conformance/knowledge.js';
import { Violation, type CheckContext } from '../../../conformance/vocabulary.js';
import { parseJson, stringifyJson, type JsonValue } from '../../../spec/json/index.js';
import { operationById, operations, type OperationDescriptor, type ParameterDescriptor, type ResponseDescriptor } from '../../../spec/operations.js';

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
  // The page size within the bounds the spec gives it.
  const pageSize = pageSizeParameter(listPets)!;
  const [least, most] = [Number(pageSize.schema['minimum']), Number(pageSize.schema['maximum'])];
  for (const planned of fc.sample(validRequest(listPets, 'p-'), { numRuns: 30, seed: 3 })) {
    const url = new URL(planned.path, 'http://x');
    t.equal(url.pathname, listPets.path);
    const size = url.searchParams.get(pageSize.name);
    if (size !== null) t.ok(Number(size) >= least && Number(size) <= most, `${pageSize.name} ${size}`);
  }
  for (const planned of fc.sample(validRequest(createPet, 'p-'), { numRuns: 10, seed: 4 })) {
    t.match(planned, { method: 'POST', path: '/pets', description: 'POST /pets' });
    t.match(JSON.parse(planned.body!.text), { name: /^p-/ });
  }
});

/**
 * A target in memory: the list answers `listed`, a create answers `created` (201 and a pet with id 77 unless
 * told otherwise), a read answers 200. Records each request, and each wait for a write with its instant.
 */
function target(
  options: { listed?: JsonValue[]; created?: { status: number; body: JsonValue }; readOnly?: boolean; ops?: readonly OperationDescriptor[] } = {},
) {
  const sent: WireRequest[] = [];
  const waits: number[] = [];
  const wire = (status: number, body: JsonValue): WireResponse => {
    const text = stringifyJson(body);
    const parsed = parseJson(text);
    return { status, headers: {}, text, json: parsed.ok ? parsed.value : undefined, durationMs: 1 };
  };
  const knowledge = new Knowledge();
  const ctx = {
    operations: options.ops ?? operations,
    knowledge,
    options: { readOnly: options.readOnly ?? false, namePrefix: 'p-', seed: 1 },
    async send(_family: string, request: WireRequest) {
      sent.push(request);
      if (request.method === 'POST') {
        const { status, body } = options.created ?? { status: 201, body: { id: 77n, name: 'p-x' } };
        return { request, response: wire(status, body) };
      }
      if (request.path === '/pets') return { request, response: wire(200, options.listed ?? []) };
      return { request, response: wire(200, { id: 1n, name: 'x' }) };
    },
    async readAfterWrite(read: () => Promise<unknown>, visible: (sent: { response: { status: number } }) => boolean, writtenAt: number) {
      waits.push(writtenAt);
      t.notOk(visible({ response: { status: 404 } }), 'a 404 is a pet not served yet');
      t.ok(visible({ response: { status: 200 } }));
      return read();
    },
  } as unknown as CheckContext;
  const asked = () => sent.map((r) => `${r.method} ${r.path}`);
  return { ctx, sent, asked, waits, knowledge };
}

const NEW_PET = { label: 'a valid body', value: { name: 'p-Rex' }, text: '{"name":"p-Rex"}' };

t.test('a pet is created with the body given, recorded with its 201, and returned', async (t) => {
  const { ctx, sent, knowledge } = target();
  const { pet, sent: exchange } = await create(ctx, 'state', NEW_PET);
  t.same(pet, { id: 77n, name: 'p-x' });
  t.match(sent, [{ method: 'POST', path: '/pets', body: '{"name":"p-Rex"}', operationId: 'createPet' }]);
  t.equal(exchange.response.status, 201);
  t.equal(knowledge.get('77')?.pet, pet);
});

t.test('a create that is refused is the check failing, or its setup failing when the pets only prepare the check', async (t) => {
  const refused = { created: { status: 400, body: { code: 'x', message: 'no', status: 400n } } };
  const asRequirement = await create(target(refused).ctx, 'state', NEW_PET).catch((e: unknown) => e);
  t.type(asRequirement, Violation);
  t.match(asRequirement, { message: 'creating a pet with {"name":"p-Rex"}: expected 201, got 400', setup: false });
  const asSetup = await create(target(refused).ctx, 'state', NEW_PET, 'setup').catch((e: unknown) => e);
  t.type(asSetup, Violation);
  t.match(asSetup, {
    message: 'the pets this check needs could not be created: creating a pet with {"name":"p-Rex"}: expected 201, got 400',
    setup: true,
    exchange: { request: { method: 'POST' }, response: { status: 400 } },
  });
});

t.test('a 201 whose body is not a pet with an integer id fails, as setup when the pets only prepare the check', async (t) => {
  const bodies: JsonValue[] = [{ name: 'p-x' }, { id: '77', name: 'p-x' }, [{ id: 77n }], 'created'];
  for (const body of bodies) {
    const { ctx, knowledge } = target({ created: { status: 201, body } });
    await t.rejects(create(ctx, 'state', NEW_PET), { message: 'the 201 body is not a Pet with an integer id', setup: false });
    await t.rejects(create(ctx, 'state', NEW_PET, 'setup'), { message: 'the 201 body is not a Pet with an integer id', setup: true });
    t.same(knowledge.all(), [], 'nothing recorded');
  }
});

t.test('a spec without a create operation cannot create', async (t) => {
  const { ctx, sent } = target({ ops: [listPets, getPet] });
  await t.rejects(create(ctx, 'state', NEW_PET), { message: 'the spec has no create operation' });
  t.same(sent, []);
});

t.test('an existing id is first a pet this run created, read once (and once only) with the key', async (t) => {
  const { ctx, asked, knowledge } = target({ listed: [{ id: 5n, name: 'x' }] });
  knowledge.record({ id: 12n, name: 'p-a' });
  t.equal(await someExistingId(ctx, 'not-found'), '12');
  t.equal(await someExistingId(ctx, 'routes'), '12');
  t.same(asked(), ['GET /pets/12'], 'no list, and one read for the run');
  t.match(ctx.knowledge.get('12'), { id: '12' });
});

t.test('else the first pet the list shows, read once within the settle window counted from the list', async (t) => {
  const { ctx, asked, waits } = target({
    listed: [
      { id: 5n, name: 'x' },
      { id: 6n, name: 'y' },
    ],
  });
  const before = performance.now();
  t.equal(await someExistingId(ctx, 'not-found'), '5');
  t.same(asked(), ['GET /pets', 'GET /pets/5']);
  t.equal(waits.length, 1);
  t.ok(waits[0]! >= before && waits[0]! <= performance.now(), 'the window starts when the list was asked');
});

t.test('else, with writes allowed, a pet created for it (its setup), read once', async (t) => {
  for (const listed of [[], [{ name: 'no id' }], [null]]) {
    const { ctx, asked, knowledge, sent } = target({ listed: listed as JsonValue[] });
    t.equal(await someExistingId(ctx, 'not-found'), '77');
    t.same(asked(), ['GET /pets', 'POST /pets', 'GET /pets/77']);
    t.match(JSON.parse(sent[1]!.body!), { name: /^p-/ }, "a valid body with the run's name prefix");
    t.ok(knowledge.has('77'));
  }
  const refused = target({ created: { status: 500, body: { code: 'x', message: 'no', status: 500n } } });
  await t.rejects(someExistingId(refused.ctx, 'not-found'), { setup: true, message: /^the pets this check needs could not be created: / });
});

t.test('under --read-only, with nothing created or listed, there is none', async (t) => {
  const { ctx, asked } = target({ readOnly: true });
  t.equal(await someExistingId(ctx, 'not-found'), undefined);
  t.same(asked(), ['GET /pets'], 'nothing created');
});

t.test('without a list operation it creates one; without a read operation it reads none', async (t) => {
  const noList = target({ ops: [createPet, getPet] });
  t.equal(await someExistingId(noList.ctx, 'not-found'), '77');
  t.same(noList.asked(), ['POST /pets', 'GET /pets/77']);
  const noRead = target({ ops: [listPets, createPet], listed: [{ id: 5n }] });
  t.equal(await someExistingId(noRead.ctx, 'not-found'), '5');
  t.same(noRead.asked(), ['GET /pets']);
  const noReadCreated = target({ ops: [listPets, createPet] });
  t.equal(await someExistingId(noReadCreated.ctx, 'not-found'), '77');
  t.same(noReadCreated.asked(), ['GET /pets', 'POST /pets']);
  const neither = target({ ops: [listPets, getPet] });
  t.equal(await someExistingId(neither.ctx, 'not-found'), undefined, 'nothing listed and no way to create');
});

t.test("the read of a pet fills the read operation's path parameter, whatever other parameters it has", async (t) => {
  const withQuery = { ...getPet, parameters: [query('fields', { type: 'string' }), ...getPet.parameters] };
  const read = target({ ops: [listPets, createPet, withQuery] });
  read.knowledge.record({ id: 12n, name: 'p-a' });
  t.equal(await someExistingId(read.ctx, 'not-found'), '12');
  t.same(read.asked(), ['GET /pets/12']);
  const undescribed = target({ ops: [listPets, createPet, { ...getPet, parameters: [] }] });
  undescribed.knowledge.record({ id: 12n, name: 'p-a' });
  t.equal(await someExistingId(undescribed.ctx, 'not-found'), '12');
  t.same(undescribed.asked(), [], 'no path parameter described: no read');
});

t.test('a readable path fills every path parameter with an existing pet, and is undefined when there is none', async (t) => {
  t.equal(await readablePath(target({ readOnly: true }).ctx, 'http', listPets), '/pets', 'no path parameter: the path as it is, with nothing asked');
  const withQuery = { ...getPet, parameters: [query('fields', { type: 'string' }), ...getPet.parameters] };
  const listed = target({ listed: [{ id: 5n, name: 'x' }], readOnly: true });
  t.equal(await readablePath(listed.ctx, 'http', withQuery), '/pets/5', 'the path parameter only, not the query one');
  const twoIds = op({
    operationId: 'getToy',
    method: 'GET',
    path: '/pets/{petId}/toys/{toyId}',
    parameters: [id, { ...id, name: 'toyId' }],
  });
  t.equal(await readablePath(target({ listed: [{ id: 5n, name: 'x' }] }).ctx, 'http', twoIds), '/pets/5/toys/5');
  const empty = target({ readOnly: true });
  t.equal(await readablePath(empty.ctx, 'media-types', getPet), undefined, 'an empty target judged --read-only');
  t.same(empty.asked(), ['GET /pets'], 'asked the list, created nothing');
});
