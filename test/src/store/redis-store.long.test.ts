// The shared store (issue 19): several instances of the reference server on
// one real redis-server serve one set of pets, and the control API's calls on
// any of them apply to all. Each test starts its own redis-server on a free
// port, without persistence.
import t, { type Test } from 'tap';
import { request } from 'undici';
import { startServer } from '../../../src/index.js';
import { createServer, type PetstoreServer } from '../../../src/server/index.js';
import { openRedisStore, type RedisStore, type RedisStoreOptions } from '../../../src/store/index.js';
import { apiClient, type Api } from '../../helpers/api-client.js';
import { runCli, startServe, waitForOutput } from '../../helpers/cli.js';
import { startRedis, type TestRedis } from '../../helpers/redis.js';

const KEY = 'shared-store-key';
const auth = { authorization: `Bearer ${KEY}` };

interface Instance {
  readonly server: PetstoreServer<RedisStore>;
  readonly url: string;
  readonly origin: string;
  readonly api: Api;
}

async function instance(t: Test, redis: TestRedis, options: Partial<RedisStoreOptions> = {}): Promise<Instance> {
  const store = await openRedisStore({ url: redis.url, maxPets: 10_000, ...options });
  const server = createServer({ store, apiKeys: [KEY], onError: (error) => t.fail(`unexpected error: ${String(error)}`) });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  return { server, url, origin: new URL(url).origin, api: apiClient(t, url, KEY) };
}

const control = async (origin: string, method: string, path: string, json?: unknown) => {
  const res = await request(`${origin}/__control${path}`, {
    method,
    headers: { ...auth, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? null : JSON.stringify(json),
  });
  return { status: res.statusCode, text: await res.body.text() };
};

t.test('two instances share one set of pets: created through one, listed and read through the other', async (t) => {
  const redis = await startRedis(t);
  const a = await instance(t, redis);
  const b = await instance(t, redis);
  const rex = await a.api('/pets', { json: { name: 'Rex', categoryId: 1, status: 'available' } });
  const tom = await b.api('/pets', { json: { name: 'Tom', categoryId: 2 } });
  const luna = await a.api('/pets', { json: { name: 'Luna', categoryId: 9007199254740993n.toString(), status: 'sold' } });
  t.equal(rex.status, 201);
  t.equal(tom.status, 201);
  t.equal(luna.status, 400, 'a categoryId as a string is refused, as in memory');
  t.equal(rex.text, '{"id":1,"name":"Rex","categoryId":1,"status":"available"}');
  t.equal(tom.text, '{"id":2,"name":"Tom","categoryId":2}', 'the next id, whichever instance took it');
  const big = await b.api('/pets', { json: { name: 'Big', categoryId: 1 } });
  t.equal(big.status, 201);
  const exact = await a.api('/pets', {
    body: '{"name":"Exact","categoryId":9007199254740993,"status":"sold"}',
    headers: { 'content-type': 'application/json' },
  });
  t.equal(exact.text, '{"id":4,"name":"Exact","categoryId":9007199254740993,"status":"sold"}', 'int64 digits kept');
  for (const [name, via] of [
    ['a', a],
    ['b', b],
  ] as const) {
    t.equal((await via.api('/pets')).text, `[${rex.text},${tom.text},${big.text},${exact.text}]`, `${name}: every pet, in creation order`);
    t.equal((await via.api('/pets?status=sold')).text, `[${exact.text}]`, `${name}: the status filter`);
    t.equal((await via.api('/pets?limit=2')).text, `[${rex.text},${tom.text}]`, `${name}: the limit`);
    t.equal((await via.api('/pets/2')).text, tom.text, `${name}: getPet`);
    t.equal((await via.api('/pets/5')).status, 404, `${name}: an id not given yet`);
  }
  t.equal(await a.server.store.count(), 4);
});

t.test('the seed is loaded once, by the first instance; a reset through any instance comes back to it', async (t) => {
  const redis = await startRedis(t);
  const seed = [
    { name: 'Rex', categoryId: 1n, status: 'available' as const },
    { name: 'Tom', categoryId: 2n, status: 'sold' as const },
  ];
  const a = await instance(t, redis, { seed });
  const b = await instance(t, redis, { seed });
  t.equal(await b.server.store.count(), 2, 'the second instance did not load it again');
  await a.api('/pets', { json: { name: 'New', categoryId: 3, status: 'sold' } });
  t.equal((await b.api('/pets?status=sold')).body.length, 2);
  const reset = await control(b.origin, 'POST', '/reset');
  t.equal(reset.status, 200);
  t.match(reset.text, /"pets":2/);
  t.equal((await a.api('/pets?status=sold')).text, '[{"id":2,"name":"Tom","categoryId":2,"status":"sold"}]', 'the status index forgot the new pet too');
  t.equal((await a.api('/pets/3')).status, 404);
  const again = await b.api('/pets', { json: { name: 'Again', categoryId: 3 } });
  t.equal(again.body.id, 3, 'ids go on after the seed, as in memory');
});

t.test("a control call on one instance applies to every instance: faults, the clock, the journal's reset", async (t) => {
  const redis = await startRedis(t);
  const a = await instance(t, redis);
  const b = await instance(t, redis);
  await a.api('/pets', { json: { name: 'Rex', categoryId: 1 } });
  t.equal((await control(a.origin, 'PUT', '/faults/listPets', { status: 503, errorRate: 1 })).status, 200);
  const failing = await waitFor(async () => (await request(`${b.url}/pets`, { headers: auth })).statusCode, 503);
  t.equal(failing, 503, 'the fault set through a is felt on b');
  t.equal((await control(b.origin, 'DELETE', '/faults')).status, 204);
  t.equal(await waitFor(async () => (await request(`${a.url}/pets`, { headers: auth })).statusCode, 200), 200, 'and cleared through b, on a');
  t.equal((await control(b.origin, 'PUT', '/clock', { now: '2031-01-01T00:00:00Z' })).status, 200);
  t.equal(
    await waitFor(async () => (await request(`${a.url}/pets/1`, { headers: auth })).statusCode, 410),
    410,
    "b's clock past the sunset: getPet is gone on a",
  );
  await control(a.origin, 'PUT', '/clock', { now: null });
  t.ok(b.server.journal.size > 0, "b's journal holds its requests");
  await control(a.origin, 'POST', '/reset');
  t.equal(await waitFor(async () => b.server.journal.size, 0), 0, "a reset through a empties b's journal too");
  const late = await instance(t, redis);
  await control(a.origin, 'PUT', '/faults/getPet', { latencyMs: 5 });
  await waitFor(async () => Object.keys(late.server.faults.entries()).length, 1);
  const third = await instance(t, redis);
  t.same(third.server.faults.entries(), { getPet: { latencyMs: 5, errorRate: 0, dropRate: 0 } }, 'an instance started later takes up the latest settings');
});

t.test('every id mode works in Redis, and instances of one store must agree on it', async (t) => {
  const redis = await startRedis(t);
  const large = await instance(t, redis, { ids: 'large', prefix: 'large:' });
  const first = await large.api('/pets', { json: { name: 'A', categoryId: 1 } });
  const second = await large.api('/pets', { json: { name: 'B', categoryId: 1 } });
  t.match(first.text, /^\{"id":9007199254740993,/, 'large: from 2^53 + 1');
  t.match(second.text, /^\{"id":9007199254740995,/, 'large: the next odd one');
  t.equal((await large.api('/pets/9007199254740995')).text, second.text);
  const random = await instance(t, redis, { ids: 'random', prefix: 'random:' });
  const ids = new Set<bigint>();
  for (let i = 0; i < 20; i++) {
    const created = await random.api('/pets', { json: { name: `R${i}`, categoryId: 1 } });
    const id = BigInt(/^\{"id":(\d+),/.exec(created.text)?.[1] ?? '0');
    ids.add(id);
    t.equal((await random.api(`/pets/${id}`)).text, created.text, `random: pet ${id} read back exactly`);
  }
  t.equal(ids.size, 20, 'random: distinct');
  t.ok(
    [...ids].some((id) => id > 2n ** 53n),
    'random: spread beyond 2^53',
  );
  await t.rejects(
    openRedisStore({ url: redis.url, maxPets: 10, ids: 'sequential', prefix: 'large:' }),
    /gives ids in large mode; start this instance with --ids large/,
  );
});

t.test('stores under two prefixes on one Redis do not see each other; --max-pets holds across instances', async (t) => {
  const redis = await startRedis(t);
  const blue = await instance(t, redis, { prefix: 'blue:', maxPets: 3 });
  const blue2 = await instance(t, redis, { prefix: 'blue:', maxPets: 3 });
  const green = await instance(t, redis, { prefix: 'green:' });
  for (const via of [blue, blue2, blue]) t.equal((await via.api('/pets', { json: { name: 'P', categoryId: 1 } })).status, 201);
  const full = await blue2.api('/pets', { json: { name: 'Q', categoryId: 1 } });
  t.equal(full.status, 507, 'the fourth is refused on either instance');
  t.equal(full.body.code, 'storage_full');
  t.equal((await green.api('/pets')).text, '[]', 'green holds nothing of blue');
  const bulk = await control(blue.origin, 'POST', '/pets', [{ name: 'X', categoryId: 1 }]);
  t.equal(bulk.status, 507, 'a bulk create that does not fit creates nothing');
  t.equal(await blue.server.store.count(), 3);
  const green2 = await control(green.origin, 'POST', '/pets', [
    { name: 'G1', categoryId: 1, status: 'pending' },
    { name: 'G2', categoryId: 2 },
  ]);
  t.equal(green2.status, 201);
  t.match(green2.text, /"ids":\[1,2\]/);
  t.equal((await green.api('/pets?status=pending')).body[0].name, 'G1');
});

t.test('Redis lost while serving: 503 with an Error body and Retry-After, nothing crashes, and it serves again by itself', async (t) => {
  const redis = await startRedis(t);
  const a = await instance(t, redis);
  await a.api('/pets', { json: { name: 'Rex', categoryId: 1 } });
  await redis.stop();
  for (const [method, path, body] of [
    ['GET', '/pets', undefined],
    ['GET', '/pets/1', undefined],
    ['POST', '/pets', '{"name":"Tom","categoryId":1}'],
  ] as const) {
    const res = await request(`${a.url}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body ?? null });
    const text = await res.body.text();
    t.equal(res.statusCode, 503, `${method} ${path}: 503`);
    t.equal(res.headers['retry-after'], '1');
    t.match(JSON.parse(text), { code: 'store_unavailable', status: 503, message: /shared store/ });
  }
  const state = await control(a.origin, 'GET', '/state');
  t.equal(state.status, 503, 'the control API too');
  t.equal((await request(`${a.url}/pets`)).statusCode, 401, 'what needs no store is answered as ever');
  await redis.start();
  const back = await waitFor(async () => (await request(`${a.url}/pets`, { headers: auth })).statusCode, 200, 10_000);
  t.equal(back, 200, 'serves again once Redis is back (empty: it kept nothing on disk)');
  t.equal((await a.api('/pets', { json: { name: 'Tom', categoryId: 1 } })).status, 201);
  await t.rejects(
    openRedisStore({ url: redis.url, maxPets: 10, ids: 'random' }),
    /gives ids in sequential mode/,
    'the store back from empty has its id mode recorded again: an instance of another mode is refused',
  );
});

t.test('Redis frozen mid-traffic (it keeps its data): creates time out as 503, and no acknowledged create is lost', async (t) => {
  const redis = await startRedis(t);
  const store = await openRedisStore({ url: redis.url, maxPets: 10_000, commandTimeoutMs: 300 });
  const server = createServer({ store, apiKeys: [KEY] });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  const create = async (i: number) => {
    const res = await request(`${url}/pets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `P${i}`, categoryId: i }),
    });
    const text = await res.body.text();
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    if (res.statusCode === 201) acknowledged.push(text);
  };
  const first = Array.from({ length: 50 }, (_, i) => create(i));
  await new Promise((resolve) => setTimeout(resolve, 20));
  redis.pause();
  const during = Array.from({ length: 20 }, (_, i) => create(100 + i));
  await Promise.all([...first, ...during]);
  redis.resume();
  t.same(
    [...statuses.keys()].filter((s) => s !== 201 && s !== 503),
    [],
    `only 201 and 503 (${JSON.stringify([...statuses])})`,
  );
  t.ok((statuses.get(503) ?? 0) > 0, 'the frozen store was answered 503');
  await waitFor(async () => (await request(`${url}/pets`, { headers: auth })).statusCode, 200, 10_000);
  for (const text of acknowledged) {
    const id = /"id":(\d+)/.exec(text)?.[1];
    const got = await request(`${url}/pets/${id}`, { headers: auth });
    t.equal(await got.body.text(), text, `pet ${id}, acknowledged, is there`);
  }
  // Nothing half-made: every listed pet can be read, and every pet held is listed.
  const listed = JSON.parse(await (await request(`${url}/pets?limit=100`, { headers: auth })).body.text()) as { id: number }[];
  t.equal(listed.length, await store.count(), 'the list holds every pet');
  for (const pet of listed) t.equal((await request(`${url}/pets/${pet.id}`, { headers: auth })).statusCode, 200, `listed pet ${pet.id} can be read`);
});

t.test('petstore serve --store: a Redis that cannot be reached is exit 2 with one line; --state is refused beside it', async (t) => {
  const redis = await startRedis(t);
  await redis.stop();
  const unreachable = await runCli(t, ['serve', '--port', '0', '--store', redis.url]);
  t.equal(unreachable.code, 2);
  t.match(unreachable.stderr.trim(), /^petstore: cannot reach the shared store at redis:\/\/127\.0\.0\.1:\d+\/0: .+$/);
  t.notMatch(unreachable.stderr, /\n\s+at /, 'no stack trace');
  const both = await runCli(t, ['serve', '--port', '0', '--store', redis.url, '--state', '/tmp/x.json']);
  t.equal(both.code, 2);
  t.match(both.stderr, /--state keeps an in-memory store in a file/);
  const bad = await runCli(t, ['serve', '--port', '0', '--store', 'mongodb://x']);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /--store must be memory or a Redis URL/);
  await redis.start();
  const served = await startServe(t, ['--store', redis.url, '--store-prefix', 'cli:', '--api-key', KEY]);
  await waitForOutput(served, /store: shared, in Redis at redis:\/\/127\.0\.0\.1:\d+\/0 \(keys cli:\*\)/);
  const created = await request(`${served.url}/pets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":1}',
  });
  t.equal(created.statusCode, 201);
  await created.body.text();
  const fromEnv = await startServe(t, ['--api-key', KEY], { PETSTORE_STORE: redis.url, PETSTORE_STORE_PREFIX: 'cli:' });
  await waitForOutput(fromEnv, /pets: 1; .*\n {2}store: shared, in Redis at redis:\/\/127\.0\.0\.1:\d+\/0 \(keys cli:\*\)/);
  t.pass('PETSTORE_STORE and PETSTORE_STORE_PREFIX stand in for the options: the second instance finds the pet the first created');
});

t.test('startServer({ store: url }) serves from Redis, resets and closes it (the library entry point)', async (t) => {
  const redis = await startRedis(t);
  const seed = [{ name: 'Rex', categoryId: 1n }];
  const one = await startServer({ store: redis.url, storePrefix: 'lib:', seed, apiKeys: [KEY] });
  const two = await startServer({ store: redis.url, storePrefix: 'lib:', seed, apiKeys: [KEY] });
  const created = await request(`${one.url}/pets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: '{"name":"Tom","categoryId":2}',
  });
  t.equal(await created.body.text(), '{"id":2,"name":"Tom","categoryId":2}');
  t.equal(
    await (await request(`${two.url}/pets`, { headers: auth })).body.text(),
    '[{"id":1,"name":"Rex","categoryId":1},{"id":2,"name":"Tom","categoryId":2}]',
  );
  await two.reset();
  t.equal(
    await (await request(`${one.url}/pets`, { headers: auth })).body.text(),
    '[{"id":1,"name":"Rex","categoryId":1}]',
    'reset() resolves once the store is back to its seed',
  );
  await one.close();
  await two.close();
  await t.rejects(startServer({ store: 'memcached://x' }), /the store must be memory or a Redis URL/);
});

/** Polls `read` until it gives `want` (the shared settings travel by pub/sub: milliseconds), or `timeoutMs` passes; answers the last value. */
async function waitFor<T>(read: () => Promise<T>, want: T, timeoutMs = 3000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    let value: T | undefined;
    try {
      value = await read();
    } catch {
      value = undefined;
    }
    if (value === want || Date.now() > until) return value as T;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
