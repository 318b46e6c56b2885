// One request, two answers (conformance/differential/compare.ts): the
// differences the seed leaves no room for, and the rows that allow the rest.
import t from 'tap';
import type { Exchange, WireRequest, WireResponse } from '../../../conformance/client.js';
import { differenceOf, judgePair, type PairFacts } from '../../../conformance/differential/compare.js';
import { TOLERANCES } from '../../../conformance/tolerances.js';
import { operations } from '../../../spec/operations.js';

const KEY = 'secret-key-1';
const op = (id: string) => operations.find((o) => o.operationId === id);
const facts = (extra: Partial<PairFacts> = {}): PairFacts => ({ apiKey: KEY, authorization: `Bearer ${KEY}`, op: op('listPets'), lagging: false, ...extra });
const answer = (status: number, json?: unknown): WireResponse => ({
  status,
  headers: { date: 'Sun, 29 Nov 2026 06:00:00 GMT' },
  text: json === undefined ? '' : JSON.stringify(json, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)),
  json: json as never,
  durationMs: 1,
});
const exchange = (request: Partial<WireRequest>, response: WireResponse): Exchange => ({
  family: 'routes',
  request: { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets', ...request },
  response,
});
const kindOf = (e: Exchange, oracle: WireResponse, f = facts()) => differenceOf(e, oracle, f)?.kind;

t.test('served without any form of the key, where the oracle asked for one', async (t) => {
  t.equal(kindOf(exchange({}, answer(200, [])), answer(401)), 'served-without-key');
  t.equal(
    kindOf(exchange({ method: 'POST', body: '{}', operationId: 'createPet' }, answer(201, { ok: true })), answer(401)),
    'served-without-key',
    'a write accepted',
  );
  t.equal(kindOf(exchange({ headers: { 'x-api-key': KEY } }, answer(200, [])), answer(401)), undefined, 'the key elsewhere: the auth families judge that');
  t.equal(kindOf(exchange({ method: 'HEAD' }, answer(200)), answer(401)), undefined, 'no pet data, no write');
  t.equal(kindOf(exchange({ path: '/health' }, answer(200, { status: 'ok' })), answer(401)), undefined, 'a public answer without pets');
});

t.test('the valid key refused where the oracle served', async (t) => {
  t.equal(kindOf(exchange({ headers: { Authorization: `Bearer ${KEY}` } }, answer(401)), answer(200, [])), 'valid-key-refused');
  t.equal(
    kindOf(exchange({ headers: { authorization: `bearer ${KEY}` } }, answer(401)), answer(200, [])),
    undefined,
    'another spelling: the auth family judges it',
  );
  t.equal(kindOf(exchange({ headers: { authorization: `Bearer ${KEY}` } }, answer(401)), answer(401)), undefined, 'refused by both: the same outcome');
});

t.test('served by one and refused by the other', async (t) => {
  t.equal(kindOf(exchange({}, answer(400, {})), answer(200, [])), 'accepted-refused');
  t.equal(kindOf(exchange({ path: '/pets/5' }, answer(404, {})), answer(200, {})), 'accepted-refused', 'a pet not found');
  t.equal(kindOf(exchange({ method: 'POST', operationId: 'createPet' }, answer(201, {})), answer(400, {})), 'refused-accepted');
  t.equal(kindOf(exchange({}, answer(200, [])), answer(400, {})), undefined, 'a read the oracle refuses may be served (a clamped limit)');
  t.equal(kindOf(exchange({}, answer(429)), answer(200, [])), undefined, 'rate limited');
  t.equal(kindOf(exchange({}, answer(200, [])), answer(200, [])), undefined);
});

t.test('the message says what each answered', async (t) => {
  t.equal(
    differenceOf(exchange({ path: '/pets?limit=%35' }, answer(400, {})), answer(200, []), facts())?.message,
    'GET /pets?limit=%35 was answered 400 by the target and 200 by the oracle: the oracle served it and the target refused it',
  );
});

t.test('a row of the table allows a difference, and says which', async (t) => {
  const judge = (e: Exchange, oracle: WireResponse, f = facts()) => {
    const verdict = judgePair(e, oracle, f, TOLERANCES, operations);
    return verdict === undefined ? 'same' : 'tolerated' in verdict ? verdict.tolerated.id : verdict.difference;
  };
  t.equal(judge(exchange({ offSpec: true }, answer(404, {})), answer(200, [])), 'open-reading');
  t.equal(judge(exchange({ path: '/pets?page=2' }, answer(400, {})), answer(200, [])), 'unknown-names');
  t.equal(
    judge(
      exchange({ method: 'POST', operationId: 'createPet', body: '{}', headers: { 'content-type': 'text/plain' } }, answer(201, {})),
      answer(415, {}),
      facts({ op: op('createPet') }),
    ),
    'media-type-reading',
  );
  t.equal(
    judge(
      exchange(
        { method: 'POST', operationId: 'createPet', body: `{"name":"${'x'.repeat(40)}"}`, headers: { 'content-type': 'application/json' } },
        answer(400, {}),
      ),
      answer(201, {}),
      facts({ op: op('createPet') }),
    ),
    'length-limit',
  );
  t.equal(
    judge(exchange({ path: '/pets/7', operationId: 'getPet' }, answer(404, {})), answer(200, {}), facts({ op: op('getPet'), lagging: true })),
    'read-after-write',
  );
  t.equal(
    judge(exchange({ path: '/pets/7', operationId: 'getPet' }, answer(404, {})), answer(200, {}), facts({ op: op('getPet') })),
    'accepted-refused',
    'not lagging: a lost pet',
  );
  const gone = { ...answer(410, {}), headers: { date: 'Fri, 06 Dec 2030 00:00:00 GMT' } };
  t.equal(judge(exchange({ path: '/pets/7', operationId: 'getPet' }, gone), answer(200, {}), facts({ op: op('getPet') })), 'past-sunset');
  const early = { ...answer(410, {}), headers: { date: 'Sun, 29 Nov 2026 06:00:00 GMT' } };
  t.equal(
    judge(exchange({ path: '/pets/7', operationId: 'getPet' }, early), answer(200, {}), facts({ op: op('getPet') })),
    'accepted-refused',
    'removed before its date',
  );
  t.equal(judge(exchange({ offSpec: true }, answer(200, [])), answer(401)), 'served-without-key', 'no row excuses serving without a key');
  const plain = { method: 'POST', operationId: 'createPet', body: '{"name":"a","categoryId":1}', headers: { 'content-type': 'text/plain' } };
  t.equal(judge(exchange(plain, answer(415, {})), answer(201, {}), facts({ op: op('createPet') })), 'media-type-reading', 'refused where the oracle took it');
  t.equal(judge(exchange(plain, answer(201, { id: 1n })), answer(401), facts({ op: op('createPet') })), 'served-without-key', 'whatever its media type');
});
