// conformance/round-trip.ts: one request through an undici dispatcher and its whole answer (the final status, the
// fields by lower-case name with a repeated one joined by ", " as RFC 9110 §5.3 allows, the body's exact bytes), the
// read stopped with TooLarge once the body passes maxResponseBytes; and what kept a request from any answer, in words.
// The client's use of it (its TransportError messages) is tested in test/conformance/client/safety.test.ts.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as net from 'node:net';
import t, { type Test } from 'tap';
import { Agent, errors as undiciErrors } from 'undici';
import { describeTransportError, roundTrip, TooLarge } from '../../conformance/round-trip.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

/** A plain node:http server on 127.0.0.1 and an ephemeral port, and an agent to reach it: both closed after the test. */
async function target(t: Test, answer: (req: http.IncomingMessage, res: http.ServerResponse) => void, agentOptions: Agent.Options = {}) {
  const received: Received[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(parts) });
      answer(req, res);
    });
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new Agent(agentOptions);
  t.teardown(async () => {
    await agent.destroy();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, agent, received };
}

t.test('the request goes out as given: method, path with its query, each field (a repeated one line by line) and the body', async (t) => {
  const { origin, agent, received } = await target(t, (_req, res) => res.writeHead(201).end());
  const body = '{"name":"Rex 🐈","categoryId":9223372036854775807}';
  const answer = await roundTrip(
    agent,
    origin,
    '/v1/pets?limit=5',
    { method: 'POST', headers: { 'content-type': 'application/json', 'x-twice': ['one', 'two'] }, body },
    1000,
  );
  t.equal(answer.status, 201);
  t.equal(received.length, 1);
  const [got] = received;
  t.equal(got?.method, 'POST');
  t.equal(got?.url, '/v1/pets?limit=5', 'the path given, with its query');
  t.equal(got?.headers['content-type'], 'application/json');
  const twice = got?.rawHeaders.flatMap((v, i, all) => (i % 2 === 0 && v.toLowerCase() === 'x-twice' ? [all[i + 1]] : []));
  t.same(twice, ['one', 'two'], 'a field given twice is sent as two lines, in order');
  t.equal(got?.body.toString('utf8'), body, 'the body byte for byte');
});

t.test('a request without a body sends none', async (t) => {
  const { origin, agent, received } = await target(t, (_req, res) => res.writeHead(204).end());
  const answer = await roundTrip(agent, origin, '/v1/pets/1', { method: 'DELETE', headers: {} }, 1000);
  t.equal(answer.status, 204);
  t.equal(received[0]?.body.length, 0);
  t.equal(received[0]?.headers['content-length'], undefined, 'no Content-Length');
  t.equal(received[0]?.headers['transfer-encoding'], undefined, 'and no chunked body');
  t.equal(answer.bytes.length, 0, 'no bytes answered');
});

t.test('the answer is whole: its status, its fields by lower-case name with a repeated one joined by ", ", its bytes as sent', async (t) => {
  // Bytes that are not UTF-8, written in three parts: what arrives is what was written, in order.
  const parts = [Buffer.from([0xff, 0x00, 0xfe]), Buffer.from('{"a":'), Buffer.from([0xc3, 0x28, 0x7d])];
  const { origin, agent } = await target(t, (_req, res) => {
    res.setHeader('X-Repeated', ['one', 'two', 'three']);
    res.setHeader('ETag', '"v1"');
    res.writeHead(299, { 'Content-Type': 'application/octet-stream' });
    res.write(parts[0]);
    res.write(parts[1]);
    res.end(parts[2]);
  });
  const answer = await roundTrip(agent, origin, '/v1/pets', { method: 'GET', headers: {} }, 1000);
  t.equal(answer.status, 299, 'a status as it came, even one no RFC names');
  t.equal(answer.headers['x-repeated'], 'one, two, three');
  t.equal(answer.headers['etag'], '"v1"');
  t.equal(answer.headers['content-type'], 'application/octet-stream');
  t.notOk('Content-Type' in answer.headers, 'no field under its written case');
  t.ok(answer.bytes.equals(Buffer.concat(parts)), `the bytes as written: ${answer.bytes.toString('hex')}`);
});

t.test('only the final answer counts: fields of a 103 before it are not among its fields', async (t) => {
  const { origin, agent } = await target(t, (_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload', 'x-early': 'yes' });
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  const answer = await roundTrip(agent, origin, '/v1/pets', { method: 'GET', headers: {} }, 1000);
  t.equal(answer.status, 200);
  t.equal(answer.headers['x-early'], undefined, 'the 103 fields are gone');
  t.equal(answer.headers['link'], undefined);
  t.equal(answer.bytes.toString(), '[]');
});

t.test('a body of exactly maxResponseBytes is read; one byte more stops the read with TooLarge', async (t) => {
  const { origin, agent } = await target(t, (req, res) => {
    const size = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('size'));
    res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.alloc(size, 0x20));
  });
  const get = (size: number) => roundTrip(agent, origin, `/v1/pets?size=${size}`, { method: 'GET', headers: {} }, 1000);
  const whole = await get(1000);
  t.equal(whole.bytes.length, 1000, 'exactly the limit: read whole');
  const error = await get(1001).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(error instanceof TooLarge, `one byte past it: TooLarge (got ${String(error)})`);
  // The agent is still usable after the read it stopped.
  t.equal((await get(3)).bytes.length, 3);
});

t.test('what kept a request from its answer, each in words that name it', async (t) => {
  const coded = (code: string, message = 'm') => Object.assign(new Error(message), { code });
  const wrapped = (code: string, message: string) => Object.assign(new TypeError('fetch failed'), { cause: coded(code, message) });
  t.equal(describeTransportError(new undiciErrors.HeadersTimeoutError(), 500), 'no answer within 500 ms');
  t.equal(describeTransportError(new undiciErrors.BodyTimeoutError(), 750), 'no answer within 750 ms');
  t.equal(describeTransportError(new undiciErrors.ConnectTimeoutError(), 10_000), 'no answer within 10000 ms');
  t.equal(describeTransportError(coded('ECONNREFUSED'), 500), 'the connection was refused');
  t.equal(describeTransportError(coded('ECONNRESET'), 500), 'the connection was reset or closed before a complete answer');
  t.equal(describeTransportError(coded('UND_ERR_SOCKET'), 500), 'the connection was reset or closed before a complete answer');
  t.equal(describeTransportError(wrapped('ENOTFOUND', 'getaddrinfo ENOTFOUND pets.invalid'), 500), 'the host name does not resolve', 'the code of a cause');
  t.equal(describeTransportError(coded('EPIPE', 'write EPIPE'), 500), 'EPIPE: write EPIPE', 'any other code, with its message');
  t.equal(describeTransportError(new Error('gone'), 500), 'transport error: gone', 'no code at all');
});

t.test('a certificate the run cannot verify names the two ways out; another TLS error is named without them', async (t) => {
  for (const code of [
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  ]) {
    const text = describeTransportError(Object.assign(new Error('cert problem'), { code }), 500);
    t.ok(text.startsWith(`TLS error: ${code} (cert problem); `), `${code}: named, with its message`);
    t.match(text, /--ca FILE \(or NODE_EXTRA_CA_CERTS=FILE\).*--insecure/, `${code}: --ca and --insecure offered`);
  }
  const wrongVersion = describeTransportError(
    Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error('wrong version number'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }) }),
    500,
  );
  t.equal(wrongVersion, 'TLS error: ERR_SSL_WRONG_VERSION_NUMBER (fetch failed)', 'a TLS error that no CA would fix');
});

t.test('what roundTrip rejects with for a connection reset, and for a server that never answers, is described as such', async (t) => {
  const reset = await target(t, (req) => req.socket.resetAndDestroy());
  const resetError = await roundTrip(reset.agent, reset.origin, '/v1/pets', { method: 'GET', headers: {} }, 1000).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.equal(describeTransportError(resetError, 500), 'the connection was reset or closed before a complete answer');
  // The server never answers: the agent's own headers timeout ends the wait, whatever the machine's speed.
  const silent = await target(t, () => {}, { headersTimeout: 200 });
  const silentError = await roundTrip(silent.agent, silent.origin, '/v1/pets', { method: 'GET', headers: {} }, 1000).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.equal(describeTransportError(silentError, 200), 'no answer within 200 ms');
});
