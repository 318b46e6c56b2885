// The first step of every request (src/server/dispatch.ts): a pipelined request
// waits for its turn (RFC 9112 §9.3.2), an absolute-form target becomes its origin
// form (§3.2.2), a request without Host or with two is answered 400 (§3.2), and
// the rest go to the page, the control API or the interface, which numbers its own.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import t, { type Test } from 'tap';
import { createClock } from '../../../src/server/clock.js';
import { createDispatch } from '../../../src/server/dispatch.js';
import type { RequestHandler } from '../../../src/server/handler.js';
import { createResponder, type Exchange } from '../../../src/server/respond.js';
import { parseRawResponse, rawExchange } from '../../helpers/raw-socket.js';

type Part = 'interface' | 'control' | 'docs';

interface Handed {
  readonly by: Part;
  readonly x: Exchange;
}

/**
 * A node:http server (Host not required by Node, as createServer's) serving
 * createDispatch over stand-ins of the pipeline, the control API and the page,
 * each recording what it was handed and answering 200 with its name.
 */
async function startDispatch(t: Test, parts: { control?: boolean; docs?: boolean; hold?: (x: Exchange, answer: () => void) => void } = {}) {
  const handed: Handed[] = [];
  const answered: { status: number; code: string | undefined; seq: number }[] = [];
  const respond = createResponder(createClock(), {
    closing: () => false,
    answered: (x, status, code) => answered.push({ status, code, seq: x.seq }),
    failed: () => {},
  });
  const part =
    (by: Part): RequestHandler =>
    (x) => {
      handed.push({ by, x });
      const answer = () => respond.send(x, 200, JSON.stringify({ by, url: x.req.url, seq: x.seq }));
      if (parts.hold) parts.hold(x, answer);
      else answer();
    };
  const dispatch = createDispatch({
    respond,
    handle: part('interface'),
    control: parts.control === false ? undefined : part('control'),
    docs: parts.docs === false ? undefined : part('docs'),
  });
  const server = http.createServer({ requireHostHeader: false }, dispatch);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  /** One request on its own connection, asking it closed after the answer unless `keepAlive`: the target, the header lines, the version. */
  const send = async (target: string, headers = ['Host: example.test'], version = 'HTTP/1.1', keepAlive = false) =>
    parseRawResponse(
      await rawExchange(url, `GET ${target} ${version}\r\n${[...headers, ...(keepAlive ? [] : ['Connection: close'])].map((h) => `${h}\r\n`).join('')}\r\n`),
    );
  return { url, handed, answered, send };
}

t.test('the interface’s requests go to the pipeline, numbered 1, 2, 3 as they come; the control API’s and the page’s go to theirs, numbered 0', async (t) => {
  const s = await startDispatch(t);
  for (const target of ['/v1/pets', '/__control/state', '/docs', '/', '/v1/pets/1', '/docs/openapi.json', '/v1/pets?limit=1']) {
    t.equal((await s.send(target)).status, 200, target);
  }
  t.strictSame(
    s.handed.map(({ by, x }) => [by, x.req.url, x.seq, x.toControl]),
    [
      ['interface', '/v1/pets', 1, false],
      ['control', '/__control/state', 0, true],
      ['docs', '/docs', 0, true],
      ['docs', '/', 0, true],
      ['interface', '/v1/pets/1', 2, false],
      ['docs', '/docs/openapi.json', 0, true],
      ['interface', '/v1/pets?limit=1', 3, false],
    ],
  );
});

t.test('the control API is its prefix alone or followed by / or ?; a longer name is the interface’s', async (t) => {
  const s = await startDispatch(t);
  for (const target of ['/__control', '/__control/', '/__control?x=1', '/__controller', '/__control-state']) await s.send(target);
  t.strictSame(
    s.handed.map(({ by, x }) => [by, x.req.url, x.seq]),
    [
      ['control', '/__control', 0],
      ['control', '/__control/', 0],
      ['control', '/__control?x=1', 0],
      ['interface', '/__controller', 1],
      ['interface', '/__control-state', 2],
    ],
  );
});

t.test('without a control API or a page, their paths are the interface’s, and numbered', async (t) => {
  const s = await startDispatch(t, { control: false, docs: false });
  for (const target of ['/__control/state', '/docs', '/']) await s.send(target);
  t.strictSame(
    s.handed.map(({ by, x }) => [by, x.req.url, x.seq, x.toControl]),
    [
      ['interface', '/__control/state', 1, false],
      ['interface', '/docs', 2, false],
      ['interface', '/', 3, false],
    ],
  );
});

t.test('a target in absolute form is handed on in origin form, path and query (RFC 9112 §3.2.2), the scheme in any case', async (t) => {
  const s = await startDispatch(t);
  await s.send('http://example.test/v1/pets?limit=1');
  await s.send('HTTPS://EXAMPLE.TEST:8443/__control/state');
  await s.send('http://example.test');
  await s.send('/v1/pets?next=http://example.test/x');
  t.strictSame(
    s.handed.map(({ by, x }) => [by, x.req.url]),
    [
      ['interface', '/v1/pets?limit=1'],
      ['control', '/__control/state'],
      ['docs', '/'],
      ['interface', '/v1/pets?next=http://example.test/x'],
    ],
    'and routed by it; an origin-form target is left as it is',
  );
});

t.test('an absolute-form target that is no URL is handed on as sent', async (t) => {
  const s = await startDispatch(t);
  await s.send('http://[bad/v1/pets');
  t.strictSame(
    s.handed.map(({ by, x }) => [by, x.req.url]),
    [['interface', 'http://[bad/v1/pets']],
  );
});

t.test('an HTTP/1.1 request without Host is answered 400 and its connection closed, never handed on; an HTTP/1.0 one is served', async (t) => {
  const s = await startDispatch(t);
  // The request leaves the connection open: the server closes it.
  const r = await s.send('/v1/pets', [], 'HTTP/1.1', true);
  t.equal(r.status, 400);
  t.equal(r.headers['connection'], 'close');
  t.match(JSON.parse(r.text), { code: 'bad_request', message: 'an HTTP/1.1 request must carry a Host header', status: 400 });
  t.strictSame(s.handed, [], 'nothing handed on');
  t.strictSame(s.answered, [{ status: 400, code: 'bad_request', seq: 1 }], 'answered as the interface’s request 1');
  t.equal((await s.send('/v1/pets', [], 'HTTP/1.0')).status, 200, 'HTTP/1.0 has no Host to require');
  t.strictSame(
    s.handed.map(({ by, x }) => [by, x.seq]),
    [['interface', 2]],
  );
});

t.test('a request with two Host fields is answered 400 and its connection closed, to the control API too', async (t) => {
  const s = await startDispatch(t);
  for (const target of ['/v1/pets', '/__control/state']) {
    const r = await s.send(target, ['Host: example.test', 'host: other.test'], 'HTTP/1.1', true);
    t.equal(r.status, 400, target);
    t.equal(r.headers['connection'], 'close');
    t.match(JSON.parse(r.text), { code: 'bad_request', message: 'a request carries one Host header, not several' });
  }
  t.strictSame(s.handed, [], 'nothing handed on');
  t.strictSame(
    s.answered.map((a) => a.seq),
    [1, 0],
    'numbered as any request',
  );
});

t.test('every Exchange is made with every field, those the pipeline fills in unset, and the time it arrived', async (t) => {
  const s = await startDispatch(t);
  const before = performance.now();
  await s.send('/v1/pets');
  const after = performance.now();
  const x = s.handed[0]?.x as Exchange;
  t.strictSame(Object.keys(x).sort(), [
    'arrived',
    'culprit',
    'findingCodes',
    'findings',
    'headers',
    'hints',
    'operation',
    'req',
    'requestBody',
    'res',
    'seq',
    'toControl',
  ]);
  for (const field of ['headers', 'requestBody', 'operation', 'culprit', 'findings', 'findingCodes', 'hints'] as const) {
    t.equal(x[field], undefined, `${field} unset`);
  }
  t.ok(x.arrived >= before && x.arrived <= after, 'arrived: performance.now() when it was handed over');
});

t.test('a pipelined request waits for the answer before it: the second is handed on only once the first is answered', async (t) => {
  const order: string[] = [];
  const s = await startDispatch(t, {
    // The first answers a turn later; the second records whether the first was answered by then.
    hold: (x, answer) => {
      if (x.req.url === '/v1/first') {
        order.push('first handed on');
        setImmediate(() => {
          answer();
          order.push('first answered');
        });
      } else {
        order.push('second handed on');
        answer();
      }
    },
  });
  const raw = await rawExchange(
    s.url,
    'GET /v1/first HTTP/1.1\r\nHost: example.test\r\n\r\nGET /v1/second HTTP/1.1\r\nHost: example.test\r\nConnection: close\r\n\r\n',
  );
  t.strictSame(order, ['first handed on', 'first answered', 'second handed on']);
  const bodies = raw
    .split('HTTP/1.1 ')
    .slice(1)
    .map((one) => parseRawResponse(`HTTP/1.1 ${one}`));
  t.strictSame(
    bodies.map((b) => [b.status, JSON.parse(b.text).url, JSON.parse(b.text).seq]),
    [
      [200, '/v1/first', 1],
      [200, '/v1/second', 2],
    ],
    'both answered, in order, numbered in order',
  );
});
