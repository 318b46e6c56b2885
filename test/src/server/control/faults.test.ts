// Faults injected per operation (PUT /__control/faults/{operationId},
// src/server/control/faults.ts): added latency, an error status for a fraction
// of the requests, a dropped connection; each visible in a Petstore-Fault
// header, only on the named operation, and only after authentication.
import t from 'tap';
import { request } from 'undici';
import { connect, readAll } from '../../../helpers/raw-socket.js';
import { controlClient } from '../../../helpers/control.js';
import { startTestServer } from '../../../helpers/server.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
  /** Milliseconds from sending the request to the end of the answer. */
  readonly ms: number;
}

/** One request to the interface with undici, the body read in full and timed. */
async function hit(baseUrl: string, path: string, options: { key?: string | false; json?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key !== false && options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const res = await request(baseUrl + path, {
    method: options.json === undefined ? 'GET' : 'POST',
    headers,
    body: options.json === undefined ? null : JSON.stringify(options.json),
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined, ms: performance.now() - started };
}

async function start(t: Parameters<typeof startTestServer>[0], options: Parameters<typeof startTestServer>[1] = {}) {
  const s = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n }], ...options });
  const control = controlClient(t, s.url, s.key);
  const get = (path: string, key: string | false = s.key) => hit(s.url, path, { key });
  const post = (json: unknown) => hit(s.url, '/pets', { key: s.key, json });
  const fault = async (operationId: string, body: object) =>
    t.equal((await control('PUT', `/faults/${operationId}`, { json: body })).status, 200, `fault on ${operationId} set`);
  return { ...s, control, get, post, fault };
}

/** A `random` that returns `values` in turn, over and over. */
const sequence = (values: readonly number[]) => {
  let i = 0;
  return () => values[i++ % values.length] as number;
};

t.test('latencyMs delays every answer of the operation by at least that much, which then answers as usual with a Petstore-Fault header', async (t) => {
  const { get, fault } = await start(t);
  await fault('getPet', { latencyMs: 300 });
  for (let i = 0; i < 3; i++) {
    const r = await get('/pets/1');
    t.ok(r.ms >= 300, `answered after ${r.ms.toFixed(0)} ms, at least 300`);
    t.equal(r.status, 200, 'the pet');
    t.equal(r.body.name, 'Rex');
    t.equal(r.headers['petstore-fault'], 'latency=300ms');
  }
});

t.test('status with errorRate 1 answers every request with that status, an Error body of code fault_injected, and a Petstore-Fault header', async (t) => {
  const { get, post, fault, control } = await start(t);
  await fault('listPets', { status: 429, errorRate: 1 });
  await fault('createPet', { status: 503, latencyMs: 50 });
  for (let i = 0; i < 10; i++) {
    const r = await get('/pets');
    t.equal(r.status, 429, `listPets #${i + 1} → 429`);
    t.strictSame(Object.keys(r.body).sort(), ['code', 'message', 'status'], 'an Error body');
    t.equal(r.body.code, 'fault_injected');
    t.equal(r.body.status, 429, "the Error's status is the chosen status");
    t.equal(r.headers['petstore-fault'], 'status=429');
  }
  const created = await post({ name: 'Never', categoryId: 2 });
  t.equal(created.status, 503);
  t.equal(created.body.code, 'fault_injected');
  t.equal(created.headers['petstore-fault'], 'latency=50ms; status=503', 'the header names each fault injected');
  t.ok(created.ms >= 50, 'the latency comes before the error');
  const state = await control('GET', '/state');
  t.equal(state.body.pets.length, 1, 'a createPet answered by a fault created nothing');
});

t.test('errorRate fails that fraction of the requests, drawn from the random source the server was given', async (t) => {
  const { get, fault } = await start(t, { random: sequence([0.1, 0.6, 0.49, 0.5, 0.99]) });
  await fault('getPet', { status: 500, errorRate: 0.5 });
  const statuses = [];
  for (let i = 0; i < 10; i++) statuses.push((await get('/pets/1')).status);
  t.strictSame(statuses, [500, 200, 500, 200, 200, 500, 200, 500, 200, 200], 'a draw below the rate fails, one at or above it does not');
});

t.test('errorRate 0.3 over 100 evenly spread draws fails exactly 30 requests, and the others carry no fault header', async (t) => {
  const { get, fault } = await start(t, { random: sequence(Array.from({ length: 100 }, (_, i) => i / 100)) });
  await fault('listPets', { status: 503, errorRate: 0.3 });
  let failed = 0;
  for (let i = 0; i < 100; i++) {
    const r = await get('/pets');
    if (r.status === 503) failed++;
    else if (r.headers['petstore-fault'] !== undefined) t.fail(`a request that was not failed says ${r.headers['petstore-fault']}`);
  }
  t.equal(failed, 30);
});

t.test('dropRate 1 closes the connection without an answer, and the server goes on serving other requests', async (t) => {
  const { url, key, get, fault, control } = await start(t);
  await fault('getPet', { dropRate: 1 });
  await t.rejects(request(`${url}/pets/1`, { headers: { authorization: `Bearer ${key}` } }), 'undici sees the connection closed under its request');
  const { host, pathname } = new URL(url);
  const socket = await connect(url);
  const received = readAll(socket);
  socket.write(`GET ${pathname}/pets/1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  t.equal(await received, '', 'a raw socket reads end-of-stream and not one byte');
  t.equal((await get('/pets')).status, 200, 'listPets is still served');
  t.equal((await control('DELETE', '/faults/getPet')).status, 204);
  t.equal((await get('/pets/1')).status, 200, 'getPet is served again once the fault is removed');
});

t.test('dropRate fractions drop only the requests whose draw falls below the rate', async (t) => {
  const { url, key, fault } = await start(t, { random: sequence([0.2, 0.8]) });
  await fault('listPets', { dropRate: 0.5 });
  const outcomes = [];
  for (let i = 0; i < 4; i++) {
    outcomes.push(
      await request(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } }).then(
        async (r) => {
          await r.body.text();
          return r.statusCode;
        },
        () => 'dropped',
      ),
    );
  }
  t.strictSame(outcomes, ['dropped', 200, 'dropped', 200]);
});

t.test('a fault applies only to the operation it names', async (t) => {
  const { get, post, fault } = await start(t);
  await fault('getPet', { status: 500, latencyMs: 10 });
  const list = await get('/pets');
  t.equal(list.status, 200, 'listPets');
  t.equal(list.headers['petstore-fault'], undefined, 'listPets has no fault header');
  const created = await post({ name: 'Tom', categoryId: 2 });
  t.equal(created.status, 201, 'createPet');
  t.equal(created.headers['petstore-fault'], undefined, 'createPet has no fault header');
  t.equal((await get('/pets/1')).status, 500, 'getPet is failed');
});

t.test('faults apply after authentication: a request without a valid key gets 401, no fault header, no delay and no drop', async (t) => {
  const { get, fault } = await start(t);
  await fault('listPets', { status: 503, latencyMs: 1000 });
  await fault('getPet', { dropRate: 1 });
  for (const [path, key] of [
    ['/pets', false],
    ['/pets', 'wrong-key'],
    ['/pets/1', false],
  ] as const) {
    const r = await get(path, key);
    t.equal(r.status, 401, `${path} with ${key || 'no key'} → 401, not dropped`);
    t.equal(r.body.code, 'unauthorized');
    t.equal(r.headers['petstore-fault'], undefined, 'no Petstore-Fault header');
    t.ok(r.ms < 1000, `answered in ${r.ms.toFixed(0)} ms, without the injected latency`);
  }
});

t.test('faults do not touch what is not an operation: unknown paths, refused methods and the control API', async (t) => {
  const { url, key, get, fault, control } = await start(t);
  for (const operationId of ['listPets', 'createPet', 'getPet']) await fault(operationId, { status: 503 });
  const unknown = await get('/nope');
  t.equal(unknown.status, 404, 'an unknown path');
  t.equal(unknown.headers['petstore-fault'], undefined);
  const res = await request(`${url}/pets`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
  await res.body.text();
  t.equal(res.statusCode, 405, 'a method the path does not have');
  t.equal(res.headers['petstore-fault'], undefined);
  const state = await control('GET', '/state');
  t.equal(state.status, 200, 'the control API');
  t.equal(state.headers['petstore-fault'], undefined);
});
