// Query and path parameters as the spec describes them: defaults applied,
// integers read exactly, each parameter at most once, every schema rule
// checked, and each refusal naming what was sent. The reader on its own.
import t from 'tap';
import { operations } from '../../../spec/operations.js';
import { compileParamsReader } from '../../../src/server/params.js';

const reader = (operationId: string) => compileParamsReader(operations.find((o) => o.operationId === operationId)!);
const listPets = reader('listPets');
const getPet = reader('getPet');

t.test('without a query, listPets gets the default limit 20 as an integer and no status', async (t) => {
  t.same(listPets({}, undefined), { ok: true, values: { limit: 20n } });
  t.same(listPets({}, ''), { ok: true, values: { limit: 20n } });
  const read = listPets({}, undefined);
  t.equal(read.ok && read.values['limit'], 20n, 'a bigint, like any integer read from a request');
});

t.test('limit is read as a decimal integer from 1 to 100', async (t) => {
  for (const [query, limit] of [
    ['limit=5', 5n],
    ['limit=007', 7n],
    ['limit=1', 1n],
    ['limit=100', 100n],
    ['status=sold&limit=3', 3n],
  ] as const) {
    t.same(listPets({}, query), { ok: true, values: { limit, ...(query.includes('status') ? { status: 'sold' } : {}) } }, query);
  }
});

t.test('a limit out of range or not an integer is refused, naming the parameter and what was sent', async (t) => {
  for (const [query, message] of [
    ['limit=0', 'query parameter limit must be at least 1'],
    ['limit=-3', 'query parameter limit must be at least 1'],
    ['limit=101', 'query parameter limit must be at most 100'],
    ['limit=abc', 'query parameter limit must be an integer, got string'],
    ['limit=1e1', 'query parameter limit must be an integer, got string'],
    ['limit=5.0', 'query parameter limit must be an integer, got string'],
  ] as const) {
    t.same(listPets({}, query), { ok: false, message, name: 'limit', sent: query }, query);
  }
  t.same(listPets({}, 'limit='), { ok: false, message: 'query parameter limit must be an integer, got string', name: 'limit', sent: 'limit=' });
});

t.test('a query parameter given twice is refused, even with the same value', async (t) => {
  for (const query of ['limit=5&limit=6', 'limit=5&limit=5', 'status=sold&limit=1&limit=2']) {
    t.same(
      listPets({}, query),
      { ok: false, message: 'query parameter limit must be given at most once', name: 'limit', sent: 'limit given more than once' },
      query,
    );
  }
  t.same(listPets({}, 'status=sold&status=sold'), {
    ok: false,
    message: 'query parameter status must be given at most once',
    name: 'status',
    sent: 'status given more than once',
  });
});

t.test('status is one of the enumerated values, exactly', async (t) => {
  t.same(listPets({}, 'status=available'), { ok: true, values: { limit: 20n, status: 'available' } });
  for (const status of ['lost', 'Sold', '']) {
    t.same(listPets({}, `status=${status}`), {
      ok: false,
      message: 'query parameter status must be one of: available, pending, sold',
      name: 'status',
      sent: `status=${status}`,
    });
  }
});

t.test('unknown query parameters are told, with the context, before the known ones are judged, and are otherwise ignored', async (t) => {
  const heard: unknown[] = [];
  const context = { request: 1 };
  const result = listPets({}, 'foo=1&limit=2&bar&Limit=3', (name, value, ctx) => heard.push([name, value, ctx]), context);
  t.same(result, { ok: true, values: { limit: 2n } });
  t.same(heard, [
    ['foo', '1', context],
    ['bar', '', context],
    ['Limit', '3', context],
  ]);
  heard.length = 0;
  t.equal(listPets({}, 'limti=5&limit=0', (name, value) => heard.push([name, value])).ok, false);
  t.same(heard, [['limti', '5']], 'a misspelt name is told even when the request is refused');
  heard.length = 0;
  listPets({}, 'limit=2&status=sold', (name) => heard.push(name));
  t.same(heard, [], 'known names are not told');
});

t.test('petId is read from the path as an int64, exactly', async (t) => {
  t.same(getPet({ petId: '42' }, undefined), { ok: true, values: { petId: 42n } });
  t.same(getPet({ petId: '9223372036854775807' }, undefined), { ok: true, values: { petId: 9223372036854775807n } });
  t.same(getPet({ petId: '9007199254740993' }, 'x=1'), { ok: true, values: { petId: 9007199254740993n } }, 'beyond 2^53, not rounded');
  t.same(getPet({ petId: 'abc' }, undefined), { ok: false, message: 'path parameter petId must be an integer, got string', name: 'petId', sent: 'petId abc' });
  t.same(getPet({ petId: '9223372036854775808' }, undefined), {
    ok: false,
    message: 'path parameter petId must be within the int64 range (-9223372036854775808 to 9223372036854775807)',
    name: 'petId',
    sent: 'petId 9223372036854775808',
  });
});

t.test('a required path parameter that is missing is refused', async (t) => {
  t.same(getPet({}, undefined), { ok: false, message: 'path parameter petId is required', name: 'petId', sent: 'no petId' });
  t.same(getPet({ other: '1' }, 'petId=1'), { ok: false, message: 'path parameter petId is required', name: 'petId', sent: 'no petId' }, 'not from the query');
});

t.test('a parameter without a default and not sent is left out, not set to undefined', async (t) => {
  const read = listPets({}, 'limit=3');
  t.ok(read.ok && !('status' in read.values), 'no status key');
});

t.test('the name of a path parameter, in the query, is an unknown query parameter', async (t) => {
  const heard: string[] = [];
  t.same(
    getPet({ petId: '1' }, 'petId=2', (name) => heard.push(name)),
    { ok: true, values: { petId: 1n } },
  );
  t.same(heard, ['petId']);
});

t.test('without a query no parameter is told as unknown', async (t) => {
  const heard: string[] = [];
  listPets({}, undefined, (name) => heard.push(name));
  listPets({}, '', (name) => heard.push(name));
  t.same(heard, []);
});

t.test('a status of digits is not read as an integer: it is a string outside the enumeration', async (t) => {
  t.same(listPets({}, 'status=5'), {
    ok: false,
    message: 'query parameter status must be one of: available, pending, sold',
    name: 'status',
    sent: 'status=5',
  });
});
