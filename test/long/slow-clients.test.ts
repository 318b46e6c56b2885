// Slow and abusive clients (decision D11): a client trickling its headers or
// its body is cut off with 408 once the headers or the request take too long,
// while other clients are served meanwhile; idle keep-alive connections are
// closed; beyond the connection cap new connections are closed unanswered.
// The limits are made small here so the test takes seconds, not minutes.
import net from 'node:net';
import t from 'tap';
import { request as undiciRequest } from 'undici';
import { startTestServer } from '../helpers/server.js';
import { errorBodyProblems, parseResponses, request, sleep } from '../hostile/wire.js';

interface Trickler {
  /** Resolves with what the server sent and when it closed, in ms after the start. */
  readonly done: Promise<{ data: Buffer; closedAfterMs: number; bytesSent: number }>;
}

/** Opens a connection and writes `text` one byte every `everyMs`, until the server closes it or `maxMs` passes. */
function trickle(port: number, text: string, everyMs: number, maxMs: number): Trickler {
  const started = Date.now();
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  let sent = 0;
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => {});
  const timer = setInterval(() => {
    if (sent < text.length && socket.writable) socket.write(text[sent++] as string);
  }, everyMs);
  const giveUp = setTimeout(() => socket.destroy(), maxMs);
  const done = new Promise<{ data: Buffer; closedAfterMs: number; bytesSent: number }>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ data: Buffer.concat(chunks), closedAfterMs: Date.now() - started, bytesSent: sent });
    }),
  );
  return { done };
}

t.test('a client trickling its headers is cut off with 408 after headersTimeout, while another client is served meanwhile', async (t) => {
  const { url, key, server } = await startTestServer(t, { limits: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } });
  const port = Number(new URL(url).port);
  const slow = trickle(port, request('GET', '/v1/pets', [`Authorization: Bearer ${key}`, `X-Pad: ${'a'.repeat(200)}`]), 50, 5_000);

  // Meanwhile a normal client is served, again and again, until the trickler is cut off.
  let cutOff = false;
  void slow.done.then(() => (cutOff = true));
  let served = 0;
  while (!cutOff && served < 100) {
    const res = await undiciRequest(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } });
    await res.body.text();
    if (res.statusCode === 200 && !cutOff) served++;
    await sleep(50);
  }
  t.ok(served >= 3, `another client was served ${served} times while the trickling one was connected`);

  const cut = await slow.done;
  t.ok(cut.closedAfterMs < 2_000, `the trickling client was cut off after ${cut.closedAfterMs} ms`);
  t.ok(cut.bytesSent < 100, `before it could send its headers (${cut.bytesSent} bytes sent)`);
  const { responses, problems } = parseResponses(cut.data);
  t.strictSame(problems, []);
  t.strictSame(
    responses.map((r) => r.status),
    [408],
    'it was told why: 408',
  );
  if (responses[0]) t.strictSame(errorBodyProblems(responses[0]), [], 'with an Error body (request_timeout)');
  t.equal(server.store.size, 0);
});

t.test('fifty trickling clients at once are all cut off, and a normal client is still served', async (t) => {
  const { url, key } = await startTestServer(t, { limits: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } });
  const port = Number(new URL(url).port);
  const slow = Array.from({ length: 50 }, () => trickle(port, request('GET', '/v1/pets', [`X-Pad: ${'b'.repeat(500)}`]), 20, 5_000));
  await sleep(200);
  const res = await undiciRequest(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } });
  await res.body.text();
  t.equal(res.statusCode, 200, 'a normal request is answered while fifty trickle');
  const results = await Promise.all(slow.map((s) => s.done));
  t.ok(
    results.every((r) => r.closedAfterMs < 2_500),
    `all fifty were cut off (last after ${Math.max(...results.map((r) => r.closedAfterMs))} ms)`,
  );
  t.ok(
    results.every((r) => parseResponses(r.data).responses[0]?.status === 408),
    'each was answered 408',
  );
});

t.test('a client trickling its body is cut off with 408 after requestTimeout, and nothing is created', async (t) => {
  const { url, key, server } = await startTestServer(t, { limits: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } });
  const port = Number(new URL(url).port);
  const body = JSON.stringify({ name: 'Slowpoke', categoryId: 1, padding: 'c'.repeat(400) });
  const post = request('POST', '/v1/pets', [`Authorization: Bearer ${key}`, 'Content-Type: application/json'], body);
  const headEnd = post.indexOf('\r\n\r\n') + 4;
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.write(post.slice(0, headEnd)); // the headers at once, in time
  const started = Date.now();
  let sent = headEnd;
  const timer = setInterval(() => {
    if (sent < post.length && socket.writable) socket.write(post[sent++] as string);
  }, 20);
  await new Promise((resolve) => socket.on('close', resolve));
  clearInterval(timer);
  const closedAfter = Date.now() - started;
  t.ok(closedAfter < 2_500, `cut off after ${closedAfter} ms`);
  t.ok(sent < post.length, `before the body was complete (${sent - headEnd} of ${body.length} bytes)`);
  const { responses } = parseResponses(Buffer.concat(chunks));
  t.strictSame(
    responses.map((r) => r.status),
    [408],
    'answered 408',
  );
  t.equal(server.store.size, 0, 'nothing was created from half a body');
});

t.test('an idle keep-alive connection is closed after keepAliveTimeout', async (t) => {
  const { url, key } = await startTestServer(t, { limits: { keepAliveTimeoutMs: 1000 } });
  const port = Number(new URL(url).port);
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.write(request('GET', '/v1/pets', [`Authorization: Bearer ${key}`]));
  const started = Date.now();
  await new Promise((resolve) => socket.on('close', resolve));
  const idle = Date.now() - started;
  t.strictSame(
    parseResponses(Buffer.concat(chunks)).responses.map((r) => r.status),
    [200],
    'the request was answered',
  );
  t.match(Buffer.concat(chunks).toString(), /\r\nKeep-Alive: timeout=1\r\n/, 'and the answer said how long the connection stays open');
  // Node keeps the socket one second longer than it announces, so that the
  // client, not the server, closes an idle connection and no request is lost
  // in the race between the two.
  t.ok(idle >= 900 && idle < 3_000, `then the idle connection was closed after ${idle} ms`);
});

t.test('beyond maxConnections a new connection is closed unanswered; those already open keep working', async (t) => {
  const { url, key } = await startTestServer(t, { limits: { maxConnections: 5, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 10_000 } });
  const port = Number(new URL(url).port);
  const open = await Promise.all(
    Array.from(
      { length: 5 },
      () =>
        new Promise<net.Socket>((resolve) => {
          const s = net.connect(port, '127.0.0.1', () => resolve(s));
          s.on('error', () => {});
        }),
    ),
  );
  t.teardown(() => {
    for (const s of open) s.destroy();
  });
  await sleep(100);
  const extra = await new Promise<{ data: string; closed: boolean }>((resolve) => {
    let data = '';
    const s = net.connect(port, '127.0.0.1', () => s.write(request('GET', '/v1/pets', [`Authorization: Bearer ${key}`])));
    s.on('data', (c: Buffer) => (data += c.toString()));
    s.on('error', () => {});
    s.on('close', () => resolve({ data, closed: true }));
    setTimeout(() => {
      s.destroy();
      resolve({ data, closed: false });
    }, 2_000);
  });
  t.ok(extra.closed, 'the sixth connection is closed by the server');
  t.equal(extra.data, '', 'without an answer (an answer would have to be a 5xx)');

  const first = open[0] as net.Socket;
  const answer = new Promise<string>((resolve) => {
    let data = '';
    first.on('data', (c: Buffer) => {
      data += c.toString();
      if (parseResponses(Buffer.from(data)).responses.length === 1) resolve(data);
    });
  });
  first.write(request('GET', '/v1/pets', [`Authorization: Bearer ${key}`]));
  t.match(await answer, /^HTTP\/1\.1 200 /, 'a connection opened before the cap was reached is still served');

  for (const s of open.splice(0, 2)) s.destroy();
  await sleep(100);
  const res = await undiciRequest(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } });
  await res.body.text();
  t.equal(res.statusCode, 200, 'once connections close, new ones are served again');
});

t.test('clients that are cut off but never read nor close do not keep their places under maxConnections', async (t) => {
  const { url, key, server } = await startTestServer(t, { limits: { maxConnections: 5, headersTimeoutMs: 500, requestTimeoutMs: 1000 } });
  const port = Number(new URL(url).port);
  // Five connections that fill the cap: trickling, half a request, garbage, and
  // nothing at all. None has a 'data' listener, so none reads its answer or the
  // server's FIN, and none closes.
  const sockets = [
    'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX: ',
    'GET /v1/pets HTTP/1.1\r\nHost: x\r\n',
    'GARBAGE\r\n\r\n',
    '',
    'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{',
  ].map((text) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(text));
    s.on('error', () => {});
    s.pause();
    return s;
  });
  const trickler = setInterval(() => sockets[0]?.writable && sockets[0].write('a'), 50);
  t.teardown(() => {
    clearInterval(trickler);
    for (const s of sockets) s.destroy();
  });
  await sleep(300);
  const count = () => new Promise<number>((resolve) => server.http.getConnections((_e, n) => resolve(n)));
  t.equal(await count(), 5, 'the five hold every place');
  const started = Date.now();
  while ((await count()) > 0 && Date.now() - started < 6_000) await sleep(100);
  t.equal(await count(), 0, `the server closed all five itself, after ${Date.now() - started} ms`);
  const res = await undiciRequest(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } });
  await res.body.text();
  t.equal(res.statusCode, 200, 'and a new client is served');
});
