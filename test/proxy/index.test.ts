import t, { type Test } from 'tap';
import { startProxy, type StartProxyOptions, type StartedProxy } from '../../proxy/index.js';
import { startVariant } from '../../fixtures/implementations/index.mjs';
import { startTestServer } from '../helpers/server.js';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

async function call(url: string, init: RequestInit & { key?: string | null } = {}): Promise<Answer> {
  const { key = 'test-key', ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  if (typeof rest.body === 'string') headers.set('content-type', 'application/json');
  const response = await fetch(url, { ...rest, headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The reference server with the key `test-key`, and a proxy in front of it. */
async function proxied(t: Test, options: Omit<StartProxyOptions, 'upstream'> = {}) {
  const upstream = await startTestServer(t, { apiKeys: ['test-key'] });
  const proxy = await startProxy({ ...options, upstream: upstream.url });
  t.teardown(() => proxy.close());
  return { upstream, proxy };
}

const serverFindings = (proxy: StartedProxy) => proxy.findings().filter((f) => f.side === 'server');

t.test("in front of the reference server: the upstream's answers pass back as they came, with Via (RFC 9110 §7.6.3)", async (t) => {
  const { upstream, proxy } = await proxied(t);
  t.match(proxy.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/, 'the base path is the upstream URL’s');
  const created = await call(`${proxy.url}/pets`, { method: 'POST', body: '{"name":"Rex","categoryId":9007199254740993,"status":"sold"}' });
  t.equal(created.status, 201);
  t.equal(created.text, '{"id":1,"name":"Rex","categoryId":9007199254740993,"status":"sold"}', 'the body byte for byte, int64 intact');
  t.equal(created.headers.get('location'), '/v1/pets/1');
  t.equal(created.headers.get('via'), '1.1 petstore-proxy');
  const listed = await call(`${proxy.url}/pets?status=sold`);
  t.equal(listed.text, `[${created.text.slice(0)}]`);
  const pet = await call(`${proxy.url}/pets/1`);
  t.equal(pet.headers.get('sunset'), 'Thu, 05 Dec 2030 00:00:00 GMT', "the upstream's deprecation headers");
  t.equal(pet.headers.get('petstore-finding'), 'deprecated_operation', "the client's finding is named on the answer");
  t.equal(upstream.server.journal.select({}).length, 3, 'the upstream got each request once');
  t.strictSame(serverFindings(proxy), [], 'a conforming upstream shows no server finding');
  t.same(
    proxy.findings().map((f) => [f.side, f.code]),
    [['client', 'deprecated_operation']],
  );
});

t.test("a request the stand-in would refuse is noted, and passed on all the same: the upstream's answer comes back", async (t) => {
  const { upstream, proxy } = await proxied(t);
  const misspelt = await call(`${proxy.url}/pets?stauts=sold`);
  t.equal(misspelt.status, 200, 'the upstream served it');
  t.equal(misspelt.headers.get('petstore-finding'), 'unknown_query_parameter');
  const invalid = await call(`${proxy.url}/pets`, { method: 'POST', body: '{"name":1,"categoryId":1}' });
  t.equal(invalid.status, 400);
  t.match(JSON.parse(invalid.text), { code: 'invalid_body', status: 400 }, "the upstream's Error");
  const keyless = await call(`${proxy.url}/pets`, { key: null });
  t.equal(keyless.status, 401);
  t.ok(keyless.headers.get('www-authenticate'), "the upstream's challenge");
  t.equal(upstream.server.journal.select({}).length, 3, 'every request reached the upstream');
  t.same(
    proxy.findings().map((f) => [f.side, f.severity, f.code]),
    [
      ['client', 'warning', 'unknown_query_parameter'],
      ['client', 'error', 'invalid_body'],
      ['client', 'error', 'unauthorized'],
    ],
  );
  t.strictSame(serverFindings(proxy), []);
});

t.test('--refuse-invalid: what the stand-in would refuse is answered by the proxy, as the stand-in answers it, and never reaches the upstream', async (t) => {
  const { upstream, proxy } = await proxied(t, { refuseInvalid: true });
  const keyless = await call(`${proxy.url}/pets`, { key: null });
  t.equal(keyless.status, 401);
  t.match(keyless.headers.get('www-authenticate'), /^Bearer /);
  const invalid = await call(`${proxy.url}/pets?limit=0`);
  t.equal(invalid.status, 400);
  t.match(JSON.parse(invalid.text), { code: 'invalid_parameter' });
  t.equal(upstream.server.journal.select({}).length, 0, 'the upstream heard nothing');
  const valid = await call(`${proxy.url}/pets?limit=3`, { key: 'any-key-the-upstream-knows' });
  t.equal(valid.status, 401, 'any Bearer key is passed on, and the upstream judges it');
  t.equal(upstream.server.journal.select({}).length, 1);
});

t.test('a body longer than the limit is passed on whole, streamed past what the proxy reads', async (t) => {
  const { upstream, proxy } = await proxied(t, { limits: { maxBodyBytes: 64 } });
  const name = 'n'.repeat(5000);
  const created = await call(`${proxy.url}/pets`, { method: 'POST', body: JSON.stringify({ name, categoryId: 1 }) });
  t.equal(created.status, 201, 'the upstream, whose limit is larger, created it');
  t.equal((JSON.parse(created.text) as { name: string }).name, name, 'every byte arrived');
  t.same(
    proxy.findings().map((f) => f.code),
    ['payload_too_large'],
    'the client is told the stand-in would refuse it',
  );
  t.equal(upstream.server.store.count(), 1);
});

t.test('an upstream that cannot be reached is answered 502 with an Error body, and noted', async (t) => {
  const gone = await startTestServer(t);
  const url = gone.url;
  await gone.server.close();
  const proxy = await startProxy({ upstream: url });
  t.teardown(() => proxy.close());
  const answer = await call(`${proxy.url}/pets`);
  t.equal(answer.status, 502);
  t.match(JSON.parse(answer.text), { code: 'bad_gateway', status: 502 });
  t.match(serverFindings(proxy), [{ code: 'proxy.upstream-unreachable', severity: 'error', status: 502 }]);
});

t.test('an upstream that does not answer in time is answered 504', async (t) => {
  const { createServer } = await import('node:net');
  const sockets = new Set<import('node:net').Socket>();
  const silent = createServer((socket) => sockets.add(socket.on('error', () => {})));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });
  const port = (silent.address() as { port: number }).port;
  const proxy = await startProxy({ upstream: `http://127.0.0.1:${port}/v1`, timeoutMs: 300 });
  t.teardown(() => proxy.close());
  const answer = await call(`${proxy.url}/pets`);
  t.equal(answer.status, 504);
  t.match(JSON.parse(answer.text), { code: 'gateway_timeout', status: 504 });
  t.match(serverFindings(proxy), [{ code: 'proxy.upstream-timeout' }]);
  const journal = proxy.requests();
  t.ok((journal[0] as { upstreamMs?: number }).upstreamMs! >= 250, 'the journal has the time the upstream took');
});

t.test('an answer larger than the proxy judges is passed on as it comes, unjudged, and said so', async (t) => {
  const { proxy } = await proxied(t, { maxJudgedBytes: 1024 });
  for (let i = 0; i < 40; i++) await call(`${proxy.url}/pets`, { method: 'POST', body: `{"name":"pet number ${i}","categoryId":${i}}` });
  const page = await call(`${proxy.url}/pets?limit=40`);
  t.equal(page.status, 200);
  t.equal((JSON.parse(page.text) as unknown[]).length, 40, 'the whole page arrived');
  t.match(serverFindings(proxy), [{ code: 'proxy.unjudged', severity: 'warning' }]);
});

t.test('the journal and the HAR carry the time the upstream took', async (t) => {
  const { proxy } = await proxied(t);
  await call(`${proxy.url}/pets`);
  const [entry] = proxy.requests() as { upstreamMs?: number; latencyMs: number }[];
  t.ok(entry?.upstreamMs !== undefined && entry.upstreamMs <= entry.latencyMs, 'upstreamMs, part of latencyMs');
  const har = await call(`${proxy.url.replace(/\/v1$/, '')}/__control/journal.har`, { key: 'petstore-dev-key' });
  t.equal(har.status, 200);
  const timings = (JSON.parse(har.text) as { log: { entries: { timings: Record<string, number> }[] } }).log.entries[0]?.timings;
  t.type(timings?.['_upstreamMs'], 'number');
});

t.test("the control API is the proxy's own, guarded by the proxy's key, not passed on", async (t) => {
  const { proxy } = await proxied(t);
  const origin = proxy.url.replace(/\/v1$/, '');
  t.equal((await call(`${origin}/__control/findings`, { key: null })).status, 401);
  t.equal((await call(`${origin}/__control/findings`, { key: 'test-key' })).status, 401, "the upstream's key is not the proxy's");
  t.equal((await call(`${origin}/__control/findings`, { key: 'petstore-dev-key' })).status, 200);
});

t.test('a stub or a fault set on the proxy applies in front of the upstream', async (t) => {
  const { upstream, proxy } = await proxied(t);
  proxy.stub('listPets', { status: 200, body: [{ id: 7, name: 'Stubbed', categoryId: 1 }] });
  const stubbed = await call(`${proxy.url}/pets`);
  t.equal(stubbed.text, '[{"id":7,"name":"Stubbed","categoryId":1}]', 'the proxy answered');
  proxy.faults.set('getPet', { errorRate: 1, status: 503 });
  t.equal((await call(`${proxy.url}/pets/1`)).status, 503, 'a fault injected before the request is passed on');
  t.equal(upstream.server.journal.select({}).length, 0, 'neither reached the upstream');
  t.equal((await call(`${proxy.url}/pets`)).status, 200, 'the stub is spent: the upstream answers again');
  t.equal(upstream.server.journal.select({}).length, 1);
});

t.test('a forward proxy that cannot be reached is named in the 502', async (t) => {
  const upstream = await startTestServer(t);
  const proxy = await startProxy({ upstream: upstream.url.replace('127.0.0.1', 'localhost'), env: { http_proxy: 'http://127.0.0.1:9' } });
  t.teardown(() => proxy.close());
  const answer = await call(`${proxy.url}/pets`);
  t.equal(answer.status, 502);
  t.match(JSON.parse(answer.text), { code: 'bad_gateway', message: /through the proxy http:\/\/127\.0\.0\.1:9/ });
});

t.test('in front of a broken implementation: its answer is a server finding, and with --errors a 502 naming the rule', async (t) => {
  // Answers without Date, which an origin server with a clock must send (RFC 9110 §6.6.1).
  const broken = await startVariant('no-date-header');
  t.teardown(() => broken.close());
  for (const errors of [false, true]) {
    const proxy = await startProxy({ upstream: broken.url, errors });
    t.teardown(() => proxy.close());
    const answer = await call(`${proxy.url}/pets`, { key: broken.apiKey });
    t.match(serverFindings(proxy), [{ code: 'http.date', severity: 'error', status: 200, operationId: 'listPets' }]);
    if (!errors) {
      t.equal(answer.status, 200, 'passed back as it came');
      t.equal(answer.headers.get('petstore-finding'), 'http.date', 'the answer names its finding');
    } else {
      t.equal(answer.status, 502);
      t.match(JSON.parse(answer.text), { code: 'nonconforming_upstream', status: 502, message: /answered 200, which breaks http\.date \(RFC 9110 §6\.6\.1/ });
    }
  }
});

t.test('record: true keeps the pets the upstream served, written by writeRecording(); without it, writeRecording says so', async (t) => {
  const { proxy } = await proxied(t, { record: true });
  await call(`${proxy.url}/pets`, { method: 'POST', body: '{"name":"Rex","categoryId":9007199254740993}' });
  await call(`${proxy.url}/pets/1`);
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-record-')), 'pets.json');
  await proxy.writeRecording(file);
  t.equal(readFileSync(file, 'utf8').replace(/\s/g, ''), '[{"id":1,"name":"Rex","categoryId":9007199254740993}]', 'once, int64 exact');
  const { proxy: plain } = await proxied(t);
  await t.rejects(plain.writeRecording(file), /records nothing: start it with record: true/);
});

t.test('record: a served answer nested deeper than 8 arrays and objects is not heard; brackets inside strings are not nesting', async (t) => {
  const { createServer } = await import('node:http');
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const nest = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
  // A page of one pet, with an unknown member nested `levels` deep inside the page and the pet (2 levels).
  const pages: Record<string, string> = {
    '/v1/pets?status=available': `[{"id":7,"name":"Eight","categoryId":1,"status":"available","extra":${nest(6)}}]`,
    '/v1/pets?status=pending': `[{"id":8,"name":"Nine","categoryId":1,"status":"pending","extra":${nest(7)}}]`,
    '/v1/pets?status=sold': `[{"id":9,"name":"[[[[[[[[[[\\"[[[[","categoryId":1,"status":"sold"}]`,
  };
  const upstream = createServer((req, res) => {
    const body = pages[req.url ?? ''] ?? '[]';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => upstream.close());
  const { port } = upstream.address() as { port: number };
  const proxy = await startProxy({ upstream: `http://127.0.0.1:${port}/v1`, record: true });
  t.teardown(() => proxy.close());
  for (const status of ['available', 'pending', 'sold']) t.equal((await call(`${proxy.url}/pets?status=${status}`)).status, 200);
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-record-')), 'pets.json');
  await proxy.writeRecording(file);
  const recorded = (JSON.parse(readFileSync(file, 'utf8')) as { id: number }[]).map((pet) => pet.id);
  t.strictSame(recorded, [7, 9], '8 deep is heard, 9 deep is not; a name of brackets and an escaped quote is no nesting');
});

t.test("the proxy's served contract says its answers are the upstream's, and lists the proxy's own 502 and 504 on every operation", async (t) => {
  const { proxy } = await proxied(t);
  const doc = JSON.parse(await (await fetch(`${new URL(proxy.url).origin}/docs/openapi.json`)).text());
  t.match(doc.info.title, /as served by petstore proxy$/);
  t.match(doc.info.description, /its answers are the upstream's/);
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, any> }>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const codes = (status: string) => operation.responses[status]?.content['application/json'].schema.properties.code.enum;
      t.strictSame(codes('502'), ['bad_gateway', 'nonconforming_upstream'], `${method} ${path}: 502`);
      t.strictSame(codes('504'), ['gateway_timeout'], `${method} ${path}: 504`);
    }
  }
});
