// Issue 17 §2: the served contract (/docs/openapi.json, served-spec.ts) says
// what this server answers. A whole conformance run, the control API's faults
// (429, 503, latency, drops), the sunset and the odd requests of a careless
// client are sent to a real server; every answer the journal saw must be
// declared there: its status (or its range), every header it carried (its
// value matching the declared format) and its body (valid against the
// declared schema). A new answer of the server that the document does not
// derive fails here, so the two cannot drift.
import t from 'tap';
import { request } from 'undici';
import { runConformance } from '../../../conformance/index.js';
import { parseJson } from '../../../spec/json/index.js';
import { operations } from '../../../spec/operations.js';
import { derefAll, type Schema } from '../../../spec/operations.js';
import { compileSchema } from '../../../spec/schema/validate.js';
import type { DetailedJournalEntry } from '../../../src/server/control/journal.js';
import { buildRoutes, matchRoute } from '../../../src/server/router.js';
import { controlClient } from '../../helpers/control.js';
import { startTestServer } from '../../helpers/server.js';

const KEY = 'served-contract-key-3b8f';
/** Fields of HTTP itself (framing, connection management), which no OpenAPI document declares. */
const FRAMING = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The served document, walked as data. */
type Doc = any;

t.test('every answer of a conformance run, faults, the sunset and careless requests is declared by the served contract', async (t) => {
  const { url, server } = await startTestServer(t, {
    apiKeys: [KEY],
    limits: { journalSize: 200_000, journalBodyBytes: 1024 * 1024 },
  });
  const origin = new URL(url).origin;
  const control = controlClient(t, url, KEY);
  const auth = { authorization: `Bearer ${KEY}` };
  const send = async (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) => {
    const res = await request(origin + path, { method: init.method ?? 'GET', headers: init.headers ?? {}, body: init.body ?? null }).catch(() => undefined);
    await res?.body.arrayBuffer().catch(() => undefined);
    return res?.statusCode;
  };

  const result = await runConformance({ baseUrl: url, apiKey: KEY, seed: 17, runs: 20, strict: true });
  t.equal(result.failures.length, 0, 'the conformance run passed');

  // The control API's faults: a status of its own (429), the default 503, latency, a dropped connection.
  for (const [operationId, fault] of [
    ['listPets', { status: 429 }],
    ['createPet', { status: 503, errorRate: 1 }],
    ['getPet', { latencyMs: 5, status: 500 }],
  ] as const) {
    t.equal((await control('PUT', `/faults/${operationId}`, { json: fault })).status, 200, `fault on ${operationId}`);
  }
  await send('/v1/pets', { headers: auth });
  await send('/v1/pets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' });
  await send('/v1/pets/1', { headers: { ...auth, origin: 'http://app.example' } });
  await control('PUT', '/faults/getPet', { json: { latencyMs: 1 } });
  await send('/v1/pets/1', { headers: auth });
  await control('PUT', '/faults/listPets', { json: { dropRate: 1 } });
  await send('/v1/pets', { headers: auth });
  await control('DELETE', '/faults');

  // What a careless client sends: other methods, paths, media types, CORS, HEAD and OPTIONS.
  await send('/v1/pets', { method: 'DELETE', headers: auth });
  await send('/v1/pets', { method: 'DELETE' });
  await send('/v1/nothing', { headers: auth });
  await send('/v1/pets', { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: '{}' });
  await send('/v1/pets', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: 'x'.repeat(2 * 1024 * 1024) });
  await send('/v1/pets?limit=1', { method: 'HEAD', headers: auth });
  await send('/v1/pets', { method: 'OPTIONS', headers: { origin: 'http://app.example', 'access-control-request-method': 'POST' } });
  await send('/v1/pets', { headers: { authorization: 'Bearer wrong', origin: 'http://app.example' } });
  await send(`/v1/pets?x=${'y'.repeat(9000)}`, { headers: auth });
  // After the sunset: getPet is gone.
  await control('PUT', '/clock', { json: { now: '2031-01-01T00:00:00Z' } });
  await send('/v1/pets/1', { headers: auth });
  await control('PUT', '/clock', { json: { now: null } });

  const served = (await (await request(`${origin}/docs/openapi.json`)).body.json()) as Doc;
  const routes = buildRoutes(operations);
  const validators = new Map<unknown, ReturnType<typeof compileSchema>>();
  const validate = (schema: unknown) => {
    let v = validators.get(schema);
    if (!v) validators.set(schema, (v = compileSchema(derefAll(served, schema) as Schema)));
    return v;
  };
  const header = (declared: Doc) => derefAll(served, declared) as { schema: Schema };

  const entries = server.journal.latest() as DetailedJournalEntry[];
  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const e of entries) {
    if (e.status === 0) continue; // a dropped connection: no answer to check
    const target = e.path.split('?')[0] as string;
    const match = target.startsWith('/v1/') ? matchRoute(routes, target, 3) : { found: false as const };
    const operation = match.found ? match.route.operations.get(e.method) : undefined;
    const where = `${e.method} ${e.path.slice(0, 60)} → ${e.status}`;
    let response: Doc;
    if (operation) {
      const responses = served.paths[operation.path][operation.method.toLowerCase()].responses;
      response = responses[String(e.status)] ?? responses[`${String(e.status)[0]}XX`];
      seen.set(`${operation.operationId} ${e.status}`, (seen.get(`${operation.operationId} ${e.status}`) ?? 0) + 1);
    } else {
      const other = served['x-petstore-other-answers'];
      response = e.method === 'OPTIONS' && e.status === 204 ? other.options : other.responses[String(e.status)];
      seen.set(`other ${e.status}`, (seen.get(`other ${e.status}`) ?? 0) + 1);
    }
    if (!response) {
      problems.push(`${where}: status not declared`);
      continue;
    }
    const declared = new Map(Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), header(h)]));
    for (const [name, value] of Object.entries(e.response?.headers ?? {})) {
      if (FRAMING.has(name) || (e.method === 'OPTIONS' && name.startsWith('access-control-allow-'))) continue;
      const h = declared.get(name);
      if (!h) problems.push(`${where}: header ${name} not declared`);
      else if (validate(h.schema)(value)) problems.push(`${where}: header ${name}: ${value} does not match ${JSON.stringify(h.schema)}`);
    }
    const schema = response.content?.['application/json']?.schema;
    const body = e.response?.body;
    if (e.method === 'HEAD' || e.status === 204) continue;
    if (!schema) {
      if (body !== undefined) problems.push(`${where}: a body where none is declared`);
      continue;
    }
    const parsed = body === undefined ? undefined : parseJson(body, { maxDepth: 64, maxMembers: 1_000_000 });
    if (!parsed?.ok) problems.push(`${where}: the body is not JSON`);
    else {
      const issue = validate(schema)(parsed.value);
      if (issue) problems.push(`${where}: body: ${issue.path} ${issue.message}`);
    }
  }
  t.strictSame(problems.slice(0, 20), [], `every answer is declared (${entries.length} answers checked)`);
  const statuses = [...seen.keys()].sort();
  for (const expected of [
    'listPets 200',
    'listPets 400',
    'listPets 401',
    'listPets 429',
    'createPet 201',
    'createPet 400',
    'createPet 413',
    'createPet 415',
    'createPet 503',
    'getPet 200',
    'getPet 404',
    'getPet 410',
    'getPet 500',
    'other 404',
    'other 405',
    'other 401',
    'listPets 414',
    'other 204',
  ]) {
    t.ok(seen.has(expected), `seen: ${expected}`);
  }
  t.ok(entries.length > 500, `a run of some size: ${entries.length} answers; ${statuses.join(', ')}`);
  // Careless requests make findings, which their answers name (D23): checked above like every other header.
  const named = entries.filter((e) => e.response?.headers['petstore-finding'] !== undefined);
  t.ok(named.some((e) => e.status >= 400) && named.some((e) => e.status < 300), `Petstore-Finding checked on ${named.length} answers, refused and served`);
});

t.test("a server in front of another (petstore proxy) adds its own Errors to every operation's answers, and says whose the answers are", async (t) => {
  const { servedDocument } = await import('../../../src/server/served-spec.js');
  const front = {
    name: 'a front',
    note: 'The answers are the upstream’s.',
    answers: [
      { status: 502, code: 'bad_gateway', meaning: 'Unreachable.' },
      { status: 502, code: 'nonconforming_upstream', meaning: 'Broke the interface.' },
      { status: 400, code: 'front_refused', meaning: 'Refused by the front.' },
    ],
  };
  const plain = servedDocument(operations, '/v1') as Doc;
  const fronted = servedDocument(operations, '/v1', front) as Doc;
  t.match(fronted.info.title, /as served by a front$/);
  t.match(fronted.info.description, /The answers are the upstream’s\.$/);
  for (const op of operations) {
    const responses = fronted.paths[op.path][op.method.toLowerCase()].responses;
    const bad = responses['502'];
    t.strictSame(
      bad.content['application/json'].schema.properties.code.enum,
      ['bad_gateway', 'nonconforming_upstream'],
      `${op.operationId}: 502 with both codes`,
    );
    t.equal(bad['x-petstore-decision'], 'a front', 'marked as the front’s');
    const codes = responses['400'].content['application/json'].schema.properties.code.enum;
    const before = plain.paths[op.path][op.method.toLowerCase()].responses['400'].content['application/json'].schema.properties.code.enum;
    t.strictSame(codes, [...before, 'front_refused'], `${op.operationId}: a status the server already answers gains the front's code`);
  }
  t.notOk(plain.paths['/pets'].get.responses['502'], 'the stand-in alone answers no 502 of its own');
});
