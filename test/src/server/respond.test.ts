// Writing responses (src/server/respond.ts): every body is JSON with
// `Content-Type: application/json` and no charset (D9, RFC 8259 §11); the `Date`
// header follows the server clock; Error bodies are {code, message, status}; a
// failure answers 500 or cuts an answer already begun; every answer is reported.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import t, { type Test } from 'tap';
import { Client, request } from 'undici';
import { createClock, type Clock } from '../../../src/server/clock.js';
import type { ErrorCode } from '../../../src/server/errors.js';
import type { HeaderList } from '../../../src/server/headers.js';
import { createResponder, type Exchange, JSON_CONTENT_TYPE, type Responder, type ResponderHooks } from '../../../src/server/respond.js';

interface Answered {
  readonly status: number;
  readonly code: ErrorCode | undefined;
  readonly headers: HeaderList | undefined;
  readonly body: string | undefined;
}

/** A bare node:http server whose every request is answered by `route` through a responder. */
async function serve(t: Test, route: (respond: Responder, x: Exchange) => void, options: { clock?: Clock; closing?: boolean } = {}) {
  const answered: Answered[] = [];
  const failed: unknown[] = [];
  let connections = 0;
  const hooks: ResponderHooks = {
    closing: () => options.closing ?? false,
    answered: (_x, status, code, headers, body) => answered.push({ status, code, headers, body: body?.toString() }),
    failed: (error) => failed.push(error),
  };
  const respond = createResponder(options.clock ?? createClock(), hooks);
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    route(respond, { req, res, headers: undefined, arrived: performance.now(), toControl: false, seq: 1 });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, answered, failed, connections: () => connections };
}

t.test('a JSON body goes out as application/json with no charset and its length in bytes', async (t) => {
  t.equal(JSON_CONTENT_TYPE, 'application/json');
  const body = '{"name":"Café ☕"}';
  const s = await serve(t, (respond, x) => respond.send(x, 201, body, ['location', '/v1/pets/1']));
  const res = await request(s.origin);
  t.equal(res.statusCode, 201);
  t.equal(res.headers['content-type'], 'application/json');
  t.equal(res.headers['content-length'], String(Buffer.byteLength(body)), 'bytes, not characters');
  t.not(Buffer.byteLength(body), body.length, 'the body has multi-byte characters');
  t.equal(res.headers['location'], '/v1/pets/1', 'the headers given');
  t.equal(await res.body.text(), body);
  t.match(s.answered, [{ status: 201, code: undefined, body }], 'the answer is reported');
});

t.test('the headers every response to the exchange must carry are written with each answer', async (t) => {
  const s = await serve(t, (respond, x) => {
    x.headers = ['access-control-allow-origin', '*'];
    respond.send(x, 200, '[]');
  });
  const res = await request(s.origin);
  await res.body.text();
  t.equal(res.headers['access-control-allow-origin'], '*');
});

t.test('the Date header follows the server clock when it has been moved', async (t) => {
  const moved = await serve(t, (respond, x) => respond.send(x, 200, '[]'), { clock: createClock(new Date('2030-12-05T00:00:00Z')) });
  const res = await request(moved.origin);
  await res.body.text();
  t.match(res.headers['date'], /^Thu, 05 Dec 2030 00:0\d:\d\d GMT$/);
  const real = await serve(t, (respond, x) => respond.send(x, 200, '[]'));
  const now = await request(real.origin);
  await now.body.text();
  t.ok(Math.abs(Date.parse(String(now.headers['date'])) - Date.now()) < 60_000, 'a clock at real time: the real date');
});

t.test('an Error body is {code, message, status}, with the status of its code unless one is given', async (t) => {
  const s = await serve(t, (respond, x) =>
    x.req.url === '/fault'
      ? respond.sendError(x, 'fault_injected', 'injected', ['petstore-fault', 'status=502'], 502)
      : respond.sendError(x, 'pet_not_found', 'no animal has id 7'),
  );
  const res = await request(s.origin);
  t.equal(res.statusCode, 404);
  t.equal(res.headers['content-type'], 'application/json');
  t.equal(await res.body.text(), '{"code":"pet_not_found","message":"no animal has id 7","status":404}');
  const fault = await request(`${s.origin}/fault`);
  t.equal(fault.statusCode, 502);
  t.equal(fault.headers['petstore-fault'], 'status=502');
  t.equal(await fault.body.text(), '{"code":"fault_injected","message":"injected","status":502}');
  t.strictSame(
    s.answered.map((a) => [a.status, a.code]),
    [
      [404, 'pet_not_found'],
      [502, 'fault_injected'],
    ],
  );
});

t.test('an answer without a body has no Content-Type; another type is written as given', async (t) => {
  const s = await serve(t, (respond, x) => (x.req.url === '/page' ? respond.answer(x, 200, 'text/html', '<p>docs</p>') : respond.send(x, 204, undefined)));
  const empty = await request(s.origin);
  t.equal(empty.statusCode, 204);
  t.equal(empty.headers['content-type'], undefined);
  t.equal(await empty.body.text(), '');
  const page = await request(`${s.origin}/page`);
  t.equal(page.headers['content-type'], 'text/html');
  t.equal(await page.body.text(), '<p>docs</p>');
});

t.test('while the server is shutting down, every answer closes its connection', async (t) => {
  const s = await serve(t, (respond, x) => respond.send(x, 200, '[]'), { closing: true });
  const res = await request(s.origin);
  await res.body.text();
  t.equal(res.headers['connection'], 'close');
  const open = await serve(t, (respond, x) => respond.send(x, 200, '[]'));
  const kept = await request(open.origin);
  await kept.body.text();
  t.not(kept.headers['connection'], 'close', 'otherwise the connection is kept');
});

t.test('a failure before the answer began is reported and answered 500 internal_error, closing the connection', async (t) => {
  const bug = new Error('a bug');
  const s = await serve(t, (respond, x) => respond.fail(x, bug));
  const res = await request(s.origin);
  t.equal(res.statusCode, 500);
  t.equal(res.headers['connection'], 'close');
  t.equal(await res.body.text(), '{"code":"internal_error","message":"the server failed to answer this request","status":500}');
  t.strictSame(s.failed, [bug]);
});

t.test('a failure after the answer began cuts the connection: no second answer', async (t) => {
  const bug = new Error('late');
  const s = await serve(t, (respond, x) => {
    x.res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    x.res.write('[');
    respond.fail(x, bug);
  });
  await t.rejects(
    request(s.origin).then((res) => res.body.text()),
    'the client sees the answer cut off',
  );
  t.strictSame(s.failed, [bug]);
  t.strictSame(s.answered, [], 'nothing else was answered');
});

t.test('a dropped request gets no answer and is reported with status 0', async (t) => {
  const s = await serve(t, (respond, x) => respond.drop(x));
  await t.rejects(request(s.origin), 'the connection closed without an answer');
  t.match(s.answered, [{ status: 0 }]);
});

t.test('an answer given before the body was read leaves the connection usable for the next request', async (t) => {
  const s = await serve(t, (respond, x) => (x.req.method === 'POST' ? respond.sendError(x, 'unauthorized', 'no key') : respond.send(x, 200, '[]')));
  const client = new Client(s.origin, { pipelining: 1 });
  t.teardown(() => client.close());
  const refused = await client.request({ path: '/', method: 'POST', body: 'x'.repeat(200_000), headers: { 'content-type': 'application/json' } });
  t.equal(refused.statusCode, 401);
  t.not(refused.headers['connection'], 'close');
  await refused.body.text();
  const next = await client.request({ path: '/', method: 'GET' });
  t.equal(next.statusCode, 200);
  t.equal(await next.body.text(), '[]');
  t.equal(s.connections(), 1, 'both on one connection');
});
