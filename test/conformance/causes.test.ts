// One cause, one finding (conformance/causes.ts): failures of two checks or more
// that their own exchanges show to share a defect are grouped under one cause —
// an int64 beyond 2^53 answered as its nearest double (seed §2), a valid NewPet
// refused with one status (§4.2), no valid HTTP answer, a status without an Error body (§7).
import t from 'tap';
import type { WireRequest, WireResponse } from '../../conformance/client.js';
import { diagnose, sentIntegers } from '../../conformance/causes.js';
import type { Failure } from '../../conformance/vocabulary.js';
import { operationById } from '../../spec/operations.js';

const create = operationById('createPet');
const AUTH = { authorization: 'Bearer k' };

const request = (method: string, path: string, body?: string, headers: Record<string, string> = AUTH): WireRequest => ({
  method,
  path,
  headers,
  operationId: path === '/pets' ? (method === 'POST' ? 'createPet' : 'listPets') : 'getPet',
  ...(body !== undefined ? { body } : {}),
});
const response = (status: number, text: string): WireResponse => ({ status, headers: {}, text, json: undefined, durationMs: 1 });
const failure = (checkId: string, message: string, req?: WireRequest, res?: WireResponse): Failure => ({
  checkId,
  family: 'responses',
  operationId: req?.operationId ?? 'listPets',
  requirement: 'r',
  seedSection: '§4',
  message,
  ...(req ? { request: req } : {}),
  ...(res ? { response: res } : {}),
});

const observed = (...bodies: string[]) => {
  const sent = sentIntegers();
  for (const body of bodies) sent.observe({ request: request('POST', '/pets', body), response: response(201, ''), family: 'state' });
  return sent.all();
};

t.test('the integers gathered are those beyond 2^53 and within int64, as sent', async (t) => {
  const sent = observed(
    '{"a":9007199254740992,"b":9007199254740993,"c":-9007199254740993}',
    '{"d":9223372036854775807,"e":-9223372036854775808,"f":9223372036854775808}',
    '{"g":12345678901234567.5,"h":12345678901234567e3,"i":"x12345678901234567","j":123456789012345}',
  );
  t.strictSame(
    [...sent].sort(),
    ['-9007199254740993', '-9223372036854775808', '9007199254740993', '9223372036854775807'].sort(),
    '2^53 itself, beyond int64, decimals, exponents, digits in a word and short numbers are left out',
  );
  const none = sentIntegers();
  none.observe({ request: request('GET', '/pets'), response: response(200, '[]'), family: 'limits' });
  t.equal(none.all().size, 0, 'a request without a body adds nothing');
});

t.test('an integer sent and answered as its nearest double, by two checks, is one cause', async (t) => {
  const sent = observed('{"name":"a","categoryId":9007199254740993}');
  const failures = [
    failure(
      'state.create-get',
      'categoryId differs',
      request('POST', '/pets', '{"name":"a","categoryId":9007199254740993}'),
      response(201, '{"id":1,"name":"a","categoryId":9007199254740992}'),
    ),
    failure('responses.schema', 'the Pet differs', request('GET', '/pets/1'), response(200, '{"id":1,"name":"a","categoryId":9.007199254740992e15}')),
    failure('limits.max', 'too many pets', request('GET', '/pets?limit=5'), response(200, '[]')),
  ];
  const { failures: marked, causes } = diagnose(failures, sent, create);
  t.equal(causes.length, 1);
  t.equal(causes[0]!.id, 'cause-1');
  t.strictSame(causes[0]!.checkIds, ['state.create-get', 'responses.schema']);
  t.equal(causes[0]!.failures, 2);
  t.match(causes[0]!.summary, '9007199254740993 was answered as 9007199254740992');
  t.match(causes[0]!.summary, 'seed §2: int64');
  t.equal(causes[0]!.evidence, 'POST /pets {"name":"a","categoryId":9007199254740993} → 201 {"id":1,"name":"a","categoryId":9007199254740992}');
  t.strictSame(
    marked.map((f) => f.cause),
    ['cause-1', 'cause-1', undefined],
    'the failures it explains name it; the other does not',
  );
  t.notOk('cause' in marked[2]!, 'an unexplained failure is passed on as it was');
});

t.test('an answer that holds the integer as sent is no sign of rounding', async (t) => {
  const sent = observed('{"categoryId":9007199254740993}');
  const text = '{"categoryId":9007199254740993,"other":9007199254740992}';
  const { causes } = diagnose(
    [failure('a.one', 'x', request('GET', '/pets/1'), response(200, text)), failure('b.two', 'y', request('GET', '/pets/1'), response(200, text))],
    sent,
    create,
  );
  t.strictSame(causes, []);
});

t.test('one check failing many times is no cause: a cause explains failures of two checks or more', async (t) => {
  const sent = observed('{"categoryId":9007199254740993}');
  const res = response(200, '{"categoryId":9007199254740992}');
  const { failures, causes } = diagnose(
    [failure('a.one', 'x', request('GET', '/pets/1'), res), failure('a.one', 'x', request('GET', '/pets/2'), res)],
    sent,
    create,
  );
  t.strictSame(causes, []);
  t.strictSame(
    failures.map((f) => f.cause),
    [undefined, undefined],
  );
});

t.test('a valid NewPet refused with the same status by two checks is one cause (seed §4.2: 201)', async (t) => {
  const valid = '{"name":"Rex","categoryId":1}';
  const failures = [
    failure('validation.valid', 'refused', request('POST', '/pets', valid), response(400, '{"code":"bad"}')),
    failure('state.create', 'refused', request('POST', '/pets', '{"name":"Tom","categoryId":2,"status":"sold"}'), response(400, '{"code":"bad"}')),
    failure('media.json', 'refused', request('POST', '/pets', valid), response(415, '{}')),
    failure('auth.none', 'refused', request('POST', '/pets', valid, {}), response(400, '{}')),
    failure('validation.invalid', 'refused', request('POST', '/pets', '{"name":"Rex"}'), response(400, '{}')),
  ];
  const { failures: marked, causes } = diagnose(failures, new Set(), create);
  t.equal(causes.length, 1, 'one status refused by one check only, without a key, or an invalid body make no cause');
  t.equal(causes[0]!.summary, 'valid NewPets are refused with 400 (seed §4.2: 201)');
  t.strictSame(causes[0]!.checkIds, ['validation.valid', 'state.create']);
  t.strictSame(
    marked.map((f) => f.cause),
    ['cause-1', 'cause-1', undefined, undefined, undefined],
  );
});

t.test('a valid NewPet whose integer, as a double, lies beyond int64 is the int64 cause', async (t) => {
  const body = '{"name":"Rex","categoryId":9223372036854775807}';
  const { causes } = diagnose(
    [
      failure('validation.valid', 'refused', request('POST', '/pets', body), response(400, '{"code":"bad"}')),
      failure('state.create', 'refused', request('POST', '/pets', body), response(400, '{"code":"bad"}')),
    ],
    new Set(),
    create,
  );
  t.equal(causes.length, 1);
  t.equal(
    causes[0]!.summary,
    'integers beyond 2^53 do not come back as sent: a valid NewPet holding 9223372036854775807 was refused with 400; as a double, 9223372036854775807 is 9223372036854775808, beyond int64 (seed §2: int64)',
  );
});

t.test('no valid HTTP answer, said the same way but for its numbers, is one cause', async (t) => {
  const { causes } = diagnose(
    [
      failure('a.one', 'no valid HTTP answer: the connection closed after 12 bytes', request('GET', '/pets')),
      failure('b.two', 'no valid HTTP answer: the connection closed after 3 bytes', request('GET', '/pets/7')),
      failure('c.three', 'no valid HTTP answer: timed out', request('GET', '/pets')),
    ],
    new Set(),
    create,
  );
  t.equal(causes.length, 1);
  t.equal(causes[0]!.summary, 'no valid HTTP answer: the connection closed after 12 bytes');
  t.equal(causes[0]!.evidence, 'GET /pets');
  t.strictSame(causes[0]!.checkIds, ['a.one', 'b.two']);
});

t.test('the same status without a valid Error body, or the same wrong Content-Type, is one cause each (seed §7, §4)', async (t) => {
  const res = response(404, 'Not Found');
  const { causes } = diagnose(
    [
      failure('a.one', 'the 404 answer has no valid Error body: not JSON\nmore detail', request('GET', '/pets/1'), res),
      failure('b.two', 'the 404 answer has no valid Error body: not JSON', request('GET', '/pets/2'), res),
      failure('c.three', 'the 401 answer has no valid Error body: not JSON', request('GET', '/pets'), res),
      failure('a.one', 'Content-Type is text/html, not application/json', request('GET', '/pets'), res),
      failure('d.four', 'its Content-Type is text/html, not application/json', request('GET', '/pets'), res),
      failure('e.five', 'something else entirely', request('GET', '/pets'), res),
    ],
    new Set(),
    create,
  );
  t.strictSame(
    causes.map((c) => [c.id, c.summary, c.checkIds]),
    [
      ['cause-1', '404 answers carry no valid Error body: not JSON (seed §7)', ['a.one', 'b.two']],
      ['cause-2', 'answers say Content-Type text/html, not application/json (seed §4)', ['a.one', 'd.four']],
    ],
  );
});
