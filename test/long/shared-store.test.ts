// The shared store under load (issue 19), against a real redis-server: two
// instances behind one round-robin address pass the whole conformance suite
// with --strict; thousands of concurrent creates split across them get
// unique ids; Redis stopped and restarted while requests flow costs 503s and
// nothing else.
import t, { type Test } from 'tap';
import { Agent, request } from 'undici';
import { createServer, type PetstoreServer } from '../../src/server/index.js';
import { openRedisStore, type RedisStore } from '../../src/store/index.js';
import { conformJson, describeFailures } from '../helpers/run-conform.js';
import { startRedis, type TestRedis } from '../helpers/redis.js';
import { startRoundRobin } from '../helpers/round-robin.js';

const KEY = 'shared-store-long-key';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

async function instance(t: Test, redis: TestRedis, commandTimeoutMs?: number): Promise<{ server: PetstoreServer<RedisStore>; url: string }> {
  const store = await openRedisStore({ url: redis.url, maxPets: 1_000_000, ...(commandTimeoutMs ? { commandTimeoutMs } : {}) });
  const server = createServer({ store, apiKeys: [KEY], onError: (error) => t.fail(`unexpected error: ${String(error)}`) });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  return { server, url };
}

t.test('petstore conform --strict passes against two instances sharing one Redis behind a round-robin proxy', async (t) => {
  const redis = await startRedis(t);
  const a = await instance(t, redis);
  const b = await instance(t, redis);
  const proxy = await startRoundRobin(t, [a.url, b.url]);
  const { code, result, stderr } = await conformJson(`${proxy.origin}/v1`, KEY, ['--strict']);
  t.equal(code, 0, `exit 0${code === 0 ? '' : `; ${describeFailures(result)} ${stderr}`}`);
  t.strictSame(result.failures, [], describeFailures(result));
  t.ok(result.counts.passed > 0, `${result.counts.passed} checks passed`);
  const [toA, toB] = proxy.counts as [number, number];
  t.ok(toA > 100 && toB > 100 && Math.abs(toA - toB) <= 1, `both instances served the run (${toA} and ${toB} requests)`);
});

t.test('4,000 concurrent creates split across two instances get 4,000 distinct ids, all listed and readable', async (t) => {
  const redis = await startRedis(t);
  const a = await instance(t, redis);
  const b = await instance(t, redis);
  const dispatcher = new Agent({ connections: 32 });
  t.teardown(() => dispatcher.close());
  const CREATES = 4000;
  const ids: bigint[] = [];
  let next = 0;
  const lane = async () => {
    while (next < CREATES) {
      const i = next++;
      const res = await request(`${i % 2 ? a.url : b.url}/pets`, {
        method: 'POST',
        headers,
        dispatcher,
        body: JSON.stringify({ name: `P${i}`, categoryId: i }),
      });
      const text = await res.body.text();
      if (res.statusCode !== 201) t.fail(`create ${i}: ${res.statusCode} ${text}`);
      ids.push(BigInt(/^\{"id":(\d+),/.exec(text)?.[1] ?? '0'));
    }
  };
  await Promise.all(Array.from({ length: 64 }, lane));
  t.equal(new Set(ids).size, CREATES, 'every id distinct');
  t.same(
    [...ids].sort((x, y) => (x < y ? -1 : 1)),
    Array.from({ length: CREATES }, (_, i) => BigInt(i + 1)),
    'the ids are 1..4000, none skipped',
  );
  t.equal(await a.server.store.count(), CREATES);
  const snapshot = JSON.parse((await b.server.store.snapshot()).toString()) as { id: number; categoryId: number; name: string }[];
  t.equal(snapshot.length, CREATES, 'every pet is in the list');
  t.ok(
    snapshot.every((pet) => pet.name === `P${pet.categoryId}`),
    'each pet holds what was sent for it',
  );
});

t.test('Redis stopped and restarted while requests flow: only 503s meanwhile, no crash, and it serves again', async (t) => {
  const redis = await startRedis(t);
  const a = await instance(t, redis, 500);
  const b = await instance(t, redis, 500);
  const statuses = new Map<string, number>();
  let running = true;
  const flow = async (lane: number) => {
    for (let i = 0; running; i++) {
      const url = lane % 2 ? a.url : b.url;
      const [method, path, body] =
        i % 3 === 0 ? ['POST', '/pets', `{"name":"L${lane}-${i}","categoryId":${i}}`] : i % 3 === 1 ? ['GET', '/pets?limit=5', null] : ['GET', '/pets/1', null];
      try {
        const res = await request(`${url}${path}`, { method, headers, body });
        const text = await res.body.text();
        const key = `${method} ${res.statusCode}${res.statusCode >= 500 ? ` ${JSON.parse(text).code}` : ''}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      } catch (error) {
        statuses.set(`transport ${(error as Error).message}`, (statuses.get(`transport ${(error as Error).message}`) ?? 0) + 1);
      }
    }
  };
  const lanes = Array.from({ length: 8 }, (_, lane) => flow(lane));
  await new Promise((resolve) => setTimeout(resolve, 300));
  await redis.stop();
  await new Promise((resolve) => setTimeout(resolve, 700));
  await redis.start();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  running = false;
  await Promise.all(lanes);
  const seen = Object.fromEntries(statuses);
  t.ok(
    [...statuses.keys()].every((key) => /^(POST 201|GET 200|GET 404|(GET|POST) 503 store_unavailable)$/.test(key)),
    `only 200, 201, 404 (a pet forgotten with Redis's data) and 503 store_unavailable: ${JSON.stringify(seen)}`,
  );
  t.ok((statuses.get('POST 503 store_unavailable') ?? 0) + (statuses.get('GET 503 store_unavailable') ?? 0) > 0, 'the outage was answered 503');
  const after = await request(`${a.url}/pets`, { method: 'POST', headers, body: '{"name":"After","categoryId":1}' });
  t.equal(after.statusCode, 201, 'creates again after the restart');
  const text = await after.body.text();
  const id = /"id":(\d+)/.exec(text)?.[1];
  const viaB = await request(`${b.url}/pets/${id}`, { headers });
  t.equal(await viaB.body.text(), text, 'and the other instance reads it');
});
