import { type AddressInfo, createServer } from 'node:net';
import t from 'tap';
import { basePathOf, createClient, type Exchange, fieldOf, joinUrl } from '../../conformance/client.js';

// --base-url is typed by people: the operations' paths follow its path
// however many slashes it ends with, and a root base URL has none.
t.test('the base path of a base URL drops its trailing slashes, and only those', async (t) => {
  t.equal(basePathOf('http://127.0.0.1:4010/v1'), '/v1');
  t.equal(basePathOf('http://127.0.0.1:4010/v1/'), '/v1');
  t.equal(basePathOf('http://127.0.0.1:4010/v1//'), '/v1');
  t.equal(basePathOf('https://api.example.com/petstore/v10/'), '/petstore/v10');
  t.equal(basePathOf('http://127.0.0.1:4010/a//b/v1'), '/a//b/v1', 'slashes inside the path stay');
  t.equal(basePathOf('http://127.0.0.1:4010'), '', 'the root');
  t.equal(basePathOf('http://127.0.0.1:4010/'), '', 'the root, spelled with its slash');
});

t.test('an operation path joins the base URL after its trailing slashes', async (t) => {
  t.equal(joinUrl('http://127.0.0.1:4010/v1//', '/pets'), 'http://127.0.0.1:4010/v1/pets');
  t.equal(joinUrl('http://127.0.0.1:4010/v1', '/pets/1'), 'http://127.0.0.1:4010/v1/pets/1');
});

// A follow-up on the same connection is a request of the run like any other: it carries the --header fields,
// and its answer reaches the observers (the rules over every answer) as an exchange of its own.
t.test('sendRaw sends the follow-up with the --header fields and shows its exchange to the observers', async (t) => {
  const received: string[] = [];
  const server = createServer((socket) => {
    socket.on('error', () => {});
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        received.push(pending.slice(0, end + 4));
        pending = pending.slice(end + 4);
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${received.length + 1}\r\n\r\n[${'1'.repeat(received.length - 1)}]`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const client = createClient({
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: 'k',
    timeoutMs: 2000,
    concurrency: 1,
    rate: 0,
    maxWrites: 10,
    maxResponseBytes: 10_000,
    headers: { 'X-Gateway-Key': 'g' },
  });
  t.teardown(() => client.close());
  const exchanges: Exchange[] = [];
  client.observe((exchange) => exchanges.push(exchange));
  const followUp = { method: 'GET', path: '/pets?limit=1', headers: {}, operationId: 'listPets', raw: 'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: h\r\n\r\n' };
  const first = {
    method: 'GET',
    path: '/pets',
    headers: {},
    operationId: 'listPets',
    offSpec: true,
    raw: 'GET /v1/pets HTTP/1.1\r\nHost: h\r\n\r\n',
    followUp,
  };
  const answer = await client.sendRaw('http', first);
  t.same(received, ['GET /v1/pets HTTP/1.1\r\nx-gateway-key: g\r\nHost: h\r\n\r\n', 'GET /v1/pets?limit=1 HTTP/1.1\r\nx-gateway-key: g\r\nHost: h\r\n\r\n']);
  t.equal(answer.followUp?.response?.text, '[1]');
  t.same(
    exchanges.map((e) => [e.request, e.response.text, e.family]),
    [
      [first, '[]', 'http'],
      [followUp, '[1]', 'http'],
    ],
  );
  t.equal(client.stats().requests, 2);
});

t.test('a field of a request is found by its name in any case, repeated ones joined', async (t) => {
  const request = { headers: { Authorization: 'Bearer a', 'x-one': ['1', '2'], ACCEPT: 'application/json' } };
  t.equal(fieldOf(request, 'authorization'), 'Bearer a');
  t.equal(fieldOf(request, 'AUTHORIZATION'), 'Bearer a');
  t.equal(fieldOf(request, 'X-One'), '1, 2');
  t.equal(fieldOf(request, 'accept'), 'application/json');
  t.equal(fieldOf(request, 'cookie'), undefined);
  t.equal(fieldOf({ headers: { authorization: 'a', Authorization: 'b' } }, 'authorization'), 'a, b', 'two fields under two spellings of the name');
  t.equal(fieldOf({ headers: { accept: [] } }, 'accept'), undefined, 'a field with no value is absent');
  const odd = { headers: { accept: ['a', undefined, ['b', 'c']], Accept: null } } as unknown as Parameters<typeof fieldOf>[0];
  t.equal(fieldOf(odd, 'accept'), 'a, , b,c, ', 'absent values and nested lists as Array.prototype.join writes them');
});
