import http from 'node:http';
import t, { type Test } from 'tap';
import { startProxy } from '../../proxy/index.js';

interface Heard {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: string[];
  readonly body: string;
}

/** An upstream that records what it heard and answers with `answer`. */
async function recordingUpstream(t: Test, answer: (res: http.ServerResponse) => void) {
  const heard: Heard[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      heard.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString() });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1`, heard };
}

const field = (raw: readonly string[], name: string) => raw.flatMap((value, i) => (i % 2 === 0 && value.toLowerCase() === name ? [raw[i + 1]] : []));

const json = (res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), date: new Date().toUTCString(), ...headers });
  res.end(body);
};

t.test('the request goes as the client sent it, less the fields of its connection, with Via (RFC 9110 §7.6.1, §7.6.3)', async (t) => {
  const upstream = await recordingUpstream(t, (res) => json(res, 200, '[]'));
  const proxy = await startProxy({ upstream: upstream.url, headers: { 'X-Gateway-Key': 'from-the-proxy' } });
  t.teardown(() => proxy.close());
  // node:http, since fetch will not send a Connection field of the caller's.
  const res = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http
      .get(
        `${proxy.url}/pets?limit=5&status=sold`,
        {
          headers: {
            authorization: 'Bearer k',
            connection: 'keep-alive, x-hop',
            'x-hop': 'this connection only',
            'x-forwarded-for': '10.0.0.1',
            'x-gateway-key': 'from-the-client',
            via: '1.1 client-side-proxy',
          },
          agent: false,
        },
        resolve,
      )
      .on('error', reject),
  );
  res.resume();
  const [heard] = upstream.heard;
  t.equal(heard?.method, 'GET');
  t.equal(heard?.url, '/api/v1/pets?limit=5&status=sold', "the upstream's base path in place of the proxy's, the query as sent");
  const raw = heard?.rawHeaders ?? [];
  t.same(field(raw, 'authorization'), ['Bearer k'], 'the key is passed on');
  t.same(field(raw, 'x-forwarded-for'), ['10.0.0.1'], 'forwarding fields as the client sent them, none added');
  t.same(field(raw, 'x-hop'), [], 'a field the Connection field names is not passed on');
  t.same(field(raw, 'x-gateway-key'), ['from-the-proxy'], '--header replaces the client’s field of that name');
  t.same(field(raw, 'via'), ['1.1 client-side-proxy, 1.1 petstore-proxy']);
  t.match(field(raw, 'host')[0], /^127\.0\.0\.1:\d+$/, "the upstream's own host");
  t.equal(res.headers['via'], '1.1 petstore-proxy', 'the answer says it came through the proxy');
});

t.test("the answer's fields pass back, less those of the upstream's connection", async (t) => {
  const upstream = await recordingUpstream(t, (res) => json(res, 200, '[]', { 'x-trace': 'abc', 'keep-alive': 'timeout=9', 'petstore-finding': 'forged' }));
  const proxy = await startProxy({ upstream: upstream.url });
  t.teardown(() => proxy.close());
  const res = await fetch(`${proxy.url}/pets`, { headers: { authorization: 'Bearer k' } });
  await res.text();
  t.equal(res.headers.get('x-trace'), 'abc');
  t.not(res.headers.get('keep-alive'), 'timeout=9', "the upstream's keep-alive is its connection's");
  t.equal(res.headers.get('petstore-finding'), null, 'an upstream cannot put words in the proxy’s mouth');
});

t.test('a client that goes away mid-answer does not leave the proxy waiting or failing', async (t) => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const upstream = await recordingUpstream(t, (res) => void held.then(() => json(res, 200, '[]')));
  const proxy = await startProxy({ upstream: upstream.url });
  t.teardown(() => proxy.close());
  const abort = new AbortController();
  const gone = fetch(`${proxy.url}/pets`, { headers: { authorization: 'Bearer k' }, signal: abort.signal }).catch((error: Error) => error.name);
  while (upstream.heard.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  abort.abort();
  t.equal(await gone, 'AbortError');
  release();
  const next = await fetch(`${proxy.url}/pets`, { headers: { authorization: 'Bearer k' } });
  t.equal(next.status, 200, 'the proxy goes on serving');
  await next.text();
});

t.test("a redirect to the upstream's own URL sends the client to the proxy's, and a chunked body stays chunked", async (t) => {
  let upstreamUrl = '';
  const upstream = await recordingUpstream(t, (res) => {
    res.writeHead(307, { location: `${upstreamUrl}/pets/`, 'content-length': 0, date: new Date().toUTCString() });
    res.end();
  });
  upstreamUrl = upstream.url;
  const proxy = await startProxy({ upstream: upstream.url });
  t.teardown(() => proxy.close());
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"name":"a","categoryId":1}'));
      controller.close();
    },
  });
  const res = await fetch(`${proxy.url}/pets`, {
    method: 'POST',
    redirect: 'manual',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);
  await res.text();
  t.equal(res.headers.get('location'), `${proxy.url}/pets/`, 'the client stays behind the proxy');
  const heard = upstream.heard[0]!;
  t.same(field(heard.rawHeaders, 'transfer-encoding'), ['chunked'], 'the framing the client chose');
  t.same(field(heard.rawHeaders, 'content-length'), []);
  t.equal(heard.body, '{"name":"a","categoryId":1}');
});

t.test(
  "an upstream's answer before the request's body has all arrived closes the client's connection, rather than leaving it waiting (RFC 9112 §9.6)",
  async (t) => {
    const net = await import('node:net');
    // The upstream refuses the body at its first bytes, as a server with a small body limit does, and closes.
    const upstream = http.createServer((req, res) => {
      req.once('data', () => json(res, 413, '{"code":"too_large","message":"too large","status":413}', { connection: 'close' }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    t.teardown(() => {
      upstream.closeAllConnections();
      upstream.close();
    });
    const proxy = await startProxy({ upstream: `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v1` });
    t.teardown(() => proxy.close());
    const { port } = new URL(proxy.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let heard = '';
    socket.on('data', (chunk: Buffer) => (heard += chunk.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    // More than the stand-in's body limit, a chunk at a time, stopping once the answer has come.
    for (let sent = 0; sent < 64 && heard === '' && !socket.destroyed; sent++) {
      socket.write(`10000\r\n${'a'.repeat(0x10000)}\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Within seconds, not the server's request timeout (minutes), which is what a client was left waiting on.
    const gone = await Promise.race([closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000))]);
    socket.destroy();
    t.ok(gone, 'the proxy closed the connection');
    t.match(heard, /^HTTP\/1\.1 413 /, "the upstream's 413 came back");
    t.match(heard, /\r\nconnection: close\r\n/i, 'saying the connection closes');
  },
);

t.test('a 304 that gives the Content-Length its 200 would have passes back as a 304, not a broken answer (RFC 9110 §8.6)', async (t) => {
  const upstream = await recordingUpstream(t, (res) => {
    res.writeHead(304, { etag: '"a"', 'content-length': '5000', date: new Date().toUTCString() });
    res.end();
  });
  const proxy = await startProxy({ upstream: upstream.url });
  t.teardown(() => proxy.close());
  const answer = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(`${proxy.url}/pets`, { headers: { authorization: 'Bearer k', 'if-none-match': '"a"' } }, resolve).on('error', reject),
  );
  answer.resume();
  t.equal(answer.statusCode, 304);
  t.equal(answer.headers['content-length'], '5000', 'its fields as the upstream gave them');
  t.equal(answer.headers['etag'], '"a"');
});

t.test('a client that stops reading a streamed answer is let go after --timeout, and so is the upstream request it held', async (t) => {
  const net = await import('node:net');
  let upstreamClosed!: () => void;
  const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
  // An answer far larger than the judging limit and than any socket buffer: it streams, and stalls on a client that does not read.
  const upstream = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(256 * 2 ** 20), date: new Date().toUTCString() });
    const chunk = Buffer.alloc(64 * 1024, 120);
    const pump = () => {
      while (res.write(chunk));
      res.once('drain', pump);
    };
    res.on('close', () => upstreamClosed());
    pump();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    upstream.closeAllConnections();
    upstream.close();
  });
  const proxy = await startProxy({ upstream: `http://127.0.0.1:${(upstream.address() as { port: number }).port}/v1`, maxJudgedBytes: 1024, timeoutMs: 1_000 });
  t.teardown(() => proxy.close());
  const client = net.connect(Number(new URL(proxy.url).port), '127.0.0.1');
  client.on('error', () => {});
  client.pause();
  const clientClosed = new Promise<void>((resolve) => client.on('close', () => resolve()));
  client.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n\r\n');
  // Within seconds of the 1 s timeout, not never: without the bound both stayed open as long as the client did.
  const within = (done: Promise<void>) => Promise.race([done.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000))]);
  t.ok(await within(closed), "the upstream's request was given up");
  let received = 0;
  client.on('data', (chunk: Buffer) => (received += chunk.length));
  client.resume();
  t.ok(await within(clientClosed), "and the client's connection closed");
  t.ok(received < 256 * 2 ** 20, `cut short: ${received} bytes of the answer's ${256 * 2 ** 20}`);
  client.destroy();
});
