// Stubs (src/server/control/stubs.ts): checked against the spec's declared
// responses when set, unless marked invalid on purpose; first in, first out
// per operation; each answering `times` requests.
import t from 'tap';
import { operations } from '../../../../spec/operations.js';
import { StubTable } from '../../../../src/server/control/stubs.js';

const rex = { id: 1, name: 'Rex', categoryId: 1 };
const refusedWith = (outcome: ReturnType<StubTable['add']>) => (outcome.ok ? 'accepted' : outcome.code);

t.test('a stub is refused unless the operation declares its status and its body is valid for that answer', async (t) => {
  const stubs = new StubTable(operations);
  t.equal(refusedWith(stubs.add('deletePet', { status: 204 })), 'unknown_operation');
  t.equal(refusedWith(stubs.add('getPet', { status: 500, body: { code: 'x', message: 'y', status: 500 } })), 'undeclared_status');
  t.equal(refusedWith(stubs.add('getPet', { status: 200 })), 'invalid_body', 'a declared body is required');
  t.equal(refusedWith(stubs.add('getPet', { status: 200, body: { id: 1, name: 'Rex' } })), 'invalid_body', 'a Pet needs its categoryId');
  t.equal(refusedWith(stubs.add('getPet', { status: 200, body: { ...rex, id: 1.5 } })), 'invalid_body');
  t.equal(refusedWith(stubs.add('listPets', { status: 200, body: rex })), 'invalid_body', 'listPets answers an array');
  t.equal(refusedWith(stubs.add('getPet', { status: 600 }, { invalid: true })), 'invalid_status', 'not an HTTP status even on purpose');
  t.equal(refusedWith(stubs.add('getPet', { status: 200, body: rex }, { times: 0 })), 'invalid_times');
  t.equal(refusedWith(stubs.add('getPet', { status: 200, body: rex, headers: { 'content-type': 'text/plain' } })), 'invalid_headers');
  t.equal(refusedWith(stubs.add('getPet', { status: 200, body: rex, headers: { 'x-bad': 'a\nb' } })), 'invalid_headers');
  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  t.equal(refusedWith(stubs.add('getPet', { status: 200, body: cyclic }, { invalid: true })), 'invalid_body', 'not JSON even on purpose');
  t.equal(stubs.active, false, 'nothing refused was queued');
  const refused = stubs.add('getPet', { status: 503, body: {} });
  t.match(
    refused,
    { ok: false, message: /getPet does not declare 503 \(it declares 200, 401, 404\); pass \{ invalid: true \}/ },
    'the message says what is declared and how to insist',
  );
  t.strictSame(
    stubs.add('getPet', { status: 200, body: { ...rex, id: 2n ** 63n - 1n } }),
    { ok: true, stub: { operationId: 'getPet', status: 200, times: 1 } },
    'int64 digits as bigints',
  );
  t.equal(refusedWith(stubs.add('getPet', { status: 404, body: { code: 'pet_not_found', message: 'gone', status: 404 } })), 'accepted');
  t.equal(refusedWith(stubs.add('getPet', { status: 500, body: { oops: true } }, { invalid: true })), 'accepted', 'on purpose');
  t.equal(refusedWith(stubs.add('getPet', { status: 200, body: 'not a pet' }, { invalid: true })), 'accepted');
});

t.test('stubs answer first in, first out, each `times` requests, per operation; then none is left', async (t) => {
  const stubs = new StubTable(operations);
  t.equal(stubs.active, false);
  stubs.add('getPet', { status: 200, body: rex, headers: { 'x-trace': 'one' } }, { times: 2 });
  stubs.add('getPet', { status: 404, body: { code: 'pet_not_found', message: 'no animal has id 1', status: 404 } });
  stubs.add('listPets', { status: 200, body: [] });
  t.equal(stubs.active, true);
  t.strictSame(stubs.list(), [
    { operationId: 'getPet', status: 200, times: 2 },
    { operationId: 'getPet', status: 404, times: 1 },
    { operationId: 'listPets', status: 200, times: 1 },
  ]);
  const first = stubs.take('getPet');
  t.strictSame([first?.status, first?.body, first?.headers, first?.code], [200, '{"id":1,"name":"Rex","categoryId":1}', ['x-trace', 'one'], undefined]);
  t.equal(stubs.take('getPet')?.status, 200, 'the first answers twice');
  const third = stubs.take('getPet');
  t.strictSame([third?.status, third?.code], [404, 'pet_not_found'], 'then the second; an Error body gives the journal its code');
  t.equal(stubs.take('getPet'), undefined, 'then none');
  t.equal(stubs.take('createPet'), undefined);
  t.equal(stubs.active, true, 'listPets still has one');
  stubs.clear();
  t.equal(stubs.active, false);
  t.equal(stubs.take('listPets'), undefined);
  t.strictSame(stubs.operationIds, ['listPets', 'createPet', 'getPet']);
});
