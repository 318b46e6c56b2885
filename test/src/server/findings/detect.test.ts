// Issue 26 §1: every request to the interface is checked against the spec,
// and what the client got wrong or relies on is a finding with its rule (a
// JSON pointer into spec/openapi.json), what was sent, what is expected, the
// seed's section and a severity. One test per kind of finding.
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { resolvePointer } from '../../../../spec/operations.js';
import type { Finding } from '../../../../src/server/findings/index.js';
import { startTestServer, type TestServer } from '../../../helpers/server.js';

const specJson = JSON.parse(readFileSync(new URL('../../../../spec/openapi.json', import.meta.url), 'utf8')) as Record<string, unknown>;

/** A raw request (any headers), its answer read in full; resolves with the status. */
async function send(s: TestServer, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<number> {
  const res = await request(s.url + path, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: options.headers ?? {},
    body: options.body ?? null,
  });
  await res.body.text();
  return res.statusCode;
}

const auth = (s: TestServer) => ({ authorization: `Bearer ${s.key}` });
const json = (s: TestServer) => ({ ...auth(s), 'content-type': 'application/json' });

/** The only finding of the server, checked to be well-formed: its rule resolves in spec/openapi.json. */
function only(t: Test, s: TestServer, codes?: readonly string[]): Finding {
  const all = s.server.findings.list().filter((f) => codes === undefined || codes.includes(f.code));
  t.equal(all.length, 1, `one finding: ${JSON.stringify(all, null, 1)}`);
  const f = all[0] as Finding;
  t.doesNotThrow(() => resolvePointer(specJson, `#${f.rule}`), `the rule ${f.rule} is a pointer into spec/openapi.json`);
  t.match(f.seed, /^§\d/, 'a seed section');
  t.ok(f.first.request >= 1 && f.last.request >= f.first.request, 'journal ids');
  return f;
}

t.test('an unknown query parameter is a warning naming the nearest known one', async (t) => {
  const s = await startTestServer(t);
  t.equal(await send(s, '/pets?stauts=sold', { headers: auth(s) }), 200, 'served: D3 ignores it');
  const f = only(t, s);
  t.match(f, {
    code: 'unknown_query_parameter',
    severity: 'warning',
    rule: '/paths/~1pets/get/parameters',
    seed: '§4.1 List animals',
    operationId: 'listPets',
    sent: 'stauts=sold',
    expected: /limit or status; did you mean status\?/,
    first: { method: 'GET', target: '/v1/pets?stauts=sold' },
  });
  t.notOk('status' in f, 'a warning carries no refusal status');
});

t.test('an unknown query parameter far from every known name gets no suggestion; getPet takes none at all', async (t) => {
  const s = await startTestServer(t);
  await send(s, '/pets?page=2', { headers: auth(s) });
  t.match(only(t, s), { sent: 'page=2', expected: 'limit or status' });
  s.server.findings.clear();
  await send(s, '/pets', { method: 'POST', headers: json(s), body: '{"name":"Rex","categoryId":1}' });
  await send(s, '/pets/1?expand=owner', { headers: auth(s) });
  t.match(only(t, s, ['unknown_query_parameter']), {
    operationId: 'getPet',
    rule: '/paths/~1pets~1{petId}/get/parameters',
    expected: 'getPet takes no query parameters',
  });
});

t.test('an unknown body field is a warning naming the nearest known one', async (t) => {
  const s = await startTestServer(t);
  t.equal(await send(s, '/pets', { headers: json(s), body: '{"name":"Rex","categoryId":1,"stauts":"sold"}' }), 201);
  t.match(only(t, s), {
    code: 'unknown_body_field',
    severity: 'warning',
    rule: '/components/schemas/NewPet/properties',
    operationId: 'createPet',
    sent: 'stauts: "sold"',
    expected: /only name, categoryId, status; did you mean status\?/,
  });
});

t.test('category_id is a warning suggesting categoryId, beside the error for the missing categoryId', async (t) => {
  const s = await startTestServer(t);
  t.equal(await send(s, '/pets', { headers: json(s), body: '{"name":"Rex","category_id":3}' }), 400);
  const [warning, error] = s.server.findings.list();
  t.match(warning, { code: 'unknown_body_field', severity: 'warning', sent: 'category_id: 3', expected: /did you mean categoryId\?/ });
  t.match(error, {
    code: 'invalid_body',
    severity: 'error',
    status: 400,
    rule: '/components/schemas/NewPet/required',
    sent: 'no categoryId',
    expected: /^categoryId: an int64 integer/,
    message: 'categoryId is required',
  });
  t.equal(warning?.first.request, error?.first.request, 'both of one request');
});

t.test('a field of the wrong type is an error at the field, with what was sent and what the schema wants', async (t) => {
  const s = await startTestServer(t);
  t.equal(await send(s, '/pets', { headers: json(s), body: '{"name":"Rex","categoryId":"7"}' }), 400);
  t.match(only(t, s), {
    code: 'invalid_body',
    severity: 'error',
    rule: '/components/schemas/NewPet/properties/categoryId',
    sent: 'categoryId: "7"',
    expected: /int64 integer/,
    seed: '§4.2 Add an animal',
  });
});

t.test('a deprecated getPet call is a warning with the sunset date and the replacement', async (t) => {
  const s = await startTestServer(t);
  await send(s, '/pets', { method: 'POST', headers: json(s), body: '{"name":"Rex","categoryId":1}' });
  for (let i = 0; i < 3; i++) t.equal(await send(s, '/pets/1', { headers: auth(s) }), 200);
  const f = only(t, s);
  t.match(f, {
    code: 'deprecated_operation',
    severity: 'warning',
    rule: '/paths/~1pets~1{petId}/get/deprecated',
    operationId: 'getPet',
    seed: /§4\.3.*§9/,
    expected: 'GET /v1/pets?status=… (listPets)',
    message: /05 Dec 2030.*GET \/v1\/pets\?status=/,
    count: 3,
    first: { request: 2 },
    last: { request: 4 },
  });
});

t.test('after the sunset getPet is an error: 410 with the replacement', async (t) => {
  const s = await startTestServer(t, { now: new Date('2031-01-01T00:00:00Z') });
  t.equal(await send(s, '/pets/1', { headers: auth(s) }), 410);
  t.match(only(t, s, ['gone']), { severity: 'error', status: 410, rule: '/paths/~1pets~1{petId}/get/x-sunset', expected: /GET \/v1\/pets\?status=/ });
});

t.test('an id that is the JSON.parse rounding of one the server gave (--ids large) is a warning naming both ids', async (t) => {
  const s = await startTestServer(t, { ids: 'large' });
  await send(s, '/pets', { method: 'POST', headers: json(s), body: '{"name":"Rex","categoryId":1}' });
  await send(s, '/pets', { method: 'POST', headers: json(s), body: '{"name":"Tom","categoryId":1}' });
  // What a client that read 9007199254740995 with JSON.parse asks for.
  const rounded = String(Number('9007199254740995'));
  t.equal(rounded, '9007199254740996');
  t.equal(await send(s, `/pets/${rounded}`, { headers: auth(s) }), 404, 'still a 404: the rounded id is no pet');
  const f = only(t, s, ['rounded_id']);
  t.match(f, {
    severity: 'warning',
    rule: '/paths/~1pets~1{petId}/get/parameters/0',
    sent: 'petId 9007199254740996',
    expected: '9007199254740995, the id this server gave',
    message: /9007199254740996.*9007199254740995.*JSON\.parse|JSON\.parse.*9007199254740995.*9007199254740996/,
  });
  t.notOk(
    s.server.findings.list().some((x) => x.code === 'pet_not_found'),
    'not also a plain 404 finding',
  );
});

t.test('an id the server never gave that is no rounding is an error: the 404 it got', async (t) => {
  const s = await startTestServer(t, { ids: 'large' });
  await send(s, '/pets', { method: 'POST', headers: json(s), body: '{"name":"Rex","categoryId":1}' });
  t.equal(await send(s, '/pets/9007199254741000', { headers: auth(s) }), 404);
  t.equal(await send(s, '/pets/12', { headers: auth(s) }), 404);
  t.match(only(t, s, ['pet_not_found', 'rounded_id']), {
    code: 'pet_not_found',
    severity: 'error',
    status: 404,
    rule: '/paths/~1pets~1{petId}/get/responses/404',
    count: 2,
  });
});

t.test('an accepted key in another form than `Bearer <key>` is a warning; the key is not shown', async (t) => {
  const s = await startTestServer(t);
  t.equal(await send(s, '/pets', { headers: { authorization: `bearer ${s.key}` } }), 200);
  t.equal(await send(s, '/pets', { headers: { authorization: `Bearer   ${s.key}` } }), 200);
  const forms = s.server.findings.list();
  t.equal(forms.length, 2, 'one finding per form');
  t.match(forms, [
    { code: 'key_form', severity: 'warning', rule: '/components/securitySchemes/bearerAuth', seed: '§5 Authentication', sent: 'Authorization: bearer <key>' },
    { code: 'key_form', sent: 'Authorization: Bearer [3 spaces] <key>', expected: /^Authorization: Bearer <API_KEY>/ },
  ]);
  t.notMatch(JSON.stringify(forms), s.key);
});

t.test('a refused key is an error that says how it was sent: none, another scheme, another header, a wrong key', async (t) => {
  const s = await startTestServer(t);
  t.equal(await send(s, '/pets'), 401);
  t.equal(await send(s, '/pets', { headers: { authorization: `Basic ${Buffer.from(`u:${s.key}`).toString('base64')}` } }), 401);
  t.equal(await send(s, '/pets', { headers: { 'x-api-key': s.key } }), 401);
  t.equal(await send(s, '/pets', { headers: { authorization: `Bearer ${s.key}x` } }), 401);
  t.equal(await send(s, '/pets', { headers: { authorization: s.key } }), 401);
  const all = s.server.findings.list();
  t.ok(
    all.every((f) => f.code === 'unauthorized' && f.severity === 'error' && f.status === 401 && f.rule === '/components/securitySchemes/bearerAuth'),
    'all 401 errors at the security scheme',
  );
  t.strictSame(
    all.map((f) => f.sent),
    [
      'no Authorization header',
      'Authorization: Basic <key>',
      'no Authorization header; a key in the x-api-key header?',
      'Authorization: Bearer <a key this server does not accept>',
      'Authorization: a value with no scheme (a bare key?)',
    ],
  );
});

t.test('an invalid parameter is an error at the parameter, with its rules in the client’s terms', async (t) => {
  const s = await startTestServer(t);
  t.equal(await send(s, '/pets?limit=200', { headers: auth(s) }), 400);
  t.equal(await send(s, '/pets?status=lost', { headers: auth(s) }), 400);
  t.equal(await send(s, '/pets/abc', { headers: auth(s) }), 400);
  const [limit, status, petId] = s.server.findings.list().filter((f) => f.severity === 'error');
  t.match(limit, {
    code: 'invalid_parameter',
    status: 400,
    rule: '/paths/~1pets/get/parameters/0',
    sent: 'limit=200',
    expected: /an integer from 1 to 100 \(20 when not given\)/,
  });
  t.match(status, { rule: '/paths/~1pets/get/parameters/1', sent: 'status=lost', expected: /one of available, pending, sold/ });
  t.match(petId, { rule: '/paths/~1pets~1{petId}/get/parameters/0', sent: 'petId abc', expected: /int64/ });
});

t.test('an unknown route is an error naming the nearest operation; another method is an error naming the allowed ones', async (t) => {
  const s = await startTestServer(t);
  t.equal(await send(s, '/pet/7', { headers: auth(s) }), 404);
  t.equal(await send(s, '/pets/7', { method: 'DELETE', headers: auth(s) }), 405);
  const [route, method] = s.server.findings.list();
  t.match(route, {
    code: 'route_not_found',
    severity: 'error',
    status: 404,
    rule: '/paths',
    sent: 'GET /v1/pet/7',
    expected: /^GET \/v1\/pets\/\{petId\} \(the nearest\)/,
  });
  t.match(method, { code: 'method_not_allowed', status: 405, rule: '/paths/~1pets~1{petId}', sent: 'DELETE /v1/pets/7', expected: 'GET on /v1/pets/{petId}' });
});

t.test('a body in another media type, not JSON, or too large is an error at the request body', async (t) => {
  const s = await startTestServer(t, { limits: { maxBodyBytes: 100 } });
  t.equal(await send(s, '/pets', { headers: { ...auth(s), 'content-type': 'text/plain' }, body: '{"name":"Rex","categoryId":1}' }), 415);
  t.equal(await send(s, '/pets', { headers: json(s), body: '{"name":' }), 400);
  t.equal(await send(s, '/pets', { headers: json(s), body: JSON.stringify({ name: 'x'.repeat(200), categoryId: 1 }) }), 413);
  t.equal(await send(s, '/pets', { method: 'POST', headers: json(s) }), 400);
  const [media, malformed, large, none] = s.server.findings.list();
  t.match(media, {
    code: 'unsupported_media_type',
    rule: '/paths/~1pets/post/requestBody/content',
    sent: 'Content-Type: text/plain',
    expected: /application\/json/,
  });
  t.match(malformed, { code: 'malformed_json', rule: '/paths/~1pets/post/requestBody/content' });
  t.match(large, { code: 'payload_too_large', status: 413, rule: '/paths/~1pets/post/requestBody', expected: /at most 100 bytes/ });
  t.match(none, { code: 'invalid_body', rule: '/paths/~1pets/post/requestBody/required', sent: 'no body' });
});

t.test('a finding is counted per rule: the same mistake 10,000 times is one finding with its first and last request', async (t) => {
  const s = await startTestServer(t);
  const tasks = [];
  for (let i = 0; i < 10_000; i++) tasks.push(() => send(s, '/pets?stauts=sold', { headers: auth(s) }));
  // 10,000 requests, at most 50 at once.
  for (let i = 0; i < tasks.length; i += 50) await Promise.all(tasks.slice(i, i + 50).map((task) => task()));
  const [stauts, ...others] = s.server.findings.list();
  t.match(stauts, { sent: 'stauts=sold', count: 10_000, first: { request: 1 }, last: { request: 10_000 } });
  t.strictSame(others, [], 'one finding');
});

t.test('the control API and the page make no findings: they are not the interface', async (t) => {
  const s = await startTestServer(t);
  const origin = new URL(s.url).origin;
  await request(`${origin}/__control/state?stauts=x`, { headers: auth(s) }).then((r) => r.body.text());
  await request(`${origin}/__control/nothing`, { headers: auth(s) }).then((r) => r.body.text());
  await request(`${origin}/docs`).then((r) => r.body.text());
  t.strictSame(s.server.findings.list(), []);
});

t.test('with findings: false nothing is checked or kept', async (t) => {
  const s = await startTestServer(t, { findings: false });
  await send(s, '/pets?stauts=sold', { headers: auth(s) });
  await send(s, '/pets');
  t.strictSame(s.server.findings.list(), []);
});
