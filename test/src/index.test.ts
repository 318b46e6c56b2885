// In-process use for a client's own test suite (src/index.ts startServer):
// a real HTTP server on 127.0.0.1 and an ephemeral port, not an interceptor,
// with the key it accepts, reset() back to the seed and close().
import net from 'node:net';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { startServer, type StartedServer } from '../../src/index.js';
import { connect, parseRawResponse, readAll } from '../helpers/raw-socket.js';

/** A started server, closed when the test ends. */
async function started(t: Test, options: Parameters<typeof startServer>[0] = {}): Promise<StartedServer> {
  const api = await startServer(options);
  t.teardown(() => api.close());
  return api;
}

async function get(api: StartedServer, path: string): Promise<{ status: number; body: unknown }> {
  const res = await request(api.url + path, { headers: { authorization: `Bearer ${api.apiKey}` } });
  return { status: res.statusCode, body: await res.body.json() };
}

async function create(api: StartedServer, name: string): Promise<{ status: number; body: { id: number } }> {
  const res = await request(`${api.url}/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
  return { status: res.statusCode, body: (await res.body.json()) as { id: number } };
}

function refused(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

t.test('startServer() listens on 127.0.0.1 and an ephemeral port and answers real HTTP with the key it gives', async (t) => {
  const api = await started(t);
  t.match(api.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  t.not(new URL(api.url).port, '4010', 'not the default port of petstore serve');
  t.equal(api.apiKey, 'petstore-dev-key', 'the development key when none is configured');
  t.strictSame(await get(api, '/pets'), { status: 200, body: [] });
  // Bytes on a plain TCP socket: no interceptor of a client library could answer these.
  const { host, pathname } = new URL(api.url);
  const socket = await connect(api.url);
  const answer = readAll(socket);
  socket.end(`GET ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${api.apiKey}\r\nConnection: close\r\n\r\n`);
  const r = parseRawResponse(await answer);
  t.equal(r.status, 200, 'a raw socket gets an HTTP/1.1 answer');
  t.equal(r.text, '[]');
});

t.test('startServer() accepts the server options: its apiKey is the first configured key, others are refused', async (t) => {
  const api = await started(t, { apiKeys: ['client-suite-key'], seed: [{ name: 'Rex', categoryId: 1n }] });
  t.equal(api.apiKey, 'client-suite-key');
  t.equal((await get(api, '/pets/1')).status, 200);
  const res = await request(`${api.url}/pets`, { headers: { authorization: 'Bearer petstore-dev-key' } });
  await res.body.text();
  t.equal(res.statusCode, 401, 'the development key is not accepted when a key is configured');
});

t.test('a second startServer() gets another port and its own pets', async (t) => {
  const one = await started(t);
  const two = await started(t);
  t.not(new URL(one.url).port, new URL(two.url).port);
  t.equal((await create(one, 'OnlyInOne')).status, 201);
  t.strictSame((await get(two, '/pets')).body, [], 'the other server has no pets');
  t.equal((await create(two, 'First')).body.id, 1, 'and its own ids');
});

t.test('reset() forgets every pet created since start, keeps the seed, and ids start again after it', async (t) => {
  const api = await started(t, { seed: [{ name: 'Rex', categoryId: 1n }] });
  await create(api, 'A');
  await create(api, 'B');
  t.equal(((await get(api, '/pets')).body as unknown[]).length, 3);
  api.reset();
  t.strictSame(
    ((await get(api, '/pets')).body as { name: string }[]).map((p) => p.name),
    ['Rex'],
    'only the seed is left',
  );
  t.equal((await get(api, '/pets/2')).status, 404, 'a pet created before the reset is gone');
  t.equal((await create(api, 'C')).body.id, 2, 'the next id follows the seed');
});

t.test('close() stops the server and frees its port', async (t) => {
  const api = await startServer();
  const port = Number(new URL(api.url).port);
  t.equal((await get(api, '/pets')).status, 200, 'a kept-alive connection is open when close() is called');
  await api.close();
  t.equal(await refused(port), 'ECONNREFUSED', 'nothing listens on the port any more');
  const again = await started(t, { port });
  t.equal(new URL(again.url).port, String(port), 'the same port can be listened on at once');
  t.equal((await get(again, '/pets')).status, 200);
});

t.test("the package's own name exports startServer, as the README shows", async (t) => {
  const { startServer: exported } = (await import('petstore-harness')) as typeof import('../../src/index.js');
  const api = await exported();
  t.teardown(() => api.close());
  t.equal((await get(api, '/pets')).status, 200);
});
