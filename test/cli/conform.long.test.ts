// `petstore conform` as a user runs it: the real binary (bin/petstore.js, on
// the compiled dist/) in a child process, against servers started here.
// Exit codes: 0 the target conforms, 1 a requirement fails, 2 a usage
// problem or an unreachable target, in one line without a stack trace.
import net from 'node:net';
import t from 'tap';
import { FAMILIES } from '../../conformance/vocabulary.js';
import { startVariant } from '../../fixtures/implementations/index.mjs';
import { conformCommand } from '../../cli/conform.js';
import { startServer } from '../../src/index.js';
import { petstore } from '../helpers/petstore-bin.js';
import { conformJson } from '../helpers/run-conform.js';
import { invalidBodyExamples } from '../../conformance/arbitraries/requests.js';
import { operations } from '../../spec/operations.js';

const KEY = 'k-SECRET-123';

/** A port nothing listens on: opened, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const STACK_FRAME = /^\s+at /m;

t.test('conform exits 0 with a human report ending in PASS against the reference server', async (t) => {
  const server = await startServer({ apiKeys: [KEY] });
  t.teardown(() => server.close());
  const run = await petstore(['conform', '--base-url', server.url, '--api-key', KEY, '--seed', '1', '--runs', '20']);
  t.equal(run.code, 0, run.stdout + run.stderr);
  t.match(run.stdout, /^PASS: \d+ passed, 0 failed(, \d+ (advisory|skipped|not run))*$/m);
  t.match(run.stdout, /^ok {3}auth /m, 'a summary line per family');
  t.match(run.stdout, /seed 1/, 'the seed is printed');
  t.equal(run.stderr, '', 'nothing on stderr (no progress when stdout is not a terminal)');
});

t.test('conform exits 1 against accepts-missing-auth, showing the failed requirement, a curl replay and a rerun line with the seed', async (t) => {
  const server = await startVariant('accepts-missing-auth', { apiKey: KEY });
  t.teardown(() => server.close());
  const run = await petstore(['conform', '--base-url', server.url, '--api-key', KEY, '--seed', '7', '--runs', '20']);
  t.equal(run.code, 1, run.stderr);
  t.match(run.stdout, /^FAIL: \d+ passed, [1-9]\d* failed(, \d+ (advisory|skipped|not run))*$/m);
  t.match(run.stdout, /^FAIL auth /m, 'the auth family is marked failed');
  t.match(run.stdout, /^\d+\) \[auth\] \w+: .*no Authorization header.*expected 401, got 200/m, 'the failure says what was sent and what came back');
  t.match(run.stdout, /^ {3}requirement \(§5 Authentication\): When the key is missing or invalid, the service answers 401 with an Error body/m);
  t.match(run.stdout, /^ {3}replay: curl -sS -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets[^']*'/m, 'a curl line that replays the request');
  t.match(run.stdout, /^ {3}rerun: +petstore conform --base-url \S+ --api-key "\$PETSTORE_API_KEY" --checks auth\.\w+\.refused --seed 7$/m);
  t.equal(run.stderr, '');
});

t.test('an unreachable target exits 2 with a one-line message and no stack trace', async (t) => {
  const port = await closedPort();
  const run = await petstore(['conform', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY, '--timeout', '2000']);
  t.equal(run.code, 2);
  t.match(run.stderr, /^petstore: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: the connection was refused; is the port right\?\n$/, 'exactly one line');
  t.notMatch(run.stderr, STACK_FRAME, 'no stack frames');
  t.equal(run.stdout, '', 'no report');
  t.ok(run.ms < 20_000, `done in ${Math.round(run.ms)} ms`);
});

t.test('a missing API key exits 2, with one line saying how to give one', async (t) => {
  const run = await petstore(['conform', '--base-url', 'http://127.0.0.1:9/v1']);
  t.equal(run.code, 2);
  t.match(run.stderr, /^petstore: an API key is required: --api-key KEY or PETSTORE_API_KEY\n$/);
  t.notMatch(run.stderr, STACK_FRAME);
});

t.test('PETSTORE_API_KEY in the environment stands in for --api-key', async (t) => {
  const server = await startServer({ apiKeys: [KEY] });
  t.teardown(() => server.close());
  const run = await petstore(['conform', '--base-url', server.url, '--seed', '1', '--runs', '5', '--checks', 'auth'], { PETSTORE_API_KEY: KEY });
  t.equal(run.code, 0, run.stdout + run.stderr);
});

t.test('an unknown family in --checks exits 2 and names the families', async (t) => {
  const run = await petstore(['conform', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY, '--checks', 'nosuchfamily']);
  t.equal(run.code, 2);
  t.match(run.stderr, new RegExp(`^petstore: unknown family or check "nosuchfamily"; families: ${FAMILIES.join(', ')}\\n$`));
  t.notMatch(run.stderr, STACK_FRAME);
});

t.test('conform --help lists every option the command declares', async (t) => {
  const run = await petstore(['conform', '--help']);
  t.equal(run.code, 0);
  const declared = conformCommand({ stdout: process.stdout, stderr: process.stderr, env: {} }).options.map((o) => o.long!);
  t.ok(declared.length >= 17, `${declared.length} options declared`);
  for (const flag of [...declared, '--help']) t.match(run.stdout, new RegExp(`(^|[ ,])${flag}\\b`, 'm'), `--help shows ${flag}`);
});

t.test('--runs 1 still tries every fixed example of a property: no class of invalid body is left out', async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  const createPet = operations.find((op) => op.operationId === 'createPet')!;
  const classes = invalidBodyExamples(createPet, 'conform-', 1).length;
  const { code, result } = await conformJson(server.url, server.apiKey, ['--runs', '1', '--checks', 'validation.createPet.invalid-body']);
  t.equal(code, 0);
  const check = result.checks.find((c) => c.id === 'validation.createPet.invalid-body');
  t.equal(check?.runs, classes, `all ${classes} classes of invalid body were sent`);
});
