// `petstore serve` (cli/serve.ts) as a user runs it: a child process of
// bin/petstore.js, on an ephemeral port, stopped with SIGTERM.
import { join } from 'node:path';
import t from 'tap';
import { apiClient } from '../helpers/api-client.js';
import { connect, parseRawResponse, readAll } from '../helpers/raw-socket.js';
import { runCli, startServe, waitForOutput } from '../helpers/cli.js';

const DEV_KEY = 'petstore-dev-key';

// Each test mostly waits for a child process to start; run a few at a time.
t.jobs = 4;

t.test('serve prints its URL, answers requests, and exits 0 on SIGTERM', async (t) => {
  const cli = await startServe(t);
  t.match(cli.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/, 'the base URL ends in /v1');
  t.match(cli.stdout(), new RegExp(`Bearer ${DEV_KEY}`), 'it tells the development key');
  const api = apiClient(t, cli.url, DEV_KEY);
  t.equal((await api('/pets')).status, 200, 'listPets');
  t.equal((await api('/pets', { json: { name: 'Rex', categoryId: 1 } })).status, 201, 'createPet');
  t.equal((await api('/pets/1')).status, 200, 'getPet');
  cli.child.kill('SIGTERM');
  t.strictSame(await cli.exited, { code: 0, signal: null }, 'exit code 0');
  t.match(cli.stdout(), /SIGTERM, finishing in-flight requests/);
  t.equal(cli.stderr(), '', 'nothing on stderr');
});

t.test('SIGINT stops it with exit code 0 too', async (t) => {
  const cli = await startServe(t);
  cli.child.kill('SIGINT');
  t.strictSame(await cli.exited, { code: 0, signal: null });
});

t.test('--seed fixtures/pets.json starts with its 32 pets', async (t) => {
  const cli = await startServe(t, ['--seed', 'fixtures/pets.json']);
  t.match(cli.stdout(), /pets: 32 from fixtures\/pets\.json/);
  const api = apiClient(t, cli.url, DEV_KEY);
  const all = await api('/pets?limit=100');
  t.strictSame(
    all.body.map((p: { id: number }) => p.id),
    Array.from({ length: 32 }, (_, i) => i + 1),
  );
  t.match(all.text, /"categoryId":9007199254740993[,}]/, 'an int64 categoryId of the seed keeps its digits');
  t.equal((await api('/pets', { json: { name: 'New', categoryId: 1 } })).body.id, 33, 'new pets follow the seed');
});

t.test('--api-key is accepted, repeatable, and the development key is then refused', async (t) => {
  const cli = await startServe(t, ['--api-key', 'key-one', '-k', 'key-two']);
  t.notMatch(cli.stdout(), new RegExp(DEV_KEY), 'the development key is not advertised');
  t.match(cli.stdout(), /2 configured keys/);
  const api = apiClient(t, cli.url, 'key-one');
  t.equal((await api('/pets')).status, 200, 'key-one');
  t.equal((await api('/pets', { auth: 'Bearer key-two' })).status, 200, 'key-two');
  t.equal((await api('/pets', { auth: `Bearer ${DEV_KEY}` })).status, 401, 'the development key');
});

t.test('PETSTORE_API_KEYS adds comma-separated keys', async (t) => {
  const cli = await startServe(t, [], { PETSTORE_API_KEYS: 'env-one, env-two' });
  const api = apiClient(t, cli.url, 'env-one');
  t.equal((await api('/pets')).status, 200, 'env-one');
  t.equal((await api('/pets', { auth: 'Bearer env-two' })).status, 200, 'env-two, spaces trimmed');
  t.equal((await api('/pets', { auth: `Bearer ${DEV_KEY}` })).status, 401, 'the development key');
});

t.test('--api-keys-file reads one key per line, skipping comments and blank lines', async (t) => {
  const dir = t.testdir({ keys: '# team keys\nfile-one\n\n  file-two  \n' });
  const cli = await startServe(t, ['--api-keys-file', join(dir, 'keys')]);
  const api = apiClient(t, cli.url, 'file-one');
  t.equal((await api('/pets')).status, 200, 'file-one');
  t.equal((await api('/pets', { auth: 'Bearer file-two' })).status, 200, 'file-two');
  t.equal((await api('/pets', { auth: 'Bearer # team keys' })).status, 401, 'a comment is not a key');
});

t.test('--now 2031-01-01T00:00:00Z sets the server clock: getPet answers 410 and Date says 2031', async (t) => {
  const cli = await startServe(t, ['--now', '2031-01-01T00:00:00Z', '--seed', 'fixtures/pets.json']);
  t.match(cli.stdout(), /clock: 2031-01-01T00:00:0/);
  const api = apiClient(t, cli.url, DEV_KEY);
  const r = await api('/pets/1');
  t.equal(r.status, 410);
  t.equal(r.body.code, 'gone');
  t.match(r.headers['date'], /^Wed, 01 Jan 2031 00:00:\d\d GMT$/);
  t.equal((await api('/pets')).status, 200, 'listPets still works');
});

t.test('--base-path /api/v1 serves the interface there', async (t) => {
  const cli = await startServe(t, ['--base-path', '/api/v1']);
  t.match(cli.url, /\/api\/v1$/);
  t.equal((await apiClient(t, cli.url, DEV_KEY)('/pets')).status, 200);
});

t.test('--max-pets caps the store: creation beyond answers 507', async (t) => {
  const cli = await startServe(t, ['--max-pets', '1']);
  const api = apiClient(t, cli.url, DEV_KEY);
  t.equal((await api('/pets', { json: { name: 'A', categoryId: 1 } })).status, 201);
  t.equal((await api('/pets', { json: { name: 'B', categoryId: 1 } })).status, 507);
});

t.test('--ids large serves ids from 9007199254740993 and says so; --ids with an unknown mode is a usage error', async (t) => {
  const cli = await startServe(t, ['--ids', 'large', '--seed', 'fixtures/pets.json']);
  t.match(cli.stdout(), /ids: large/);
  const api = apiClient(t, cli.url, DEV_KEY);
  t.match((await api('/pets?limit=1')).text, /^\[\{"id":9007199254740993,/);
  t.match((await api('/pets/9007199254741055')).text, /^\{"id":9007199254741055,/, 'the 32nd seed pet');
  const r = await runCli(t, ['serve', '--port', '0', '--ids', 'snowflake']);
  t.equal(r.code, 2);
  t.match(r.stderr, /--ids.*snowflake.*sequential, large, random/);
});

t.test('a bad --port abc makes the process exit with code 2 and say why', async (t) => {
  const r = await runCli(t, ['serve', '--port', 'abc']);
  t.equal(r.code, 2);
  t.match(r.stderr, /--port.*'abc' is invalid/);
  t.equal(r.stdout, '', 'nothing is served');
});

t.test('an in-flight request finishes when SIGTERM arrives: a POST sent in two parts is still answered 201', async (t) => {
  const cli = await startServe(t);
  const { host, pathname } = new URL(cli.url);
  const body = '{"name":"Slow","categoryId":7}';
  const socket = await connect(cli.url);
  const answer = readAll(socket);
  socket.write(
    `POST ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${DEV_KEY}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  );
  // Let the server start on the request before it is told to stop.
  await new Promise((resolve) => setTimeout(resolve, 200));
  cli.child.kill('SIGTERM');
  await waitForOutput(cli, /SIGTERM, finishing in-flight requests/);
  socket.write(body.slice(10));
  const r = parseRawResponse(await answer);
  t.equal(r.status, 201, 'the request is answered');
  t.strictSame(JSON.parse(r.text), { id: 1, name: 'Slow', categoryId: 7 });
  t.strictSame(await cli.exited, { code: 0, signal: null }, 'then the process exits 0');
});

t.test('new connections are refused once SIGTERM has arrived', async (t) => {
  const cli = await startServe(t);
  const socket = await connect(cli.url); // an open request keeps the process alive meanwhile
  socket.on('error', () => {}); // the server cuts it after its grace period
  const { host, pathname } = new URL(cli.url);
  socket.write(
    `POST ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${DEV_KEY}\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n{`,
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  cli.child.kill('SIGTERM');
  await waitForOutput(cli, /SIGTERM/);
  // The message is written just before the listener closes: give the child a moment.
  let refused: string | undefined;
  for (const deadline = Date.now() + 2_000; refused === undefined && Date.now() < deadline; ) {
    refused = await connect(cli.url).then(
      (probe) => void probe.destroy(),
      (error: NodeJS.ErrnoException) => error.code,
    );
    if (refused === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.equal(refused, 'ECONNREFUSED', 'the listener is closed');
  socket.destroy();
  t.equal((await cli.exited).code, 0);
});
