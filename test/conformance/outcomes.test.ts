// A CI gate is only as good as the truth of its green: every check ends in
// exactly one outcome, a check that exercised nothing is never passed,
// --read-only reads rather than skips, a wrong base URL is a usage error, and
// values are shown as the wire shows them.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startVariant } from '../../fixtures/implementations/index.mjs';
import { CHECK_STATUSES } from '../../conformance/vocabulary.js';
import { startServer } from '../../src/index.js';
import { conformJson, describeFailures, runCli } from '../helpers/run-conform.js';

const KEY = 'verdicts-key-1';

t.test('every check has exactly one of the five outcomes, and the counts add up to the checks', async (t) => {
  const server = await startServer({ apiKeys: [KEY] });
  t.teardown(() => server.close());
  const { result } = await conformJson(server.url, KEY, ['--runs', '10', '--read-only']);
  t.ok(
    result.checks.every((c) => CHECK_STATUSES.includes(c.status)),
    'each outcome is one of passed, failed, advisory, skipped, not run',
  );
  t.equal(
    Object.values(result.counts).reduce((a, b) => a + b, 0),
    result.checks.length,
    'the counts cover every check once',
  );
  t.equal(result.exercised, result.counts.passed + result.counts.failed + result.counts.advisory);
});

t.test('--read-only: what writes is skipped with its reason, and never counted as passed', async (t) => {
  const server = await startServer({ apiKeys: [KEY] });
  t.teardown(() => server.close());
  const run = await runCli(['conform', '--base-url', server.url, '--api-key', KEY, '--seed', '1', '--runs', '10', '--read-only', '--quiet']);
  t.equal(run.code, 0, run.stderr);
  const last = run.stdout.trimEnd().split('\n').at(-1)!;
  const skipped = /(\d+) skipped/.exec(last);
  t.ok(skipped && Number(skipped[1]) > 0, `the final line counts the skipped checks apart: ${last}`);
  t.match(last, /^PASS: (\d+) passed, 0 failed/);
  t.match(run.stdout, /- createPet: .*\(it needs to create pets; --read-only\)/, 'a skipped check says why');
  t.notMatch(run.stdout, /✓ createPet: every answer of createPet conforms/, 'no createPet request was sent, so its responses check is not passed');
  t.match(
    run.stdout,
    /∅ createPet: every answer of createPet conforms to the spec .*\(not run: no answer of createPet was seen/,
    'it is not run, with the reason',
  );
});

t.test('--read-only reads the limits from whatever the target holds: a target that ignores limit fails', async (t) => {
  const pets = () => Array.from({ length: 150 }, (_, i) => ({ name: `Pet ${i}`, categoryId: 1n, status: 'available' }));
  const target = await startVariant('ignores-limit', { apiKey: KEY, initialPets: pets });
  t.teardown(() => target.close());
  const { code, result } = await conformJson(target.url, KEY, ['--read-only', '--runs', '10']);
  t.equal(code, 1, 'exit 1');
  t.ok(
    result.failures.some((f) => f.family === 'limits'),
    describeFailures(result),
  );
  t.equal(result.writes, 0, 'and it wrote nothing');
});

t.test('a run that exercised nothing exits 2 and says why', async (t) => {
  const server = await startServer({ apiKeys: [KEY] });
  t.teardown(() => server.close());
  const run = await runCli(['conform', '--base-url', server.url, '--api-key', KEY, '--checks', 'concurrency', '--read-only', '--quiet']);
  t.equal(run.code, 2);
  t.match(run.stderr, /^petstore: nothing was tested: 0 passed, 0 failed, 1 skipped \(it needs to create pets; --read-only\)\n$/);
  t.match(run.stdout, /^NOTHING TESTED: 0 passed, 0 failed, 1 skipped$/m);
});

t.test('a base URL without its /v1 is a usage error in one line that names the fix', async (t) => {
  const server = await startServer({ apiKeys: [KEY] });
  t.teardown(() => server.close());
  const origin = new URL(server.url).origin;
  const run = await runCli(['conform', '--base-url', origin, '--api-key', KEY, '--quiet']);
  t.equal(run.code, 2);
  t.equal(
    run.stderr,
    `petstore: ${origin} does not serve this interface: GET ${origin}/pets answered 404: there is no such route there; ${origin}/v1 does: a base URL ends in its version prefix\n`,
  );
  const withPets = await runCli(['conform', '--base-url', `${server.url}/pets`, '--api-key', KEY, '--quiet']);
  t.equal(withPets.code, 2);
  t.match(withPets.stderr, /^petstore: --base-url ends in \/pets, the path of an operation: give the base URL without it \(http:\/\/127\.0\.0\.1:\d+\/v1\)\n$/);
});

t.test('a web page at the base URL is a usage error that says it is HTML', async (t) => {
  const page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Welcome</title>'));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => page.close(resolve)));
  const url = `http://127.0.0.1:${(page.address() as { port: number }).port}/v1`;
  const run = await runCli(['conform', '--base-url', url, '--api-key', KEY, '--quiet']);
  t.equal(run.code, 2);
  t.match(
    run.stderr,
    /^petstore: http:\/\/127\.0\.0\.1:\d+\/v1 does not serve this interface: GET .*\/v1\/pets answered 200 with an HTML page; is this the right host and port\?\n$/,
  );
});

t.test('a minimal input is written with integers as their digits, never as BigInt literals', async (t) => {
  const target = await startVariant('returns-limit-plus-one', {
    apiKey: KEY,
    initialPets: () => Array.from({ length: 30 }, (_, i) => ({ name: `P${i}`, categoryId: 1n })),
  });
  t.teardown(() => target.close());
  const run = await runCli(['conform', '--base-url', target.url, '--api-key', KEY, '--seed', '1', '--runs', '10', '--checks', 'limits', '--quiet']);
  t.equal(run.code, 1);
  const inputs = [...run.stdout.matchAll(/^ {3}minimal input: (.*)$/gm)].map((m) => m[1]!);
  t.ok(inputs.length > 0, 'failures show their minimal input');
  for (const input of inputs) t.notMatch(input, /\d+n\b/, `no BigInt literal: ${input}`);
});

t.test('two reports of one run: JUnit for the machine and HTML for people, the summary on stdout', async (t) => {
  const target = await startVariant('accepts-missing-auth', { apiKey: KEY });
  t.teardown(() => target.close());
  const dir = mkdtempSync(join(tmpdir(), 'petstore-reports-'));
  const xml = join(dir, 'conformance.xml');
  const html = join(dir, 'report.html');
  const run = await runCli([
    'conform',
    '--base-url',
    target.url,
    '--api-key',
    KEY,
    '--seed',
    '1',
    '--runs',
    '10',
    '--quiet',
    '--reporter',
    'junit',
    '--output',
    xml,
    '--reporter',
    `html:${html}`,
  ]);
  t.equal(run.code, 1);
  t.match(
    run.stdout,
    new RegExp(
      `^FAIL: \\d+ failures, \\d+ advisories, seed 1; report in ${xml.replace(/[.]/g, '\\.')} \\(junit\\), ${html.replace(/[.]/g, '\\.')} \\(html\\)\\nFAIL: \\d+ passed, [1-9]\\d* failed`,
    ),
  );
  t.match(
    readFileSync(xml, 'utf8'),
    /^<\?xml [\s\S]*<failure message=[\s\S]*replay: curl [\s\S]*<\/testsuites>\n$/,
    'the JUnit file, with the replay line in a failure',
  );
  t.match(readFileSync(html, 'utf8'), /^<!doctype html>[\s\S]*class="replay"[\s\S]*<\/html>\n$/i, 'the HTML file');
  const twoToStdout = await runCli(['conform', '--base-url', target.url, '--api-key', KEY, '--reporter', 'json', '--reporter', 'tap']);
  t.equal(twoToStdout.code, 2, 'two reports cannot share stdout');
  t.match(twoToStdout.stderr, /only one report can go to stdout/);
});

t.test('the coverage map lists each operation, its statuses, the declared ones never seen, and the classes of input', async (t) => {
  const server = await startServer({ apiKeys: [KEY] });
  t.teardown(() => server.close());
  const { result } = await conformJson(server.url, KEY, ['--read-only', '--runs', '10']);
  const byId = new Map(result.coverage.operations.map((op) => [op.operationId, op]));
  t.strictSame([...byId.keys()], ['listPets', 'createPet', 'getPet']);
  const create = byId.get('createPet')!;
  t.equal(create.requests, 0, 'nothing was sent to createPet under --read-only');
  t.strictSame(create.neverObserved, [201, 400, 401], 'so every declared answer of createPet shows as never seen');
  const list = byId.get('listPets')!;
  t.ok(list.statuses.some((s) => s.status === 200 && s.declared) && list.statuses.some((s) => s.status === 401 && s.declared), 'listPets answered 200 and 401');
  const limits = list.inputs.find((i) => i.dimension === 'limit')!.classes.map((c) => c.value);
  for (const expected of ['minimum (1)', 'maximum (100)', 'absent (default 20)', 'out of range']) t.ok(limits.includes(expected), `limit: ${expected}`);
  const statuses = list.inputs.find((i) => i.dimension === 'status')!.classes.map((c) => c.value);
  for (const expected of ['available', 'pending', 'sold']) t.ok(statuses.includes(expected), `status: ${expected}`);
  t.ok(
    list.inputs.some((i) => i.dimension === 'credential' && i.classes.some((c) => c.value === 'no Authorization header')),
    'credential forms',
  );
  t.ok(
    list.inputs.some((i) => i.dimension === 'route spelling' && i.classes.some((c) => c.value === 'HEAD for GET')),
    'route spellings',
  );

  const human = await runCli(['conform', '--base-url', server.url, '--api-key', KEY, '--read-only', '--runs', '10', '--quiet', '--coverage']);
  t.match(
    human.stdout,
    /^ {2}createPet +POST \/pets: 0 requests; statuses none; declared, never seen: 201, 400, 401$/m,
    '--coverage: the table, never-seen answers visible',
  );
  const plain = await runCli(['conform', '--base-url', server.url, '--api-key', KEY, '--read-only', '--runs', '10', '--quiet']);
  t.notMatch(plain.stdout, /^coverage/m, 'a passing run shows it only when asked');
});

t.test('an interface whose list is broken but whose auth answers is judged by the checks (exit 1), not turned away', async (t) => {
  // The list answers a page of text to the key; without a key, the interface's own 401 Error.
  const target = createServer((req, res) => {
    const error = JSON.stringify({ code: 'unauthorized', message: 'no key', status: 401 });
    if (req.headers.authorization !== `Bearer ${KEY}`) return void res.writeHead(401, { 'content-type': 'application/json' }).end(error);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => target.close(resolve)));
  const url = `http://127.0.0.1:${(target.address() as { port: number }).port}/v1`;
  const run = await runCli(['conform', '--base-url', url, '--api-key', KEY, '--seed', '1', '--runs', '5', '--quiet']);
  t.equal(run.code, 1, `exit 1, the checks fail it${run.stderr ? ` (stderr: ${run.stderr})` : ''}`);
  t.equal(run.stderr, '', 'no usage error');
  t.match(run.stdout, /^FAIL: /m);
});
