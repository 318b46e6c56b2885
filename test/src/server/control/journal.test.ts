// The request journal (src/server/control/journal.ts, GET/DELETE
// /__control/journal): the latest requests to the interface, oldest first,
// each with method, target, status, latency, Error code and fault; a ring
// buffer of --journal-size / limits.journalSize entries.
import t from 'tap';
import { request } from 'undici';
import { startServe } from '../../../helpers/cli.js';
import { controlClient, type Control } from '../../../helpers/control.js';
import { startTestServer } from '../../../helpers/server.js';

const KEY = 'journal-test-key-5e1d';

async function start(t: Parameters<typeof startTestServer>[0], options: Parameters<typeof startTestServer>[1] = {}) {
  const s = await startTestServer(t, { apiKeys: [KEY], seed: [{ name: 'Rex', categoryId: 1n }], ...options });
  return { ...s, control: controlClient(t, s.url, s.key) };
}

/** A request to the interface, its answer read and thrown away; resolves with the status. */
async function send(baseUrl: string, path: string, options: { method?: string; key?: string | false; json?: unknown } = {}): Promise<number> {
  const headers: Record<string, string> = {};
  if (options.key !== false) headers['authorization'] = `Bearer ${options.key ?? KEY}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await request(baseUrl + path, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers,
    body: options.json === undefined ? null : JSON.stringify(options.json),
  });
  await res.body.text();
  return res.statusCode;
}

interface Entry {
  at: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  code?: string;
  fault?: string;
}

async function journal(control: Control, query = ''): Promise<Entry[]> {
  const r = await control('GET', `/journal${query}`);
  if (r.status !== 200) throw new Error(`GET /journal${query} → ${r.status} ${r.text}`);
  return r.body as Entry[];
}

/** The journal once it holds `count` entries (a dropped connection is journaled when its socket has closed). */
async function journalOf(control: Control, count: number): Promise<Entry[]> {
  for (let i = 0; i < 100; i++) {
    const entries = await journal(control);
    if (entries.length >= count) return entries;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the journal never held ${count} entries`);
}

const brief = (e: Entry) => [e.method, e.path, e.status, e.code ?? null];

t.test('the journal holds the interface requests in order, with method, target and query, status and Error code; never a control request', async (t) => {
  const { url, control } = await start(t, { now: new Date('2029-03-04T05:06:07Z') });
  await send(url, '/pets?status=sold&limit=5');
  await control('GET', '/state');
  await send(url, '/pets', { json: { name: 'Tom', categoryId: 2 } });
  await send(url, '/pets/999');
  await control('GET', '/journal');
  await send(url, '/pets', { key: false });
  await send(url, '/pets', { method: 'DELETE' });
  await send(url, '/nope?x=1');
  await send(url, '/pets?limit=0');
  const entries = await journal(control);
  t.strictSame(entries.map(brief), [
    ['GET', '/v1/pets?status=sold&limit=5', 200, null],
    ['POST', '/v1/pets', 201, null],
    ['GET', '/v1/pets/999', 404, 'pet_not_found'],
    ['GET', '/v1/pets', 401, 'unauthorized'],
    ['DELETE', '/v1/pets', 405, 'method_not_allowed'],
    ['GET', '/v1/nope?x=1', 404, 'route_not_found'],
    ['GET', '/v1/pets?limit=0', 400, 'invalid_parameter'],
  ]);
  for (const e of entries) {
    t.ok(e.latencyMs >= 0 && e.latencyMs < 5_000, `${e.method} ${e.path}: latencyMs ${e.latencyMs}`);
    t.ok(e.at.startsWith('2029-03-04T05:06:'), `${e.method} ${e.path}: at ${e.at} is by the server clock`);
    t.notOk('fault' in e, 'no fault');
  }
  t.strictSame(
    entries.map((e) => e.at),
    entries.map((e) => e.at).sort(),
    'oldest first',
  );
  t.equal((await control('GET', '/state')).body.journal, 7, 'the state counts the journal entries');
});

t.test('the journal describes each injected fault; a dropped connection is journaled with status 0', async (t) => {
  const { url, control } = await start(t);
  await control('PUT', '/faults/listPets', { json: { latencyMs: 40 } });
  await control('PUT', '/faults/createPet', { json: { status: 502 } });
  await control('PUT', '/faults/getPet', { json: { dropRate: 1 } });
  await send(url, '/pets');
  await send(url, '/pets', { json: { name: 'Tom', categoryId: 2 } });
  await t.rejects(send(url, '/pets/1'), 'the getPet connection is dropped');
  const [slow, failed, dropped] = await journalOf(control, 3);
  t.match(slow, { method: 'GET', path: '/v1/pets', status: 200, fault: 'latency=40ms' });
  t.ok(slow!.latencyMs >= 40, `its latency (${slow!.latencyMs} ms) includes the injected 40 ms`);
  t.match(failed, { method: 'POST', path: '/v1/pets', status: 502, code: 'fault_injected', fault: 'status=502' });
  t.match(dropped, { method: 'GET', path: '/v1/pets/1', status: 0, fault: 'drop' });
  t.notOk('code' in dropped!, 'a dropped request has no Error code: nothing was answered');
});

t.test('the journal keeps only the latest limits.journalSize requests', async (t) => {
  const { url, control } = await start(t, { limits: { journalSize: 3 } });
  for (let i = 1; i <= 7; i++) await send(url, `/pets?limit=${i}`);
  t.strictSame(
    (await journal(control)).map((e) => e.path),
    ['/v1/pets?limit=5', '/v1/pets?limit=6', '/v1/pets?limit=7'],
  );
  t.equal((await control('GET', '/state')).body.journal, 3);
});

t.test('GET /journal?limit=N gives the latest N, oldest first; a limit that is not a positive integer answers 400', async (t) => {
  const { url, control } = await start(t);
  for (let i = 1; i <= 5; i++) await send(url, `/pets?limit=${i}`);
  t.strictSame(
    (await journal(control, '?limit=2')).map((e) => e.path),
    ['/v1/pets?limit=4', '/v1/pets?limit=5'],
  );
  t.strictSame(
    (await journal(control, '?limit=1')).map((e) => e.path),
    ['/v1/pets?limit=5'],
  );
  t.equal((await journal(control, '?limit=50')).length, 5, 'a limit above the count gives them all');
  for (const limit of ['0', '-1', 'abc', '1.5', '']) {
    const r = await control('GET', `/journal?limit=${limit}`);
    t.equal(r.status, 400, `limit=${limit} → 400`);
    t.equal(r.body.code, 'invalid_parameter');
  }
});

t.test('DELETE /journal empties it; later requests are journaled from there', async (t) => {
  const { url, control } = await start(t);
  await send(url, '/pets');
  await send(url, '/pets/1');
  t.equal((await control('DELETE', '/journal')).status, 204);
  t.strictSame(await journal(control), []);
  await send(url, '/pets/1');
  t.strictSame((await journal(control)).map(brief), [['GET', '/v1/pets/1', 200, null]]);
});

t.test('the journal never holds the API key', async (t) => {
  const { url, control } = await start(t);
  await send(url, '/pets');
  await send(url, '/pets', { key: `${KEY}-wrong` });
  const r = await control('GET', '/journal');
  t.equal(r.body.length, 2);
  t.notMatch(r.text, KEY);
});

t.test('with a journal size of 0 nothing is journaled and GET /journal answers an empty list', async (t) => {
  const { url, control } = await start(t, { limits: { journalSize: 0 } });
  await send(url, '/pets');
  const r = await control('GET', '/journal');
  t.equal(r.status, 200);
  t.strictSame(r.body, []);
  t.equal((await control('GET', '/state')).body.journal, 0);
});

t.test('petstore serve --journal-size 2 keeps the latest two requests', async (t) => {
  const cli = await startServe(t, ['--journal-size', '2', '--quiet']);
  const control = controlClient(t, cli.url, 'petstore-dev-key');
  for (const path of ['/pets?limit=1', '/pets?limit=2', '/pets?limit=3']) await send(cli.url, path, { key: 'petstore-dev-key' });
  t.strictSame(
    (await journal(control)).map((e) => e.path),
    ['/v1/pets?limit=2', '/v1/pets?limit=3'],
  );
});

t.test('select() gives the entries of one operation and from one id on, oldest first, as latest() shows them', async (t) => {
  const { url, server } = await start(t);
  await send(url, '/pets?limit=1');
  await send(url, '/pets/1');
  await send(url, '/pets?limit=2');
  await send(url, '/nowhere');
  await send(url, '/pets?limit=3');
  const paths = (entries: { path: string }[]) => entries.map((e) => e.path);
  t.strictSame(paths(server.journal.select({ operation: 'listPets' })), ['/v1/pets?limit=1', '/v1/pets?limit=2', '/v1/pets?limit=3']);
  t.strictSame(paths(server.journal.select({ operation: 'listPets', since: 2 })), ['/v1/pets?limit=2', '/v1/pets?limit=3']);
  t.strictSame(paths(server.journal.select({ since: 4 })), ['/v1/nowhere', '/v1/pets?limit=3'], 'a request routed to no operation has an id too');
  t.strictSame(paths(server.journal.select({ operation: 'getPet' })), ['/v1/pets/1']);
  t.strictSame(server.journal.select(), server.journal.latest(), 'with no query, every entry');
  t.strictSame(server.journal.select({ operation: 'createPet' }), []);
});
