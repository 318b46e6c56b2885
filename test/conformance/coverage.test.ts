// What a run covered, per operation (conformance/coverage.ts): requests sent,
// each status seen marked declared or not, the declared statuses never seen
// (shown, never hidden), and the classes of input: query values read off every
// exchange against the spec's parameters, the rest as the checks report them.
import t from 'tap';
import type { Exchange } from '../../conformance/client.js';
import { createCoverage, queryValueClass } from '../../conformance/coverage.js';
import type { ParameterDescriptor } from '../../spec/operations.js';
import { describeOperations, operationById } from '../../spec/operations.js';
import { openapi } from '../../spec/openapi.js';

const operations = describeOperations(openapi);
const parameter = (name: string) => operationById('listPets').parameters.find((p) => p.name === name)!;

const exchange = (operationId: string, method: string, path: string, status: number, offSpec = false): Exchange => ({
  request: { method, path, headers: {}, operationId, ...(offSpec ? { offSpec: true } : {}) },
  response: { status, headers: {}, text: '', json: undefined, durationMs: 1 },
  family: 'limits',
});

t.test('a page size is classed against its schema (1..100, default 20)', async (t) => {
  const limit = parameter('limit');
  const cases: [string | undefined, string][] = [
    [undefined, 'absent (default 20)'],
    ['1', 'minimum (1)'],
    ['100', 'maximum (100)'],
    ['50', 'within range'],
    ['0', 'out of range'],
    ['101', 'out of range'],
    ['-5', 'out of range'],
    ['99999999999999999999999', 'out of range'],
    ['1.5', 'not an integer'],
    ['ten', 'not an integer'],
    ['', 'not an integer'],
  ];
  for (const [text, expected] of cases) t.equal(queryValueClass(limit, text), expected, `${JSON.stringify(text)}`);
});

t.test('an enum value is its own class; anything else is outside the enum', async (t) => {
  const status = parameter('status');
  t.equal(queryValueClass(status, 'sold'), 'sold');
  t.equal(queryValueClass(status, 'available'), 'available');
  t.equal(queryValueClass(status, 'Sold'), 'not in the enum');
  t.equal(queryValueClass(status, undefined), 'absent', 'no default: plain absent');
  const free: ParameterDescriptor = { name: 'q', in: 'query', required: false, schema: { type: 'string' } };
  t.equal(queryValueClass(free, 'anything'), 'a value');
});

t.test('requests and statuses are counted per operation, each status marked declared or not, in order', async (t) => {
  const coverage = createCoverage(operations);
  coverage.observe(exchange('listPets', 'GET', '/pets', 401));
  coverage.observe(exchange('listPets', 'GET', '/pets?limit=5', 200));
  coverage.observe(exchange('listPets', 'GET', '/pets', 200));
  coverage.observe(exchange('getPet', 'GET', '/pets/1', 500));
  const byId = new Map(coverage.snapshot().operations.map((op) => [op.operationId, op]));
  t.strictSame(
    [...byId.keys()],
    operations.map((op) => op.operationId),
    'every operation of the spec, in its order',
  );
  const list = byId.get('listPets')!;
  t.equal(list.requests, 3);
  t.equal(list.method, 'GET');
  t.equal(list.path, '/pets');
  t.strictSame(list.statuses, [
    { status: 200, count: 2, declared: true },
    { status: 401, count: 1, declared: true },
  ]);
  t.strictSame(list.neverObserved, []);
  const get = byId.get('getPet')!;
  t.strictSame(get.statuses, [{ status: 500, count: 1, declared: false }], 'a status the spec does not declare is marked so');
  t.strictSame(get.neverObserved, [200, 401, 404]);
  const created = byId.get('createPet')!;
  t.equal(created.requests, 0, 'an operation never asked is still listed');
  t.strictSame(created.statuses, []);
  t.strictSame(created.neverObserved, [201, 400, 401], 'every declared status it never had is shown');
});

t.test('an off-spec spelling of a route, or an operation the spec lacks, is not counted for the operation', async (t) => {
  const coverage = createCoverage(operations);
  coverage.observe(exchange('listPets', 'GET', '/pets/', 200, true));
  coverage.observe(exchange('deletePet', 'DELETE', '/pets/1', 405));
  const list = coverage.snapshot().operations.find((op) => op.operationId === 'listPets')!;
  t.equal(list.requests, 0);
  t.strictSame(list.statuses, []);
  t.strictSame(list.inputs, [], 'nor its query');
  t.notOk(
    coverage.snapshot().operations.some((op) => op.operationId === 'deletePet'),
    'no operation is made up',
  );
});

t.test('the query of every exchange is classed for each query parameter; what a check covers is added to it', async (t) => {
  const coverage = createCoverage(operations);
  coverage.observe(exchange('listPets', 'GET', '/pets?limit=100&status=sold', 200));
  coverage.observe(exchange('listPets', 'GET', '/pets?limit=100', 200));
  coverage.observe(exchange('listPets', 'GET', '/pets', 200));
  coverage.cover('listPets', 'credential', 'none');
  coverage.cover('listPets', 'credential', 'none');
  coverage.cover('listPets', 'credential', 'Basic');
  coverage.cover('createPet', 'body', 'missing name');
  const ops = coverage.snapshot().operations;
  t.strictSame(ops.find((op) => op.operationId === 'listPets')!.inputs, [
    {
      dimension: 'limit',
      classes: [
        { value: 'maximum (100)', count: 2 },
        { value: 'absent (default 20)', count: 1 },
      ],
    },
    {
      dimension: 'status',
      classes: [
        { value: 'sold', count: 1 },
        { value: 'absent', count: 2 },
      ],
    },
    {
      dimension: 'credential',
      classes: [
        { value: 'none', count: 2 },
        { value: 'Basic', count: 1 },
      ],
    },
  ]);
  t.strictSame(ops.find((op) => op.operationId === 'createPet')!.inputs, [{ dimension: 'body', classes: [{ value: 'missing name', count: 1 }] }]);
  t.equal(ops.find((op) => op.operationId === 'createPet')!.requests, 0, 'a class a check covers is no request counted');
});
