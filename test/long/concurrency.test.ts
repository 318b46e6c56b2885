// Concurrency: 10,000 creates over 100 concurrent connections give 10,000
// distinct ids, every pet retrievable exactly as its 201 answered it, and
// every pet listed. The interface pages only the first `limit` (at most 100)
// matches, so "every pet listed" is read from the control API's state
// (GET /__control/state, every pet in id order); the interface's own lists
// must hold the first 100 matches of each filter.
import t from 'tap';
import { Pool } from 'undici';
import { startTestServer } from '../helpers/server.js';

const CREATES = 10_000;
const CONNECTIONS = 100;
const STATUSES = ['available', 'pending', 'sold', undefined] as const;

t.test(`${CREATES} creates from ${CONNECTIONS} concurrent connections: distinct ids, all retrievable, all listed`, async (t) => {
  const { url, key, server } = await startTestServer(t);
  const origin = new URL(url).origin;
  const base = new URL(url).pathname;
  let connections = 0;
  server.http.on('connection', () => connections++);
  const pool = new Pool(origin, { connections: CONNECTIONS, pipelining: 1 });
  t.teardown(() => pool.close());
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  /** Runs `task(0..count-1)` with at most CONNECTIONS in flight. */
  async function inParallel(count: number, task: (i: number) => Promise<void>): Promise<void> {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (next < count) await task(next++);
      }),
    );
  }

  // Each create sends an int64 categoryId beyond 2^53 and a status (or none).
  const sent: string[] = [];
  const created: { status: number; text: string }[] = [];
  const started = Date.now();
  await inParallel(CREATES, async (i) => {
    const status = STATUSES[i % STATUSES.length];
    const body = `{"name":"pet-${i}","categoryId":${9007199254740993n + BigInt(i)}${status ? `,"status":"${status}"` : ''}}`;
    sent[i] = body;
    const res = await pool.request({ path: `${base}/pets`, method: 'POST', headers, body });
    created[i] = { status: res.statusCode, text: await res.body.text() };
  });
  t.comment(`${CREATES} creates in ${Date.now() - started} ms over ${connections} connections`);
  t.equal(connections, CONNECTIONS, `the server saw ${CONNECTIONS} connections`);
  t.equal(created.filter((c) => c.status === 201).length, CREATES, 'every create answered 201');

  const ids = created.map((c) => Number(/^\{"id":(\d+),/.exec(c.text)?.[1]));
  t.equal(new Set(ids).size, CREATES, `${CREATES} distinct ids`);
  t.strictSame(
    [...ids].sort((a, b) => a - b),
    Array.from({ length: CREATES }, (_, i) => i + 1),
    `exactly 1..${CREATES}`,
  );
  const echoed = created.filter((c, i) => c.text !== (sent[i] as string).replace(/^\{/, `{"id":${ids[i]},`));
  t.strictSame(echoed.slice(0, 3), [], 'each 201 echoes exactly what was sent, int64 digits included');

  // Every pet is retrievable, exactly as created.
  const byId = new Map(created.map((c, i) => [ids[i] as number, c.text]));
  const differing: string[] = [];
  await inParallel(CREATES, async (i) => {
    const id = i + 1;
    const res = await pool.request({ path: `${base}/pets/${id}`, method: 'GET', headers });
    const text = await res.body.text();
    if (res.statusCode !== 200 || text !== byId.get(id)) differing.push(`${id}: ${res.statusCode} ${text.slice(0, 80)}`);
  });
  t.strictSame(differing.slice(0, 5), [], `all ${CREATES} pets are retrievable, each as its 201 answered it`);

  // Every pet is listed: the whole state holds exactly these pets, in id order.
  const state = await pool.request({ path: '/__control/state', method: 'GET', headers });
  const stateText = await state.body.text();
  t.equal(state.statusCode, 200);
  const expected = `[${Array.from({ length: CREATES }, (_, i) => byId.get(i + 1)).join(',')}]`;
  t.ok(stateText.endsWith(`"pets":${expected}}`), 'GET /__control/state lists every pet, once, in id order, as created');

  // The interface's lists: the first 100 matches of each filter, ascending.
  const idsWith = (status: string | undefined) => ids.filter((_, i) => STATUSES[i % STATUSES.length] === status).sort((a, b) => a - b);
  for (const status of ['available', 'pending', 'sold'] as const) {
    const res = await pool.request({ path: `${base}/pets?status=${status}&limit=100`, method: 'GET', headers });
    const listed = [...(await res.body.text()).matchAll(/"id":(\d+),/g)].map((m) => Number(m[1]));
    t.strictSame(listed, idsWith(status).slice(0, 100), `status=${status}&limit=100: the first 100 ${status} pets`);
  }
  const all = await pool.request({ path: `${base}/pets?limit=100`, method: 'GET', headers });
  t.equal(await all.body.text(), `[${Array.from({ length: 100 }, (_, i) => byId.get(i + 1)).join(',')}]`, 'limit=100: pets 1..100');
  t.equal(server.store.size, CREATES, `the store holds ${CREATES} pets`);
});
