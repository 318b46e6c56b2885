// The request log of `petstore serve` (src/server/log.ts), in a child process
// of bin/petstore.js (slow by nature: the long tier): one line per request on
// stdout, readable by default, JSON lines with pino's field names with --log
// json, nothing with --quiet; never an API key.
import { hostname } from 'node:os';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { startCli, startServe, waitForOutput, type Cli } from '../../helpers/cli.js';

t.jobs = 4;

const KEY = 'zz-distinctive-log-key-7f3a9c';

/** Sends one request and reads its answer in full; resolves with the status. */
async function send(url: string, options: { method?: string; key?: string | false; json?: unknown } = {}): Promise<number> {
  const headers: Record<string, string> = {};
  if (options.key !== false) headers['authorization'] = `Bearer ${options.key ?? KEY}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const res = await request(url, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers,
    body: options.json === undefined ? null : JSON.stringify(options.json),
  });
  await res.body.text();
  return res.statusCode;
}

/** Four requests: a list with a query, a create, an unknown pet, a control request. */
async function traffic(baseUrl: string): Promise<void> {
  await send(`${baseUrl}/pets?limit=2&status=sold`);
  await send(`${baseUrl}/pets`, { json: { name: 'Rex', categoryId: 1 } });
  await send(`${baseUrl}/pets/999`);
  await send(`${new URL(baseUrl).origin}/__control/state`);
}

/** Stops the server with SIGTERM and resolves once it has exited (its output is then complete). */
async function stop(t: Test, cli: Cli): Promise<void> {
  cli.child.kill('SIGTERM');
  t.strictSame(await cli.exited, { code: 0, signal: null }, 'exit 0');
}

/** `petstore serve --log json`, once its JSON start-up line says where it serves. */
async function startJson(t: Test): Promise<Cli & { url: string }> {
  const cli = startCli(t, ['serve', '--port', '0', '--host', '127.0.0.1', '--log', 'json'], { PETSTORE_API_KEYS: KEY });
  const match = await waitForOutput(cli, /"msg":"petstore: serving [^"]* at (http:\/\/127\.0\.0\.1:\d+\/v1)"/);
  return { ...cli, url: match[1] as string };
}

t.test('by default each request is one readable line on stdout with its method, target, status, Error code and latency', async (t) => {
  const cli = await startServe(t, [], { PETSTORE_API_KEYS: KEY });
  await traffic(cli.url);
  await stop(t, cli);
  const lines = cli
    .stdout()
    .split('\n')
    .filter((line) => / → /.test(line));
  t.equal(lines.length, 4, `one line per request:\n${lines.join('\n')}`);
  const [list, create, missing, control] = lines;
  t.match(list, /^\d\d:\d\d:\d\d\.\d{3} GET +\/v1\/pets\?limit=2&status=sold → 200 \d+\.\d ms$/);
  t.match(create, /^\d\d:\d\d:\d\d\.\d{3} POST +\/v1\/pets → 201 \d+\.\d ms$/);
  t.match(
    missing,
    /^\d\d:\d\d:\d\d\.\d{3} GET +\/v1\/pets\/999 → 404 pet_not_found \d+\.\d ms \[warning \/paths\/~1pets~1\{petId\}\/get\/deprecated, error \/paths\/~1pets~1\{petId\}\/get\/responses\/404\]$/,
    'with the findings it produced (issue 26)',
  );
  t.match(control, /^\d\d:\d\d:\d\d\.\d{3} GET +\/__control\/state → 200 \d+\.\d ms$/, 'the control API is logged too');
  t.equal(cli.stderr(), '', 'nothing on stderr');
});

t.test('an injected fault is named on its log line', async (t) => {
  const cli = await startServe(t, [], { PETSTORE_API_KEYS: KEY });
  const origin = new URL(cli.url).origin;
  await send(`${origin}/__control/faults/listPets`, { method: 'PUT', json: { status: 503 } });
  await send(`${cli.url}/pets`);
  await stop(t, cli);
  t.match(cli.stdout(), /GET +\/v1\/pets → 503 fault_injected \d+\.\d ms \[fault: status=503\]\n/);
});

t.test('--log json writes JSON lines with pino field names: level, time, pid, hostname, msg, req, res, responseTime', async (t) => {
  const cli = await startJson(t);
  const before = Date.now();
  await traffic(cli.url);
  await stop(t, cli);
  const lines = cli
    .stdout()
    .split('\n')
    .filter((line) => line !== '');
  const records = lines.map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      t.fail(`not a JSON line: ${line}`);
      return {};
    }
  });
  for (const record of records) {
    t.match(record, { level: Number, time: Number, pid: cli.child.pid, hostname: hostname(), msg: String }, 'pino base fields on every line');
  }
  const requests = records.filter((record) => record['req'] !== undefined);
  t.equal(requests.length, 4, 'one record per request');
  t.match(requests, [
    { level: 30, msg: 'request completed', req: { method: 'GET', url: '/v1/pets?limit=2&status=sold' }, res: { statusCode: 200 }, responseTime: Number },
    { level: 30, req: { method: 'POST', url: '/v1/pets' }, res: { statusCode: 201 } },
    { level: 40, req: { method: 'GET', url: '/v1/pets/999' }, res: { statusCode: 404 }, code: 'pet_not_found' },
    { level: 30, req: { method: 'GET', url: '/__control/state' }, res: { statusCode: 200 } },
  ]);
  for (const record of requests) {
    t.ok((record['responseTime'] as number) >= 0, 'responseTime is a duration in ms');
    t.ok(Math.abs((record['time'] as number) - before) < 10_000, 'time is epoch milliseconds');
  }
  t.ok(
    records.some((record) => /serving .* at http:\/\/127\.0\.0\.1:\d+\/v1/.test(record['msg'] as string)),
    'the start-up notice is a JSON line too',
  );
});

t.test('--quiet prints no request lines', async (t) => {
  const cli = await startServe(t, ['--quiet'], { PETSTORE_API_KEYS: KEY });
  await traffic(cli.url);
  await stop(t, cli);
  // A request line starts with its time and holds an arrow; the start-up lines name methods too (how to stop).
  t.notMatch(cli.stdout(), /^\d\d:\d\d:\d\d\.\d{3} | → /m, `no request on stdout:\n${cli.stdout()}`);
  t.equal(cli.stderr(), '');
});

t.test('the API key never appears on stdout or stderr, in either format, whatever the requests', async (t) => {
  for (const format of ['pretty', 'json']) {
    const cli = format === 'json' ? await startJson(t) : await startServe(t, [], { PETSTORE_API_KEYS: KEY });
    await traffic(cli.url);
    await send(`${cli.url}/pets`, { key: `${KEY}-but-wrong` });
    await send(`${cli.url}/pets`, { key: false });
    await send(`${cli.url}/pets?api_key=${KEY}`, { key: false });
    await send(`${new URL(cli.url).origin}/__control/reset`, { method: 'POST', key: `${KEY}x` });
    await stop(t, cli);
    t.match(cli.stdout(), /401/, `${format}: the refused requests were logged`);
    t.notMatch(cli.stdout(), KEY, `${format}: not on stdout`);
    t.notMatch(cli.stderr(), KEY, `${format}: not on stderr`);
  }
});

t.test('--log accepts only pretty and json', async (t) => {
  const cli = startCli(t, ['serve', '--port', '0', '--log', 'xml']);
  t.equal((await cli.exited).code, 2);
  t.match(cli.stderr(), /--log.*xml/);
  await t.rejects(waitForOutput(cli, /serving/, 100), 'nothing was served');
});
