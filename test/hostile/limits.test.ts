// Limits (decisions D4, D10, D11) at and just past their edges, each answered
// with an Error body, with nothing lost: the pets already there stay as they
// were and the server keeps serving. What test/server already covers (a 9 KB
// target, 20 KB of one header, a 40-deep or 10,001-element array, a 1 MiB
// body, a store of two) is not repeated.
import t, { type Test } from 'tap';
import { request as undiciRequest } from 'undici';
import { startTestServer } from '../helpers/server.js';
import { errorBodyProblems, parseResponses, request, send, sleep, type WireResponse } from './wire.js';

const JSON_TYPE = 'Content-Type: application/json';
const SEED = [
  { name: 'Rex', categoryId: 9223372036854775807n, status: 'available' as const },
  { name: 'Tom', categoryId: -1n },
];

/** The server's pets as listPets shows them, to compare before and after. */
async function snapshot(url: string, key: string): Promise<string> {
  const res = await undiciRequest(`${url}/pets?limit=100`, { headers: { authorization: `Bearer ${key}` } });
  return res.body.text();
}

function only(t: Test, exchange: { data: Buffer }, status: number, code: string): WireResponse | undefined {
  const { responses, problems } = parseResponses(exchange.data);
  t.strictSame(problems, [], 'a well-formed answer');
  t.strictSame(
    responses.map((r) => r.status),
    [status],
    `answered ${status}`,
  );
  const r = responses[0];
  if (r) {
    t.strictSame(errorBodyProblems(r), [], 'with an Error body');
    t.match(r.body.toString(), `"code":"${code}"`, `code ${code}`);
  }
  return r;
}

t.test('a request target longer than the header limit answers 414 uri_too_long, not 431', async (t) => {
  const { url, key } = await startTestServer(t, { seed: SEED });
  const port = Number(new URL(url).port);
  const before = await snapshot(url, key);
  for (const length of [12 * 1024, 20 * 1024, 100 * 1024]) {
    const exchange = await send(port, request('GET', `/v1/pets?pad=${'a'.repeat(length)}`, [`Authorization: Bearer ${key}`]));
    t.test(`a ${length / 1024} KiB target`, async (t) => void only(t, exchange, 414, 'uri_too_long'));
  }
  const long = await send(port, request('POST', `/v1/pets/${'1'.repeat(30_000)}`, [`Authorization: Bearer ${key}`, JSON_TYPE], '{"name":"X","categoryId":1}'));
  t.test('a 30 kB path on a POST', async (t) => void only(t, long, 414, 'uri_too_long'));
  t.equal(await snapshot(url, key), before, 'the pets are as they were');
});

t.test('header fields over 16 KiB answer 431 header_too_large, however they are split', async (t) => {
  const { url, key } = await startTestServer(t, { seed: SEED });
  const port = Number(new URL(url).port);
  const before = await snapshot(url, key);
  const cases: ReadonlyArray<readonly [string, string[]]> = [
    ['1,000 fields of 20 bytes', Array.from({ length: 1000 }, (_, i) => `X-F${String(i).padStart(4, '0')}: ${'v'.repeat(12)}`)],
    ['one 64 KiB field', [`X-Big: ${'v'.repeat(64 * 1024)}`]],
    ['a 17 KiB Authorization', [`Authorization: Bearer ${'k'.repeat(17 * 1024)}`]],
  ];
  for (const [what, headers] of cases) {
    const exchange = await send(port, request('GET', '/v1/pets', [`Authorization: Bearer ${key}`, ...headers]));
    t.test(what, async (t) => void only(t, exchange, 431, 'header_too_large'));
  }
  t.equal(await snapshot(url, key), before, 'the pets are as they were');
});

t.test('a Content-Length over 1 MiB is refused with 413 before any of the body is sent', async (t) => {
  const { url, key, server } = await startTestServer(t);
  const port = Number(new URL(url).port);
  const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${JSON_TYPE}\r\nContent-Length: ${1024 * 1024 + 1}\r\n\r\n`;
  const exchange = await send(port, head, { end: false, timeoutMs: 3_000 });
  t.ok(exchange.closed, 'the server answered and closed without waiting for the body');
  only(t, exchange, 413, 'payload_too_large');
  const huge = await send(port, head.replace(/Content-Length: \d+/, 'Content-Length: 99999999999999'), { end: false, timeoutMs: 3_000 });
  only(t, huge, 413, 'payload_too_large');
  t.equal(server.store.size, 0, 'nothing was created');
});

t.test('JSON members: exactly 10,000 are accepted, 10,001 object keys answer 400 malformed_json', async (t) => {
  const { api, server } = await startTestServer(t);
  const bodyWith = (members: number) => {
    const extra = Array.from({ length: members - 2 }, (_, i) => `"k${i}":0`).join(',');
    return `{"name":"Wide","categoryId":1,${extra}}`;
  };
  const fits = await api('/pets', { body: bodyWith(10_000), headers: { 'content-type': 'application/json' } });
  t.equal(fits.status, 201, '10,000 members');
  t.strictSame(fits.body, { id: 1, name: 'Wide', categoryId: 1 }, 'and the unknown ones are not stored');
  const over = await api('/pets', { body: bodyWith(10_001), headers: { 'content-type': 'application/json' } });
  t.equal(over.status, 400, '10,001 members');
  t.equal(over.body.code, 'malformed_json');
  const dup = await api('/pets', { body: `{"name":"Dup","categoryId":1,${'"a":0,'.repeat(10_000)}"b":0}`, headers: { 'content-type': 'application/json' } });
  t.equal(dup.status, 400, '10,001 members that repeat one key count as 10,001');
  t.equal(server.store.size, 1, 'only the first was created');
});

t.test('JSON depth: 32 levels are accepted, 33 answer 400 malformed_json, in arrays and in objects', async (t) => {
  const { api } = await startTestServer(t);
  const arrays = (depth: number) => `{"name":"Deep","categoryId":1,"x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
  const objects = (depth: number) => `{"name":"Deep","categoryId":1,"x":${'{"a":'.repeat(depth - 1)}0${'}'.repeat(depth - 1)}}`;
  for (const [what, body] of [
    ['arrays', arrays],
    ['objects', objects],
  ] as const) {
    t.equal((await api('/pets', { body: body(32), headers: { 'content-type': 'application/json' } })).status, 201, `${what}: 32 levels`);
    const over = await api('/pets', { body: body(33), headers: { 'content-type': 'application/json' } });
    t.equal(over.status, 400, `${what}: 33 levels`);
    t.equal(over.body.code, 'malformed_json', `${what}: malformed_json`);
  }
  const bomb = await api('/pets', { body: '['.repeat(200_000), headers: { 'content-type': 'application/json' } });
  t.equal(bomb.status, 400, '200,000 open brackets: 400, not a stack overflow');
});

t.test('a full store answers every create 507 storage_full, concurrently too; ids do not move and the pets stay intact', async (t) => {
  const { url, key, server } = await startTestServer(t, { limits: { maxPets: 50 } });
  const post = (i: number) =>
    undiciRequest(`${url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `pet-${i}`, categoryId: i, status: 'pending' }),
    }).then(async (res) => ({ status: res.statusCode, text: await res.body.text() }));
  const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => post(i)));
  const created = answers.filter((a) => a.status === 201);
  const full = answers.filter((a) => a.status === 507);
  t.equal(created.length, 50, '50 created');
  t.equal(full.length, 70, 'the other 70 answered 507');
  t.ok(
    full.every((a) => JSON.parse(a.text).code === 'storage_full' && JSON.parse(a.text).status === 507),
    'each with an Error body, storage_full',
  );
  t.strictSame(
    created.map((a) => JSON.parse(a.text).id).sort((a: number, b: number) => a - b),
    Array.from({ length: 50 }, (_, i) => i + 1),
    'ids 1..50',
  );
  const before = await snapshot(url, key);
  const later = await Promise.all(Array.from({ length: 20 }, (_, i) => post(1000 + i)));
  t.ok(
    later.every((a) => a.status === 507),
    '20 more creates on a full store: 507 each',
  );
  t.equal(await snapshot(url, key), before, 'refused creates changed nothing');
  const changed: string[] = [];
  for (const a of created) {
    const pet = JSON.parse(a.text) as { id: number };
    const res = await undiciRequest(`${url}/pets/${pet.id}`, { headers: { authorization: `Bearer ${key}` } });
    const text = await res.body.text();
    if (text !== a.text) changed.push(`${pet.id}: ${text}`);
  }
  t.strictSame(changed, [], 'every pet is as its 201 said');
  t.equal(server.store.size, 50);
});

t.test('after every kind of refusal the server keeps serving and the pets are as they were', async (t) => {
  const { url, key } = await startTestServer(t, { seed: SEED });
  const port = Number(new URL(url).port);
  const refusals = [
    request('GET', `/v1/pets?x=${'a'.repeat(40_000)}`, []),
    request('GET', '/v1/pets', [`X: ${'a'.repeat(40_000)}`]),
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${JSON_TYPE}\r\nContent-Length: 5000000\r\n\r\n`,
    request('POST', '/v1/pets', [`Authorization: Bearer ${key}`, JSON_TYPE], '['.repeat(5000)),
    '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', // a TLS ClientHello
    'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', // the HTTP/2 preface
  ];
  for (const bytes of refusals) {
    const exchange = await send(port, bytes, { timeoutMs: 3_000 });
    const { responses, problems } = parseResponses(exchange.data);
    t.strictSame(problems, [], `${JSON.stringify(bytes.slice(0, 30))}: a well-formed answer`);
    t.ok(responses.length === 1 && (responses[0]?.status ?? 500) < 500, `${JSON.stringify(bytes.slice(0, 30))}: one 4xx answer (${responses[0]?.status})`);
  }
  await sleep(50);
  t.equal((await undiciRequest(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } })).statusCode, 200, 'a normal request is still served');
  t.match(
    await snapshot(url, key),
    /^\[\{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"available"\},\{"id":2,"name":"Tom","categoryId":-1\}\]$/,
    'the seed pets are exactly as they were',
  );
});
