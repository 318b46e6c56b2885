// In-process control of a started server (src/in-process.ts through
// startServer): the journal queried, stubs, the clock, faults and findings,
// and a mark so that tests sharing one server each see their own.
import t, { type Test } from 'tap';
import { request } from 'undici';
import { ControlError, FindingsError, startServer, type StartedServer } from '../../src/index.js';

async function started(t: Test, options: Parameters<typeof startServer>[0] = {}): Promise<StartedServer> {
  const api = await startServer(options);
  t.teardown(() => api.close());
  return api;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

async function call(api: StartedServer, path: string, options: { json?: unknown; key?: string | false } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key !== false) headers['authorization'] = `Bearer ${options.key ?? api.apiKey}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await request(api.url + path, {
    method: options.json === undefined ? 'GET' : 'POST',
    headers,
    body: options.json === undefined ? null : JSON.stringify(options.json),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

const rex = { id: 7, name: 'Stubby', categoryId: 1 };

t.test('mark() is the id the next request gets; findings and assertNoFindings with since see only what came after', async (t) => {
  const api = await started(t);
  t.equal(api.mark(), 1, 'before any request');
  await call(api, '/pets?stauts=sold');
  await call(api, '/pets?stauts=sold');
  const since = api.mark();
  t.equal(since, 3);
  t.equal(api.mark(), 3, 'a mark is no request');
  t.throws(() => api.assertNoFindings(), FindingsError, 'the earlier test’s finding is there without since');
  t.doesNotThrow(() => api.assertNoFindings({ since }), 'a clean test after a bad one passes');
  t.strictSame(api.findings({ since }), []);
  await call(api, '/pets?stauts=sold');
  await call(api, '/pets?limit=1');
  const [finding] = api.findings({ since });
  t.match(finding, { code: 'unknown_query_parameter', count: 1, last: { request: 3 } }, 'counted since the mark');
  t.equal(api.findings()[0]?.count, 3, 'all of them without since');
  t.throws(() => api.assertNoFindings({ since }), FindingsError);
  t.doesNotThrow(() => api.assertNoFindings({ since, allow: ['unknown_query_parameter'] }));
  t.doesNotThrow(() => api.assertNoFindings({ since: api.mark() }));
  await api.reset();
  t.equal(api.mark(), 5, 'ids go on after a reset');
});

t.test('requests({ operation, since }) is the journal as GET /__control/journal shows it, filtered, in the order received', async (t) => {
  const api = await started(t);
  await call(api, '/pets?limit=1');
  const since = api.mark();
  await call(api, '/pets', { json: { name: 'Rex', categoryId: 1 } });
  await call(api, '/pets?limit=2');
  await call(api, '/pets/1');
  const listed = api.requests({ operation: 'listPets', since });
  t.strictSame(
    listed.map((e) => [e.id, e.method, e.path, e.status]),
    [[3, 'GET', '/v1/pets?limit=2', 200]],
  );
  t.strictSame(
    api.requests({ since }).map((e) => e.id),
    [2, 3, 4],
  );
  t.strictSame(
    api.requests().map((e) => e.id),
    [1, 2, 3, 4],
  );
  const created = api.requests({ operation: 'createPet' })[0];
  t.equal(created?.request.body, '{"name":"Rex","categoryId":1}', 'with the bodies sent');
  t.equal(created?.request.headers['authorization'], '[redacted]', 'credentials redacted');
  const res = await request(`${new URL(api.url).origin}/__control/journal`, { headers: { authorization: `Bearer ${api.apiKey}` } });
  t.strictSame(JSON.parse(JSON.stringify(api.requests())), await res.body.json(), 'the same entries as the control API');
  t.strictSame(api.requests({ operation: 'nonsense' }), []);
});

t.test('stub() answers the next accepted requests with its answer, first in, first out, marked, journaled and still checked', async (t) => {
  const api = await started(t);
  t.strictSame(api.stub('getPet', { status: 200, body: rex, headers: { 'x-trace': 't1' } }, { times: 2 }), {
    operationId: 'getPet',
    status: 200,
    times: 2,
  });
  api.stub('getPet', { status: 404, body: { code: 'pet_not_found', message: 'no animal has id 7', status: 404 } });
  t.equal((await call(api, '/pets/7', { key: false })).status, 401, 'a stub never answers a request without a valid key');
  t.equal((await call(api, '/pets/7', { key: 'wrong' })).status, 401);
  t.equal((await call(api, '/pets/x')).status, 400, 'nor one the interface refuses');
  const since = api.mark();
  const first = await call(api, '/pets/7?verbose=1');
  t.strictSame([first.status, JSON.parse(first.text), first.headers['x-trace'], first.headers['petstore-stub']], [200, rex, 't1', 'true']);
  t.equal((await call(api, '/pets/7')).status, 200, 'twice');
  const third = await call(api, '/pets/7');
  t.strictSame([third.status, JSON.parse(third.text).code], [404, 'pet_not_found'], 'then the next stub');
  t.equal((await call(api, '/pets/7')).status, 404, 'then the store: no pet 7');
  t.equal((await call(api, '/pets/7')).headers['petstore-stub'], undefined);
  const journaled = api.requests({ operation: 'getPet', since });
  t.strictSame(
    journaled.map((e) => [e.status, e.code ?? null, e.response?.headers['petstore-stub'] ?? null]),
    [
      [200, null, 'true'],
      [200, null, 'true'],
      [404, 'pet_not_found', 'true'],
      [404, 'pet_not_found', null],
      [404, 'pet_not_found', null],
    ],
  );
  t.equal(journaled[0]?.response?.body, JSON.stringify(rex));
  const codes = api.findings({ since }).map((f) => [f.code, f.count]);
  t.strictSame(
    codes,
    [
      ['deprecated_operation', 5],
      ['unknown_query_parameter', 1],
      ['pet_not_found', 2],
    ],
    'the stubbed requests are checked too; a stubbed 404 is no finding against the client',
  );
});

t.test('a stubbed createPet reads and checks the body first, and creates nothing', async (t) => {
  const api = await started(t);
  api.stub('createPet', { status: 201, body: { id: 99, name: 'Stubbed', categoryId: 1 }, headers: { location: '/v1/pets/99' } });
  t.equal((await call(api, '/pets', { json: { name: 'NoCategory' } })).status, 400, 'an invalid body is refused, and the stub kept');
  const created = await call(api, '/pets', { json: { name: 'Real', categoryId: 1, colour: 'red' } });
  t.strictSame([created.status, JSON.parse(created.text).id, created.headers['location']], [201, 99, '/v1/pets/99']);
  t.strictSame(JSON.parse((await call(api, '/pets')).text), [], 'the store has no pet');
  t.strictSame(
    api.findings().map((f) => f.code),
    ['invalid_body', 'unknown_body_field'],
  );
});

t.test('stub() refuses an answer the spec does not allow with a ControlError and its code, unless invalid on purpose; reset() clears stubs', async (t) => {
  const api = await started(t);
  const refusal = (run: () => unknown) => {
    try {
      run();
      return 'accepted';
    } catch (error) {
      t.type(error, ControlError);
      return (error as ControlError).code;
    }
  };
  t.equal(
    refusal(() => api.stub('getPet', { status: 500 })),
    'undeclared_status',
  );
  t.equal(
    refusal(() => api.stub('getPet', { status: 200, body: { id: 'seven' } })),
    'invalid_body',
  );
  t.equal(
    refusal(() => api.stub('removePet', { status: 200 })),
    'unknown_operation',
  );
  t.throws(() => api.stub('getPet', { status: 500 }), /getPet does not declare 500/);
  api.stub('listPets', { status: 500, body: { oops: true } }, { invalid: true });
  const broken = await call(api, '/pets');
  t.strictSame([broken.status, broken.text], [500, '{"oops":true}']);
  api.stub('listPets', { status: 200, body: [rex] });
  await api.reset();
  t.strictSame(JSON.parse((await call(api, '/pets')).text), [], 'the stub is gone');
  api.stub('listPets', { status: 200, body: [rex] });
  api.clearStubs();
  t.strictSame(JSON.parse((await call(api, '/pets')).text), []);
});

t.test('clock and faults do what the control API does', async (t) => {
  const api = await started(t);
  await api.clock.set('2031-01-01T00:00:00Z');
  t.ok(Math.abs(api.clock.now().getTime() - Date.parse('2031-01-01T00:00:00Z')) < 5000);
  const gone = await call(api, '/pets/1');
  t.strictSame([gone.status, JSON.parse(gone.text).code], [410, 'gone'], 'past the sunset by the server clock');
  t.match(gone.headers['date'], /2031/);
  await api.clock.set(new Date('2029-06-01T00:00:00Z'));
  t.equal(api.clock.now().getUTCFullYear(), 2029);
  await api.clock.set(null);
  t.ok(Math.abs(api.clock.now().getTime() - Date.now()) < 5000, 'null: the real time again');
  t.throws(() => api.clock.set('next tuesday'), { name: 'ControlError', code: 'invalid_instant' });

  t.strictSame(api.faults.set('listPets', { status: 502 }), { latencyMs: 0, status: 502, errorRate: 1, dropRate: 0 }, 'as PUT /faults answers');
  t.strictSame(api.faults.list(), { listPets: { latencyMs: 0, status: 502, errorRate: 1, dropRate: 0 } });
  const failed = await call(api, '/pets');
  t.strictSame([failed.status, failed.headers['petstore-fault']], [502, 'status=502']);
  t.throws(() => api.faults.set('removePet', { latencyMs: 1 }), { code: 'unknown_operation' });
  t.throws(() => api.faults.set('listPets', { errorRate: 2 }), { code: 'invalid_fault' });
  t.throws(() => api.faults.set('listPets', { latencyMs: 1.5 }), { code: 'invalid_fault' });
  api.faults.clear();
  t.strictSame(api.faults.list(), {});
  t.equal((await call(api, '/pets')).status, 200);
});
