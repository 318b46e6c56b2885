// Pipelined and half-closed connections (decision D14): requests sent back
// to back on one connection are answered in order; a client that half-closes
// after its request still gets every answer; a request the parser refuses is
// answered 400 after the answers to the complete requests before it.
import net from 'node:net';
import t, { type Test } from 'tap';
import { startTestServer } from '../helpers/server.js';
import { errorBodyProblems, parseResponses, request, send, sleep } from './wire.js';

const JSON_TYPE = 'Content-Type: application/json';

async function setup(t: Test) {
  const { server, url, key } = await startTestServer(t);
  return { server, port: Number(new URL(url).port), auth: `Authorization: Bearer ${key}` };
}

t.test('requests sent in one write on one connection are answered in order', async (t) => {
  const { port, auth } = await setup(t);
  const requests = [
    request('POST', '/v1/pets', [auth, JSON_TYPE], '{"name":"First","categoryId":1}'),
    request('GET', '/v1/pets/1', [auth]),
    request('GET', '/v1/pets', []),
    request('POST', '/v1/pets', [auth, JSON_TYPE], '{"name":"Second","categoryId":9223372036854775807,"status":"sold"}'),
    request('GET', '/v1/nowhere', [auth]),
    request('DELETE', '/v1/pets', [auth]),
    request('POST', '/v1/pets', [auth, JSON_TYPE], '{"name":1}'),
    request('HEAD', '/v1/pets/2', [auth]),
    request('GET', '/v1/pets?status=sold', [auth, 'Connection: close']),
  ];
  const exchange = await send(port, requests.join(''), { end: false });
  const { responses, problems } = parseResponses(exchange.data, [false, false, false, false, false, false, false, true, false]);
  t.strictSame(problems, [], 'the answers parse as HTTP/1.1');
  t.strictSame(
    responses.map((r) => r.status),
    [201, 200, 401, 201, 404, 405, 400, 200, 200],
    'one answer per request, in order',
  );
  t.equal(responses[0]?.body.toString(), '{"id":1,"name":"First","categoryId":1}');
  t.equal(responses[1]?.body.toString(), responses[0]?.body.toString(), 'getPet, pipelined right after the create, finds it');
  t.equal(responses[8]?.body.toString(), '[{"id":2,"name":"Second","categoryId":9223372036854775807,"status":"sold"}]');
  for (const r of [responses[2], responses[4], responses[5], responses[6]]) if (r) t.strictSame(errorBodyProblems(r), [], `${r.status}: an Error body`);
  t.ok(exchange.closed, 'Connection: close on the last request closes the connection');
});

t.test('a body sent in parts, with the next request right behind it, keeps the order', async (t) => {
  const { port, auth } = await setup(t);
  const post = request('POST', '/v1/pets', [auth, JSON_TYPE], '{"name":"Slow","categoryId":5}');
  const split = post.length - 10;
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  const closed = new Promise((resolve) => socket.on('close', resolve));
  socket.write(post.slice(0, split));
  await sleep(150);
  t.equal(chunks.length, 0, 'nothing is answered before the body is complete');
  socket.write(post.slice(split) + request('GET', '/v1/pets/1', [auth, 'Connection: close']));
  await closed;
  const { responses, problems } = parseResponses(Buffer.concat(chunks));
  t.strictSame(problems, []);
  t.strictSame(
    responses.map((r) => r.status),
    [201, 200],
  );
  t.equal(responses[1]?.body.toString(), '{"id":1,"name":"Slow","categoryId":5}', 'the GET sees the pet its connection just created');
});

t.test('a complete POST followed by bytes that are not HTTP: 201 first, then 400, and the pet is stored once', async (t) => {
  const { server, port, auth } = await setup(t);
  const post = request('POST', '/v1/pets', [auth, JSON_TYPE], '{"name":"Kept","categoryId":3}');
  const exchange = await send(port, `${post}NOT HTTP AT ALL\r\n\r\n`, { end: false });
  const { responses, problems } = parseResponses(exchange.data);
  t.strictSame(problems, []);
  t.strictSame(
    responses.map((r) => r.status),
    [201, 400],
    'the answer to the POST is not lost behind the 400',
  );
  t.equal(responses[0]?.body.toString(), '{"id":1,"name":"Kept","categoryId":3}');
  if (responses[1]) t.strictSame(errorBodyProblems(responses[1]), [], 'the 400 is an Error body');
  t.ok(exchange.closed, 'the connection is closed after the 400');
  t.equal(server.store.size, 1, 'one pet, as the 201 said');
});

t.test('the same with several complete requests before the broken one', async (t) => {
  const { server, port, auth } = await setup(t);
  const post = (n: number) => request('POST', '/v1/pets', [auth, JSON_TYPE], `{"name":"P${n}","categoryId":${n}}`);
  const exchange = await send(port, `${post(1) + request('GET', '/v1/pets', [auth]) + post(2)}GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n`, {
    end: false,
  });
  const { responses, problems } = parseResponses(exchange.data);
  t.strictSame(problems, []);
  t.strictSame(
    responses.map((r) => r.status),
    [201, 200, 201, 400],
  );
  t.equal(server.store.size, 2);
});

t.test('a client that half-closes after its request still gets the answer', async (t) => {
  const { server, port, auth } = await setup(t);
  const get = await send(port, request('GET', '/v1/pets', [auth]), { end: true });
  t.strictSame(
    parseResponses(get.data).responses.map((r) => r.status),
    [200],
    'GET, then FIN: answered',
  );
  t.ok(get.closed, 'and the server then closes its side');

  const post = await send(port, request('POST', '/v1/pets', [auth, JSON_TYPE], '{"name":"Half","categoryId":1}'), { end: true });
  const created = parseResponses(post.data).responses;
  t.strictSame(
    created.map((r) => r.status),
    [201],
    'POST, then FIN: answered 201',
  );
  t.equal(server.store.size, 1, 'and the pet exists');

  const big = JSON.stringify({ name: 'x'.repeat(500_000), categoryId: 2 });
  const bigPost = await send(port, request('POST', '/v1/pets', [auth, JSON_TYPE], big), { end: true });
  t.strictSame(
    parseResponses(bigPost.data).responses.map((r) => r.status),
    [201],
    'a 500 kB POST, then FIN at once: answered 201',
  );

  const two = await send(port, request('GET', '/v1/pets/1', [auth]) + request('GET', '/v1/pets/2', [auth]), { end: true });
  t.strictSame(
    parseResponses(two.data).responses.map((r) => r.status),
    [200, 200],
    'two pipelined requests, then FIN: both answered',
  );
});

t.test('a client that half-closes in the middle of a body gets 400 and creates nothing', async (t) => {
  const { server, port, auth } = await setup(t);
  const post = request('POST', '/v1/pets', [auth, JSON_TYPE], '{"name":"Cut","categoryId":1}');
  const exchange = await send(port, post.slice(0, -8), { end: true });
  const { responses, problems } = parseResponses(exchange.data);
  t.strictSame(problems, []);
  t.strictSame(
    responses.map((r) => r.status),
    [400],
  );
  if (responses[0]) t.strictSame(errorBodyProblems(responses[0]), []);
  t.equal(server.store.size, 0, 'no pet from half a body');
});

t.test('a request the server refuses before reading its body (413) closes the connection; what follows is not read', async (t) => {
  const { server, port, auth } = await setup(t);
  const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${auth}\r\n${JSON_TYPE}\r\nContent-Length: 2000000\r\n\r\n`;
  const exchange = await send(port, head + request('POST', '/v1/pets', [auth, JSON_TYPE], '{"name":"Smuggled","categoryId":1}'), { end: false });
  const { responses } = parseResponses(exchange.data);
  t.strictSame(
    responses.map((r) => r.status),
    [413],
    'one answer: 413',
  );
  t.ok(exchange.closed, 'the connection is closed');
  t.equal(server.store.size, 0, 'the bytes after the refused head were not taken for a request');
});
