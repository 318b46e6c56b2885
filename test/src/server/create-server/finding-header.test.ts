// Issue 47 §2, decision D23: a refused request carries its diagnosis. The
// server notes a refusal's finding before it writes the answer (the
// responder's `refusing` hook, wired in create-server.ts), so every answer to
// a request that showed findings names them in Petstore-Finding, and a 4xx
// Error's message ends with them in the client's terms: a test that fails on
// its own shows the cause. The findings themselves are counted as before.
import t, { type Test } from 'tap';
import { request } from 'undici';
import type { Finding } from '../../../../src/server/findings/index.js';
import { createServer, type PetstoreServer, type ServerOptions } from '../../../../src/server/index.js';
import { PetStore, type Store } from '../../../../src/store/index.js';

const KEY = 'sk-test-findings-0123456789';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

async function start(t: Test, options: ServerOptions = {}) {
  // Either overload: with a store of the test's own or the in-memory one.
  const create = createServer as (options: ServerOptions) => PetstoreServer<Store>;
  const server = create({ apiKeys: [KEY], onError: (error) => t.fail(String(error)), ...options });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  const call = async (path: string, init: { method?: string; body?: string; auth?: boolean; headers?: Record<string, string> } = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...(init.auth === false ? {} : { authorization: `Bearer ${KEY}` }), ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await request(url + path, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body ?? null });
    return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
  };
  return { server, call, origin: new URL(url).origin };
}

const REX = '{"name":"Rex","categoryId":1}';
const ROUNDED_MESSAGE = 'no animal has id 9007199254740992; was it rounded from 9007199254740993, an id this server gave? (JSON.parse keeps 53 bits)';

/** An in-memory store whose lookups answer a turn later, as a shared store's round trips do. */
function lateStore(lookups: bigint[]): Store {
  const inner = new PetStore({ maxPets: 100, ids: 'large' });
  return new Proxy(inner, {
    get(target, name) {
      if (name === 'get')
        return (id: bigint) => {
          lookups.push(id);
          return new Promise((resolve) => setImmediate(() => resolve(target.get(id))));
        };
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

t.test('a rounded id: the 404 names rounded_id and its message the id the client was given; its code is kept', async (t) => {
  const s = await start(t, { ids: 'large' });
  t.equal((await s.call('/pets', { body: REX })).body, '{"id":9007199254740993,"name":"Rex","categoryId":1}');
  const res = await s.call('/pets/9007199254740992');
  t.equal(res.status, 404);
  // getPet is deprecated: every call of it is a finding too, found first.
  t.equal(res.headers['petstore-finding'], 'deprecated_operation, rounded_id');
  t.strictSame(JSON.parse(res.body), { code: 'pet_not_found', message: ROUNDED_MESSAGE, status: 404 });
});

t.test('a rounded id found only after lookups that answer later is still in that 404', async (t) => {
  const lookups: bigint[] = [];
  const s = await start(t, { store: lateStore(lookups) });
  await s.call('/pets', { body: REX });
  const res = await s.call('/pets/9007199254740992');
  t.ok(lookups.includes(9007199254740993n), 'the candidate was looked up, later');
  t.equal(res.headers['petstore-finding'], 'deprecated_operation, rounded_id');
  t.equal(JSON.parse(res.body).message, ROUNDED_MESSAGE);
  const plain = await s.call('/pets/12');
  t.equal(JSON.parse(plain.body).message, 'no animal has id 12', 'an id that is no rounding: the Error alone');
  t.equal(plain.headers['petstore-finding'], 'deprecated_operation, pet_not_found');
});

t.test('an unknown query parameter on a 400: named in the header, its nearest name at the end of the message', async (t) => {
  const s = await start(t);
  const res = await s.call('/pets?stauts=sold&limit=0');
  t.equal(res.status, 400);
  t.equal(res.headers['petstore-finding'], 'unknown_query_parameter, invalid_parameter');
  t.strictSame(JSON.parse(res.body), {
    code: 'invalid_parameter',
    message: 'query parameter limit must be at least 1; listPets has no query parameter stauts: did you mean status?',
    status: 400,
  });
});

t.test('an unknown body field on a 201: the header says it, the body is the Pet as without it', async (t) => {
  const s = await start(t);
  const res = await s.call('/pets', { body: '{"name":"Rex","categoryId":1,"stauts":"sold"}' });
  t.equal(res.status, 201);
  t.equal(res.headers['petstore-finding'], 'unknown_body_field');
  t.equal(res.body, '{"id":1,"name":"Rex","categoryId":1}');
  const missing = await s.call('/pets', { body: '{"name":"Rex","category_id":1}' });
  t.equal(missing.headers['petstore-finding'], 'unknown_body_field, invalid_body');
  t.equal(JSON.parse(missing.body).message, 'categoryId is required; the body has no field category_id: did you mean categoryId?');
});

t.test('a request without findings is answered as with findings off: no header, the same fields and body', async (t) => {
  const on = await start(t);
  const off = await start(t, { findings: false });
  for (const [path, init] of [
    ['/pets', {}],
    ['/pets', { body: REX }],
    ['/pets?limit=1&status=available', { headers: { origin: 'https://app.example' } }],
  ] as const) {
    const [a, b] = [await on.call(path, init), await off.call(path, init)];
    t.notOk('petstore-finding' in a.headers, `${path}: no Petstore-Finding`);
    t.strictSame(Object.keys(a.headers), Object.keys(b.headers), `${path}: the same fields`);
    t.equal(a.body, b.body, `${path}: the same body`);
  }
});

t.test('a refusal names its own finding; its Error is the one it was; with findings off neither changes', async (t) => {
  const s = await start(t);
  const refused = await s.call('/pets', { auth: false });
  t.equal(refused.headers['petstore-finding'], 'unauthorized');
  t.equal(refused.body, '{"code":"unauthorized","message":"an API key is required: send Authorization: Bearer <API_KEY>","status":401}');
  const off = await start(t, { findings: false });
  for (const path of ['/pets?stauts=sold&limit=0', '/pet/1']) {
    const res = await off.call(path);
    t.notOk('petstore-finding' in res.headers, `${path}: no header`);
    t.notMatch(JSON.parse(res.body).message, /did you mean|; /, `${path}: the Error alone`);
  }
});

t.test('GET /__control/findings counts as before: each refusal’s message is its Error’s own, without the hints', async (t) => {
  const s = await start(t, { ids: 'large' });
  await s.call('/pets', { body: REX });
  await s.call('/pets?stauts=sold&limit=0');
  await s.call('/pets?stauts=sold&limit=0');
  await s.call('/pets/9007199254740992');
  const res = await request(`${s.origin}/__control/findings`, { headers: { authorization: `Bearer ${KEY}` } });
  const findings = (await res.body.json()) as Finding[];
  t.notOk('petstore-finding' in res.headers, 'the control API is not the interface: no findings of its own');
  t.strictSame(
    findings.map((f) => [f.code, f.count]),
    [
      ['unknown_query_parameter', 2],
      ['invalid_parameter', 2],
      ['deprecated_operation', 1],
      ['rounded_id', 1],
    ],
  );
  t.equal(findings[1]?.message, 'query parameter limit must be at least 1', 'the Error’s message, as before');
  t.notOk(
    findings.some((f) => 'hint' in f),
    'a finding as shown has no hint',
  );
});

t.test('what the message quotes is shown as findings show it: never a key', async (t) => {
  const s = await start(t);
  const res = await s.call(`/pets?${KEY}=1&limit=0`);
  t.equal(res.status, 400);
  t.notMatch(res.body, KEY);
  t.match(JSON.parse(res.body).message, /; listPets has no query parameter .+: it was ignored$/);
  const field = await s.call('/pets', { body: `{"name":"Rex","${KEY}":1}` });
  t.notMatch(field.body, KEY);
  t.notMatch(JSON.stringify(field.headers), KEY);
});
