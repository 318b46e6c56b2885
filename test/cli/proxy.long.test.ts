// `petstore proxy` as a team runs it, in a child process of bin/petstore.js:
// the findings of both sides in the log, `--findings FILE`, the verdict of
// `--fail-on-findings` kept through POST /__control/shutdown, and `--record`
// played back by `petstore serve --seed FILE --keep-ids` (the long tier: slow by nature).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { startVariant } from '../../fixtures/implementations/index.mjs';
import { startCli, startServe, waitForOutput, type Cli } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';

const CONTROL_KEY = 'proxy-control-key-3f9c';

async function send(url: string, key: string, init: { method?: 'GET' | 'POST'; body?: string } = {}) {
  const res = await request(url, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${key}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    ...(init.body ? { body: init.body } : {}),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** The proxy, given the upstream's key: clients send it, and the control API takes it. */
async function startProxyCli(t: Test, upstream: string, key: string, args: readonly string[] = []): Promise<Cli & { url: string; origin: string }> {
  const cli = startCli(t, ['proxy', '--upstream', upstream, '--port', '0', '--host', '127.0.0.1', ...args], { PETSTORE_API_KEYS: key });
  const url = (await waitForOutput(cli, /proxying .* at (http:\/\/127\.0\.0\.1:\d+\/v1) to /))[1] as string;
  return { ...cli, url, origin: new URL(url).origin };
}

const scratch = () => mkdtempSync(join(tmpdir(), 'petstore-proxy-'));

t.test("both sides' findings: the log line, --findings FILE, and exit 1 through POST /__control/shutdown", async (t) => {
  // A server that answers without Date (RFC 9110 §6.6.1: an origin server with a clock MUST send it).
  const upstream = await startVariant('no-date-header');
  t.teardown(() => upstream.close());
  const file = join(scratch(), 'findings.json');
  const cli = await startProxyCli(t, upstream.url, upstream.apiKey, ['--findings', file, '--fail-on-findings', 'error']);
  const page = await send(`${cli.url}/pets?stauts=sold`, upstream.apiKey);
  t.equal(page.status, 200, 'passed on and answered by the upstream');
  t.match(page.headers['petstore-finding'], /unknown_query_parameter/);
  const shutdown = await send(`${cli.origin}/__control/shutdown`, upstream.apiKey, { method: 'POST' });
  t.equal(shutdown.status, 202);
  t.strictSame(await cli.exited, { code: 1, signal: null }, 'exit 1: the upstream broke a rule');
  const written = JSON.parse(readFileSync(file, 'utf8')) as { side: string; code: string }[];
  t.ok(
    written.some((f) => f.side === 'client' && f.code === 'unknown_query_parameter'),
    'the client finding',
  );
  t.ok(
    written.some((f) => f.side === 'server' && f.code === 'http.date'),
    `the server finding (${written.map((f) => `${f.side} ${f.code}`).join(', ')})`,
  );
  t.match(cli.stdout(), /GET +\/v1\/pets\?stauts=sold → 200 .*\[warning \/paths\/~1pets\/get\/parameters, error \/paths\/~1pets\/get\/responses\]\n/);
  t.match(cli.stdout(), /findings in what clients sent \(1\) and what the upstream answered \(\d+\)/);
  t.match(cli.stderr(), /exit 1 \(--fail-on-findings error\)/);
});

t.test('--record FILE keeps every pet the upstream served; serve --seed FILE --keep-ids serves them with their ids', async (t) => {
  const upstream = await startTestServer(t, { apiKeys: [CONTROL_KEY], ids: 'large' });
  const file = join(scratch(), 'pets.json');
  const cli = await startProxyCli(t, upstream.url, CONTROL_KEY, ['--record', file]);
  const created = await send(`${cli.url}/pets`, CONTROL_KEY, { method: 'POST', body: '{"name":"Rex","categoryId":9007199254740993,"status":"sold"}' });
  t.equal(created.status, 201);
  const second = await send(`${cli.url}/pets`, CONTROL_KEY, { method: 'POST', body: '{"name":"Tom","categoryId":-1}' });
  await send(`${cli.url}/pets?limit=100`, CONTROL_KEY);
  cli.child.kill('SIGTERM');
  t.strictSame(await cli.exited, { code: 0, signal: null });
  t.match(cli.stdout(), /2 pets the upstream served, written to /);
  const recorded = readFileSync(file, 'utf8');
  t.match(recorded, /9007199254740993/, 'int64 values written exactly');

  const replay = await startServe(t, ['--seed', file, '--keep-ids'], { PETSTORE_API_KEYS: CONTROL_KEY });
  const first = JSON.parse(created.text) as { id: number };
  const again = await send(`${replay.url}/pets?limit=100`, CONTROL_KEY);
  t.equal(again.text, `[${created.text},${second.text}]`, "the stand-in serves the upstream's pets, ids and all, byte for byte");
  t.ok(String(created.text).includes(String(first.id).slice(0, 10)));
  replay.child.kill('SIGTERM');
  await replay.exited;
});
