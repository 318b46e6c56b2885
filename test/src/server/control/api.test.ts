// The control API (src/server/control/api.ts, spec/control-openapi.ts):
// every route answers as the README and its own OpenAPI document say, behind
// the interface's API keys, and is absent with `control: false` / --no-control.
// Every answer goes through test/helpers/control.ts, which validates its body
// against the control spec's response schema.
import { once } from 'node:events';
import t from 'tap';
import { controlOpenapi } from '../../../../spec/control-openapi.js';
import { apiClient } from '../../../helpers/api-client.js';
import { startServe } from '../../../helpers/cli.js';
import { controlClient, controlRoutes, type ControlResponse } from '../../../helpers/control.js';
import { startTestServer } from '../../../helpers/server.js';

const SUNSET = new Date('2030-12-05T00:00:00Z');
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const seed = [
  { name: 'Rex', categoryId: 9007199254740993n, status: 'available' as const },
  { name: 'Tom', categoryId: INT64_MIN },
];

async function start(t: Parameters<typeof startTestServer>[0], options: Parameters<typeof startTestServer>[1] = {}) {
  const s = await startTestServer(t, { seed, ...options });
  return { ...s, control: controlClient(t, s.url, s.key) };
}

/** The ids of a state's pets, as numbers. */
const ids = (r: ControlResponse): number[] => (r.body.pets as { id: number }[]).map((p) => p.id);
/** A concrete path for a spec template. */
const concrete = (template: string) => template.replace('{operationId}', 'listPets');

t.test('GET /state holds every pet exactly (int64 categoryId digits included), the clock, the faults and the journal size', async (t) => {
  const { api, control } = await start(t, { now: new Date('2029-01-01T00:00:00Z') });
  const created = await api('/pets', { body: `{"name":"Max","categoryId":${INT64_MAX},"status":"sold"}`, headers: { 'content-type': 'application/json' } });
  t.equal(created.status, 201);
  await control('PUT', '/faults/getPet', { json: { latencyMs: 1 } });
  const r = await control('GET', '/state');
  t.equal(r.status, 200);
  t.strictSame(
    (r.value as { pets: unknown }).pets,
    [
      { id: 1n, name: 'Rex', categoryId: 9007199254740993n, status: 'available' },
      { id: 2n, name: 'Tom', categoryId: INT64_MIN },
      { id: 3n, name: 'Max', categoryId: INT64_MAX, status: 'sold' },
    ],
    'every pet, in id order, each exactly as stored',
  );
  t.match(r.text, /"categoryId":9007199254740993[,}]/, 'the digits past 2^53 are in the text');
  t.match(r.text, /"categoryId":-9223372036854775808[,}]/);
  t.match(r.text, /"categoryId":9223372036854775807[,}]/);
  t.ok(Math.abs(Date.parse(r.body.clock) - Date.parse('2029-01-01T00:00:00Z')) < 10_000, `the server clock: ${r.body.clock}`);
  t.strictSame(r.body.faults, { getPet: { latencyMs: 1, errorRate: 0, dropRate: 0 } }, 'the faults in force');
  t.equal(r.body.journal, 1, 'one interface request journaled; control requests are not');
});

t.test('POST /reset returns to the seed (ids start again after it), clears faults and journal, and leaves the clock alone', async (t) => {
  const { api, control } = await start(t);
  await api('/pets', { json: { name: 'Extra', categoryId: 5 } });
  await control('PUT', '/clock', { json: { now: '2031-06-01T00:00:00Z' } });
  await control('PUT', '/faults/listPets', { json: { latencyMs: 5 } });
  const r = await control('POST', '/reset');
  t.equal(r.status, 200);
  t.equal(r.body.pets, 2, 'the seed pets');
  t.ok(r.body.clock.startsWith('2031-06-01T00:00:0'), `the clock is where it was set: ${r.body.clock}`);
  const state = await control('GET', '/state');
  t.strictSame(ids(state), [1, 2]);
  t.strictSame(state.body.faults, {}, 'no faults');
  t.equal(state.body.journal, 0, 'an empty journal');
  t.ok(state.body.clock.startsWith('2031-06-01T00:00:0'), 'the clock has not gone back');
  t.equal((await api('/pets', { json: { name: 'Next', categoryId: 1 } })).body.id, 3, 'the next pet gets the id after the seed');
});

t.test('POST /pets creates the pets in order and answers created, firstId, lastId, the new total and the ids', async (t) => {
  const { api, control } = await start(t);
  const r = await control('POST', '/pets', {
    jsonText: `[{"name":"A","categoryId":1},{"name":"B","categoryId":${INT64_MAX},"status":"pending"},{"id":99,"name":"C","categoryId":3}]`,
  });
  t.equal(r.status, 201);
  t.strictSame(r.value, { created: 3n, firstId: 3n, lastId: 5n, pets: 5n, ids: [3n, 4n, 5n] });
  const all = await api('/pets?limit=100');
  t.strictSame(
    all.body.map((p: { id: number; name: string }) => [p.id, p.name]),
    [
      [1, 'Rex'],
      [2, 'Tom'],
      [3, 'A'],
      [4, 'B'],
      [5, 'C'],
    ],
    'created in the order sent; an id in an entry is ignored',
  );
  t.match(all.text, /"id":4,"name":"B","categoryId":9223372036854775807,"status":"pending"/, 'int64 digits survive the bulk load');
});

t.test('POST /pets with an empty array creates nothing and answers no firstId or lastId', async (t) => {
  const { control } = await start(t);
  const r = await control('POST', '/pets', { json: [] });
  t.equal(r.status, 201);
  t.strictSame(r.value, { created: 0n, pets: 2n, ids: [] });
});

t.test('POST /pets refuses anything but a JSON array of NewPet with 400 (or 415) and creates nothing', async (t) => {
  const { control } = await start(t);
  const cases: [string, { json?: unknown; jsonText?: string; body?: string; headers?: Record<string, string> }, number, string][] = [
    ['an object', { json: { name: 'A', categoryId: 1 } }, 400, 'invalid_body'],
    ['a string', { json: 'pets' }, 400, 'invalid_body'],
    ['null', { jsonText: 'null' }, 400, 'invalid_body'],
    ['an invalid NewPet last', { json: [{ name: 'A', categoryId: 1 }, { name: 'B', categoryId: 2 }, { name: 'C' }] }, 400, 'invalid_body'],
    ['a fractional categoryId', { json: [{ name: 'A', categoryId: 1.5 }] }, 400, 'invalid_body'],
    ['a categoryId past int64', { jsonText: '[{"name":"A","categoryId":9223372036854775808}]' }, 400, 'invalid_body'],
    ['a status outside PetStatus', { json: [{ name: 'A', categoryId: 1, status: 'lost' }] }, 400, 'invalid_body'],
    ['malformed JSON', { jsonText: '[{"name":"A",' }, 400, 'malformed_json'],
    ['no body', {}, 400, 'invalid_body'],
    ['text/plain', { body: '[]', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
  ];
  for (const [what, options, status, code] of cases) {
    const r = await control('POST', '/pets', options);
    t.equal(r.status, status, `${what} → ${status}`);
    t.equal(r.body?.code, code, `${what}: ${code}`);
  }
  t.strictSame(ids(await control('GET', '/state')), [1, 2], 'not one pet was created');
});

t.test('POST /pets past the store capacity answers 507 storage_full and creates none of them', async (t) => {
  const { control } = await start(t, { limits: { maxPets: 4 } });
  const r = await control('POST', '/pets', { json: [1, 2, 3].map((n) => ({ name: `P${n}`, categoryId: n })) });
  t.equal(r.status, 507);
  t.equal(r.body.code, 'storage_full');
  t.strictSame(ids(await control('GET', '/state')), [1, 2], 'nothing was created');
  const fits = await control('POST', '/pets', { json: [1, 2].map((n) => ({ name: `P${n}`, categoryId: n })) });
  t.equal(fits.status, 201, 'a load that fits exactly is accepted');
  t.strictSame(fits.value, { created: 2n, firstId: 3n, lastId: 4n, pets: 4n, ids: [3n, 4n] });
});

t.test('PUT /clock moves the Date header and, past the sunset, getPet answers 410; null goes back to the real time', async (t) => {
  const { api, control } = await start(t);
  t.equal((await api('/pets/1')).status, 200, 'getPet works today');
  const moved = await control('PUT', '/clock', { json: { now: SUNSET.toISOString() } });
  t.equal(moved.status, 200);
  t.ok(moved.body.clock.startsWith('2030-12-05T00:00:0'), `the answer gives the new clock: ${moved.body.clock}`);
  t.equal(moved.body.pets, 2);
  t.match(moved.headers['date'], /^Thu, 05 Dec 2030 00:00:0\d GMT$/, 'the control answer itself is dated by the moved clock');
  const gone = await api('/pets/1');
  t.equal(gone.status, 410, 'getPet has passed its sunset');
  t.equal(gone.body.code, 'gone');
  t.match(gone.headers['date'], /^Thu, 05 Dec 2030 00:00:0\d GMT$/, 'the interface answers are dated by the moved clock');
  const back = await control('PUT', '/clock', { json: { now: null } });
  t.equal(back.status, 200);
  t.ok(Math.abs(Date.parse(back.body.clock) - Date.now()) < 5_000, `real time again: ${back.body.clock}`);
  const again = await api('/pets/1');
  t.equal(again.status, 200, 'getPet works again');
  t.ok(Math.abs(Date.parse(String(again.headers['date'])) - Date.now()) < 5_000, 'the Date header is the real time');
});

t.test('PUT /clock refuses a body that is not an ISO 8601 instant with an offset, or null, with 400 invalid_body and leaves the clock', async (t) => {
  const { control } = await start(t, { now: new Date('2029-01-01T00:00:00Z') });
  const bodies: [string, unknown][] = [
    ['a word', { now: 'tomorrow' }],
    ['a number', { now: 1924992000000 }],
    ['no now', {}],
    ['an unknown property', { now: null, speed: 2 }],
    ['an impossible date (30 February)', { now: '2031-02-30T00:00:00Z' }],
    ['hour 24', { now: '2031-01-01T24:00:00Z' }],
    ['a time without an offset (it would depend on the local zone)', { now: '2031-01-01T00:00:00' }],
  ];
  for (const [what, json] of bodies) {
    const r = await control('PUT', '/clock', { json });
    t.equal(r.status, 400, `${what} → 400`);
    t.equal(r.body?.code, 'invalid_body', what);
  }
  const state = await control('GET', '/state');
  t.ok(state.body.clock.startsWith('2029-01-01T00:00:'), `the clock has not moved: ${state.body.clock}`);
  const offset = await control('PUT', '/clock', { json: { now: '2031-01-01T02:00:00+02:00' } });
  t.equal(offset.status, 200, 'an instant with an offset is accepted');
  t.ok(offset.body.clock.startsWith('2031-01-01T00:00:0'), `and read in its zone: ${offset.body.clock}`);
});

t.test('the faults routes set, list and remove faults per operation of the interface', async (t) => {
  const { control } = await start(t);
  const set = await control('PUT', '/faults/getPet', { json: { latencyMs: 200, status: 503, errorRate: 0.5, dropRate: 0.1 } });
  t.equal(set.status, 200);
  t.strictSame(set.body, { latencyMs: 200, status: 503, errorRate: 0.5, dropRate: 0.1 }, 'the fault now in force');
  const alone = await control('PUT', '/faults/createPet', { json: { status: 500 } });
  t.strictSame(alone.body, { latencyMs: 0, status: 500, errorRate: 1, dropRate: 0 }, 'a status given alone fails every request');
  const rateOnly = await control('PUT', '/faults/listPets', { json: { errorRate: 0.25 } });
  t.strictSame(rateOnly.body, { latencyMs: 0, status: 503, errorRate: 0.25, dropRate: 0 }, 'an errorRate without a status fails with 503');
  t.strictSame(Object.keys((await control('GET', '/faults')).body).sort(), ['createPet', 'getPet', 'listPets']);
  const replaced = await control('PUT', '/faults/getPet', { json: { latencyMs: 10 } });
  t.strictSame(replaced.body, { latencyMs: 10, errorRate: 0, dropRate: 0 }, 'a PUT replaces the fault');
  t.equal((await control('DELETE', '/faults/createPet')).status, 204, 'one fault removed');
  t.strictSame((await control('GET', '/faults')).body, { getPet: { latencyMs: 10, errorRate: 0, dropRate: 0 }, listPets: rateOnly.body });
  const again = await control('DELETE', '/faults/createPet');
  t.equal(again.status, 404, 'removing a fault that is not there → 404');
  t.equal(again.body.code, 'route_not_found');
  t.equal((await control('DELETE', '/faults')).status, 204, 'every fault removed');
  t.strictSame((await control('GET', '/faults')).body, {});
});

t.test('PUT /faults/{operationId} answers 404 for an operation the interface does not have and 400 for an invalid fault, setting nothing', async (t) => {
  const { control } = await start(t);
  const unknown = await control('PUT', '/faults/deletePet', { json: { latencyMs: 10 } });
  t.equal(unknown.status, 404);
  t.equal(unknown.body.code, 'route_not_found');
  t.match(unknown.body.message, /listPets, createPet, getPet/, 'the message names the operations that exist');
  const invalid: [string, unknown][] = [
    ['an unknown property', { latency: 10 }],
    ['a negative latency', { latencyMs: -1 }],
    ['a latency over a minute', { latencyMs: 60_001 }],
    ['a fractional latency', { latencyMs: 1.5 }],
    ['a 2xx status', { status: 200 }],
    ['an errorRate over 1', { errorRate: 1.5 }],
    ['a negative dropRate', { dropRate: -0.1 }],
    ['not an object', [{ latencyMs: 1 }]],
  ];
  for (const [what, json] of invalid) {
    const r = await control('PUT', '/faults/listPets', { json });
    t.equal(r.status, 400, `${what} → 400`);
    t.equal(r.body?.code, 'invalid_body', what);
  }
  t.strictSame((await control('GET', '/faults')).body, {}, 'no fault was set');
});

t.test('every control route answers 401 with an Error body and a challenge without a key or with a wrong one, and does nothing', async (t) => {
  const { control } = await start(t);
  await control('PUT', '/faults/getPet', { json: { latencyMs: 1 } });
  t.ok(controlRoutes.length >= 10, `${controlRoutes.length} routes in the spec`);
  for (const [method, template] of controlRoutes) {
    for (const auth of [false, 'Bearer wrong-key', 'Basic cGV0c3RvcmUtZGV2LWtleQ=='] as const) {
      const r = await control(method, concrete(template), { auth, json: method === 'GET' || method === 'DELETE' ? undefined : [] });
      t.equal(r.status, 401, `${method} ${template} with ${auth || 'no key'} → 401`);
      t.equal(r.body?.code, 'unauthorized');
      t.match(r.headers['www-authenticate'], /^Bearer /, 'a Bearer challenge');
    }
  }
  const r = await control('GET', '/openapi.json', { auth: false });
  t.equal(r.status, 401, 'the control document too');
  const state = await control('GET', '/state');
  t.strictSame(ids(state), [1, 2], 'nothing was reset or loaded');
  t.strictSame(Object.keys(state.body.faults), ['getPet'], 'no fault was removed');
});

t.test('a method a control path does not have answers 405 with an Allow header listing the ones it has', async (t) => {
  const { control } = await start(t);
  const templates = [...new Set(controlRoutes.map(([, template]) => template))];
  for (const template of templates) {
    const declared = controlRoutes.filter(([, p]) => p === template).map(([m]) => m);
    // As on the interface, a path with GET also answers HEAD.
    const allowed = declared.includes('GET') ? [...declared, 'HEAD'] : declared;
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !declared.includes(m))) {
      const r = await control(method, concrete(template));
      t.equal(r.status, 405, `${method} ${template} → 405`);
      t.equal(r.body?.code, 'method_not_allowed');
      const allow = String(r.headers['allow']).split(', ');
      t.strictSame(allow.filter((m) => m !== 'OPTIONS').sort(), [...allowed].sort(), `${template}: Allow ${r.headers['allow']}`);
    }
  }
});

t.test('GET /__control/openapi.json serves spec/control-openapi.ts', async (t) => {
  const { control } = await start(t);
  const r = await control('GET', '/openapi.json');
  t.equal(r.status, 200);
  t.strictSame(r.body, JSON.parse(JSON.stringify(controlOpenapi)));
});

t.test('an unknown path under /__control answers 404 route_not_found', async (t) => {
  const { control } = await start(t);
  for (const path of ['', '/', '/nope', '/faults/getPet/extra', '/State']) {
    const r = await control('GET', path);
    t.equal(r.status, 404, `/__control${path} → 404`);
    t.equal(r.body?.code, 'route_not_found');
  }
});

t.test('with control: false every /__control path answers 404 route_not_found like any unknown path, and the interface still works', async (t) => {
  const { api, control } = await start(t, { control: false });
  for (const [method, template] of [...controlRoutes, ['GET', '/openapi.json'] as const]) {
    const r = await control(method, concrete(template), { json: method === 'GET' || method === 'DELETE' ? undefined : [] });
    t.equal(r.status, 404, `${method} ${template} → 404`);
    t.equal(r.body?.code, 'route_not_found');
  }
  t.equal((await api('/pets')).status, 200);
});

t.test('petstore serve answers the control API by default and not with --no-control', async (t) => {
  const on = await startServe(t);
  t.match(on.stdout(), /control API: http:\/\/127\.0\.0\.1:\d+\/__control/, 'the banner tells where the control API is');
  t.equal((await controlClient(t, on.url, 'petstore-dev-key')('GET', '/state')).status, 200);
  const off = await startServe(t, ['--no-control']);
  t.notMatch(off.stdout(), /control API/, 'the banner does not mention it');
  const r = await controlClient(t, off.url, 'petstore-dev-key')('GET', '/state');
  t.equal(r.status, 404);
  t.equal(r.body.code, 'route_not_found');
  t.equal((await apiClient(t, off.url, 'petstore-dev-key')('/pets')).status, 200, 'the interface is served');
});

t.test('a control body in a content coding is refused with 415 like an interface body, and nothing is created', async (t) => {
  const { gzipSync } = await import('node:zlib');
  const { url, server } = await startTestServer(t);
  const { request } = await import('undici');
  const res = await request(`${new URL(url).origin}/__control/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer petstore-dev-key', 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: gzipSync('[{"name":"Rex","categoryId":1}]'),
  });
  const body = (await res.body.json()) as { code: string };
  t.equal(res.statusCode, 415);
  t.equal(body.code, 'unsupported_media_type');
  t.equal(server.store.size, 0);
});

t.test('GET /__control/journal reads `limit` by the control spec: an integer within 1..100000, given once', async (t) => {
  const { control } = await start(t);
  for (const limit of ['0', '1e3', '0x10', ' 5', '100001', '2.5', 'abc']) {
    const r = await control('GET', `/journal?limit=${encodeURIComponent(limit)}`);
    t.equal(r.status, 400, `limit=${JSON.stringify(limit)} → 400`);
    t.equal(r.body?.code, 'invalid_parameter');
  }
  t.equal((await control('GET', '/journal?limit=1&limit=2')).status, 400, 'limit twice → 400');
  t.equal((await control('GET', '/journal?limit=100000')).status, 200, 'the maximum is accepted');
});

t.test('POST /shutdown answers 202 with the findings so far, then the server closes as on close()', async (t) => {
  const { server, api, control } = await start(t);
  await api('/pets?stauts=sold');
  const closed = once(server.http, 'close');
  const r = await control('POST', '/shutdown');
  t.equal(r.status, 202);
  t.match(r.body, [{ code: 'unknown_query_parameter', sent: 'stauts=sold', count: 1 }], 'the findings, as GET /findings lists them');
  await closed;
  t.notOk(server.http.listening, 'no longer listening');
});

t.test('POST /shutdown calls onShutdown once its answer has left, instead of closing', async (t) => {
  let calls = 0;
  const { control } = await start(t, { onShutdown: () => calls++ });
  const r = await control('POST', '/shutdown');
  t.equal(r.status, 202);
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(calls, 1, 'called once');
  t.equal((await control('GET', '/state')).status, 200, 'the server goes on serving: what to do was onShutdown’s');
});
