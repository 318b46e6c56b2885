import t, { type Test } from 'tap';
import { createServer, type ServerOptions } from '../../../src/server/index.js';
import type { Exchange } from '../../../src/server/respond.js';

interface Passed {
  readonly method: string;
  readonly url: string;
  readonly operationId: string | undefined;
  readonly head: string | undefined;
  readonly cut: boolean;
  readonly rest: string;
}

/** A server in front of a relay that answers 299 and tells what it was handed. */
async function relayed(t: Test, refuseInvalid: boolean, options: Omit<ServerOptions, 'relay' | 'store'> = {}) {
  const passed: Passed[] = [];
  const server = createServer({
    ...options,
    relay: {
      refuseInvalid,
      forward(x: Exchange, { answered }) {
        const rest: Buffer[] = [];
        const done = () => {
          passed.push({
            method: x.req.method ?? '',
            url: x.req.url ?? '',
            operationId: x.operation?.operationId,
            head: x.requestBody?.toString(),
            cut: x.bodyCut === true,
            rest: Buffer.concat(rest).toString(),
          });
          x.res.writeHead(299, ['content-length', 0]);
          x.res.end();
          answered(x, 299);
        };
        if (x.req.complete || x.req.readableEnded) return done();
        x.req.on('data', (chunk: Buffer) => rest.push(chunk)).on('end', done);
        x.req.resume();
      },
    },
  });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  return { server, url, passed, origin: new URL(url).origin };
}

const send = async (url: string, init: RequestInit = {}) => {
  const res = await fetch(url, init);
  return { status: res.status, text: await res.text() };
};
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

t.test('what the stand-in accepts is handed to the relay, with any Bearer key when no key is configured', async (t) => {
  const { url, passed, server } = await relayed(t, false);
  t.equal((await send(`${url}/pets?limit=2`, { headers: bearer('whatever-the-upstream-takes') })).status, 299);
  t.equal(
    (await send(`${url}/pets`, { method: 'POST', headers: { ...bearer('k'), 'content-type': 'application/json' }, body: '{"name":"a","categoryId":1}' }))
      .status,
    299,
  );
  t.same(
    passed.map((p) => [p.method, p.operationId, p.head ?? null]),
    [
      ['GET', 'listPets', null],
      ['POST', 'createPet', '{"name":"a","categoryId":1}'],
    ],
  );
  t.same(server.findings.list(), [], 'no finding for what the interface allows');
  t.equal(server.store.count(), 0, 'the store is never asked');
});

t.test('a refusal of what the client got wrong is noted and passed on; with refuseInvalid it is answered', async (t) => {
  for (const refuseInvalid of [false, true]) {
    const { url, passed, server } = await relayed(t, refuseInvalid);
    const keyless = await send(`${url}/pets`);
    const invalid = await send(`${url}/pets`, { method: 'POST', headers: { ...bearer('k'), 'content-type': 'application/json' }, body: '{"name":1}' });
    const unknownRoute = await send(`${url}/animals`, { headers: bearer('k') });
    t.same(
      [keyless.status, invalid.status, unknownRoute.status],
      refuseInvalid ? [401, 400, 404] : [299, 299, 299],
      refuseInvalid ? 'answered as the stand-in answers' : 'passed on',
    );
    t.equal(passed.length, refuseInvalid ? 0 : 3);
    t.same(
      server.findings.list().map((f) => f.code),
      ['unauthorized', 'invalid_body', 'route_not_found'],
      'noted either way',
    );
    if (!refuseInvalid) t.equal(passed[1]?.head, '{"name":1}', 'the body read for the check is passed on');
  }
});

t.test('a body longer than the limit is passed on as its head and the rest still unread', async (t) => {
  const { url, passed, server } = await relayed(t, false, { limits: { maxBodyBytes: 16 } });
  const body = JSON.stringify({ name: 'x'.repeat(100_000), categoryId: 1 });
  // Chunked, so that the limit is passed while reading, not told by Content-Length.
  const stream = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(body));
      controller.close();
    },
  });
  const answer = await send(`${url}/pets`, {
    method: 'POST',
    headers: { ...bearer('k'), 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  t.equal(answer.status, 299);
  t.equal(passed[0]?.cut, true);
  t.equal((passed[0]?.head ?? '') + (passed[0]?.rest ?? ''), body, 'head and rest make the whole body');
  t.same(
    server.findings.list().map((f) => f.code),
    ['payload_too_large'],
  );
});

t.test('OPTIONS is the relay’s; the control API, the page and injected faults are answered by the server itself', async (t) => {
  const { url, origin, passed, server } = await relayed(t, false);
  t.equal((await send(`${url}/pets`, { method: 'OPTIONS' })).status, 299);
  t.equal((await send(`${origin}/__control/findings`)).status, 401, 'the control API keeps its own key');
  server.faults.set('listPets', { status: 503, errorRate: 1, dropRate: 0, latencyMs: 0 });
  t.equal((await send(`${url}/pets`, { headers: bearer('k') })).status, 503, 'a fault is the operator’s doing: answered, not passed on');
  t.same(
    passed.map((p) => p.method),
    ['OPTIONS'],
  );
});

t.test('CONNECT, which asks a proxy for a tunnel, is refused as the stand-in refuses it, never passed on', async (t) => {
  const { url, passed } = await relayed(t, false);
  const { connect } = await import('node:net');
  const { port } = new URL(url);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write('CONNECT /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer k\r\n\r\n'));
    let text = '';
    socket
      .on('data', (chunk: Buffer) => (text += chunk.toString()))
      .on('end', () => resolve(text))
      .on('error', reject);
  });
  t.match(answer, /^HTTP\/1\.1 405 /);
  t.equal(passed.length, 0);
});
