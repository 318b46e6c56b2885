// The control API's stubs, mark and `since` (src/server/control/api.ts,
// spec/control-openapi.ts): the same as the in-process calls, each answer
// checked against the control spec by test/helpers/control.ts.
import t from 'tap';
import { controlClient } from '../../../../helpers/control.js';
import { startTestServer } from '../../../../helpers/server.js';

async function start(t: Parameters<typeof startTestServer>[0]) {
  const s = await startTestServer(t);
  return { ...s, control: controlClient(t, s.url, s.key) };
}

const rex = { id: 7, name: 'Stubby', categoryId: 1 };

t.test('POST /stubs queues an answer the spec allows; GET /stubs lists them; the interface answers them in order, after auth', async (t) => {
  const { api, control } = await start(t);
  const added = await control('POST', '/stubs', { json: { operationId: 'getPet', status: 200, body: rex, times: 2 } });
  t.strictSame([added.status, added.body], [201, { operationId: 'getPet', status: 200, times: 2 }]);
  await control('POST', '/stubs', { json: { operationId: 'listPets', status: 200, body: [rex], headers: { 'x-page': 'last' } } });
  t.strictSame((await control('GET', '/stubs')).body, [
    { operationId: 'getPet', status: 200, times: 2 },
    { operationId: 'listPets', status: 200, times: 1 },
  ]);
  t.equal((await api('/pets/7', { auth: false })).status, 401, 'no key, no stub');
  const got = await api('/pets/7');
  t.strictSame([got.status, got.body, got.headers['petstore-stub']], [200, rex, 'true']);
  const listed = await api('/pets');
  t.strictSame([listed.body, listed.headers['x-page']], [[rex], 'last']);
  t.strictSame((await control('GET', '/stubs')).body, [{ operationId: 'getPet', status: 200, times: 1 }]);
  t.equal((await control('DELETE', '/stubs')).status, 204);
  t.strictSame((await control('GET', '/stubs')).body, []);
  t.equal((await api('/pets/7')).status, 404, 'the store again');
});

t.test('POST /stubs refuses what the spec does not allow with a 400 naming the reason, unless invalid is true; a reset clears stubs', async (t) => {
  const { api, control } = await start(t);
  const undeclared = await control('POST', '/stubs', { json: { operationId: 'getPet', status: 500, body: {} } });
  t.strictSame([undeclared.status, undeclared.body.code], [400, 'invalid_body']);
  t.match(undeclared.body.message, /^undeclared_status: getPet does not declare 500/);
  const badBody = await control('POST', '/stubs', { json: { operationId: 'getPet', status: 200, body: { id: 1 } } });
  t.match(badBody.body.message, /^invalid_body: /);
  t.match((await control('POST', '/stubs', { json: { operationId: 'nope', status: 200 } })).body.message, /^unknown_operation: /);
  t.equal((await control('POST', '/stubs', { json: { operationId: 'getPet', status: 200, body: rex, extra: 1 } })).status, 400, 'the Stub schema');
  t.equal((await control('POST', '/stubs', { json: { operationId: 'getPet', status: 200, body: rex, times: 0 } })).status, 400);
  const onPurpose = await control('POST', '/stubs', { json: { operationId: 'getPet', status: 500, body: { oops: true }, invalid: true } });
  t.equal(onPurpose.status, 201);
  await control('POST', '/reset');
  t.strictSame((await control('GET', '/stubs')).body, [], 'a reset clears stubs');
  t.equal((await api('/pets/7')).status, 404);
});

t.test('POST /mark answers the next request id; GET /journal and GET /findings take since (and the journal an operation)', async (t) => {
  const { api, control } = await start(t);
  await api('/pets?stauts=sold');
  const mark = await control('POST', '/mark');
  t.strictSame([mark.status, mark.body], [200, { since: 2 }]);
  await api('/pets?stauts=sold');
  await api('/pets/1');
  await api('/pets?limit=1');
  const journal = await control('GET', '/journal?operation=listPets&since=2');
  t.strictSame(
    journal.body.map((e: { id: number }) => e.id),
    [2, 4],
  );
  t.strictSame(
    (await control('GET', '/journal?since=3&limit=1')).body.map((e: { id: number }) => e.id),
    [4],
    'limit keeps the latest of those selected',
  );
  t.equal((await control('GET', '/journal')).body.length, 4, 'without since, every entry');
  t.equal((await control('GET', '/journal?since=0')).status, 400, 'since is a request id');
  const findings = await control('GET', '/findings?since=2');
  t.strictSame(
    findings.body.map((f: { code: string; count: number }) => [f.code, f.count]),
    [
      ['unknown_query_parameter', 1],
      ['deprecated_operation', 1],
      ['pet_not_found', 1],
    ],
    'counted since the mark',
  );
  t.equal((await control('GET', '/findings')).body[0].count, 2);
  t.strictSame((await control('GET', '/findings?since=5')).body, []);
});
