// Issue 26 §2: where a developer running `petstore serve` sees the findings:
// the request log line (readable and JSON), `--findings FILE` written at
// shutdown, and `--fail-on-findings`, in a child process of bin/petstore.js
// (slow by nature: the long tier).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { runCli, startCli, startServe, waitForOutput, type Cli } from '../../helpers/cli.js';

const KEY = 'findings-control-key-5e1a';

async function get(url: string, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }): Promise<number> {
  const res = await request(url, { headers });
  await res.body.text();
  return res.statusCode;
}

async function stop(t: Test, cli: Cli, code = 0): Promise<void> {
  cli.child.kill('SIGTERM');
  t.strictSame(await cli.exited, { code, signal: null }, `exit ${code}`);
}

t.test('the request log line marks a request that produced a finding with its severity and rule', async (t) => {
  const cli = await startServe(t, [], { PETSTORE_API_KEYS: KEY });
  await get(`${cli.url}/pets?stauts=sold`);
  await get(`${cli.url}/pets`);
  await get(`${cli.url}/pets`, {});
  await stop(t, cli);
  const lines = cli
    .stdout()
    .split('\n')
    .filter((line) => / → /.test(line));
  t.match(lines, [
    /GET +\/v1\/pets\?stauts=sold → 200 \d+\.\d ms \[warning \/paths\/~1pets\/get\/parameters\]$/,
    /GET +\/v1\/pets → 200 \d+\.\d ms$/,
    /GET +\/v1\/pets → 401 unauthorized \d+\.\d ms \[error \/components\/securitySchemes\/bearerAuth\]$/,
  ]);
  t.match(cli.stdout(), /petstore: 2 findings in what clients sent \(1 error, 1 warning\)/, 'a summary at shutdown');
});

t.test('--log json carries the findings of a request in its line', async (t) => {
  const cli = startCli(t, ['serve', '--port', '0', '--host', '127.0.0.1', '--log', 'json'], { PETSTORE_API_KEYS: KEY });
  const url = (await waitForOutput(cli, /"msg":"petstore: serving [^"]* at (http:\/\/127\.0\.0\.1:\d+\/v1)"/))[1] as string;
  await get(`${url}/pets?stauts=sold`);
  await stop(t, cli);
  const record = cli
    .stdout()
    .split('\n')
    .filter((line) => line.includes('"req"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)[0];
  t.match(record, { req: { url: '/v1/pets?stauts=sold' }, findings: 'warning /paths/~1pets/get/parameters' });
});

t.test('petstore serve --findings FILE writes the findings at shutdown', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-findings-')), 'report.json');
  const cli = await startServe(t, ['--findings', file], { PETSTORE_API_KEYS: KEY });
  await get(`${cli.url}/pets?stauts=sold`);
  await stop(t, cli);
  const written = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
  t.match(written, [{ code: 'unknown_query_parameter', sent: 'stauts=sold', count: 1 }]);
  t.match(cli.stdout(), new RegExp(`written to ${file.replace(/[/.]/g, '\\$&')}`));
});

t.test('--fail-on-findings warning exits 1 on a warning and lists it on stderr; error does not', async (t) => {
  const warned = await startServe(t, ['--fail-on-findings', 'warning'], { PETSTORE_API_KEYS: KEY });
  await get(`${warned.url}/pets?stauts=sold`);
  await stop(t, warned, 1);
  t.match(warned.stderr(), /exit 1 \(--fail-on-findings warning\).*\n- warning unknown_query_parameter/s);
  const lenient = await startServe(t, ['--fail-on-findings', 'error'], { PETSTORE_API_KEYS: KEY });
  await get(`${lenient.url}/pets?stauts=sold`);
  await stop(t, lenient, 0);
  t.equal(lenient.stderr(), '');
});

t.test('--fail-on-findings error exits 1 on a refused request; a clean run exits 0', async (t) => {
  const failing = await startServe(t, ['--fail-on-findings', 'error'], { PETSTORE_API_KEYS: KEY });
  await get(`${failing.url}/pets?limit=500`);
  await stop(t, failing, 1);
  t.match(failing.stderr(), /- error invalid_parameter \(answered 400\)/);
  const clean = await startServe(t, ['--fail-on-findings', 'warning'], { PETSTORE_API_KEYS: KEY });
  await get(`${clean.url}/pets?limit=5&status=sold`);
  await stop(t, clean, 0);
});

t.test('--fail-on-findings accepts only error and warning', async (t) => {
  const r = await runCli(t, ['serve', '--port', '0', '--fail-on-findings', 'info']);
  t.equal(r.code, 2);
  t.match(r.stderr, /--fail-on-findings.*info/);
});
