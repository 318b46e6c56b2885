// `petstore conform` as a user runs it: the real binary (bin/petstore.js, on
// the compiled dist/) in a child process, against servers started here.
// Exit codes: 0 the target conforms, 1 a requirement fails, 2 a usage
// problem or an unreachable target, in one line without a stack trace.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startVariant } from '../../fixtures/implementations/index.mjs';
import { conformCommand } from '../../src/cli/conform.js';
import { startServer } from '../../src/index.js';
import { runCli } from './run-conform.js';

const BIN = new URL('../../bin/petstore.js', import.meta.url).pathname;
const KEY = 'k-SECRET-123';
const REPORTERS = ['human', 'tap', 'junit', 'json'] as const;

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs `node bin/petstore.js <args>`; PETSTORE_API_KEY is never inherited. */
function petstore(args: readonly string[], env: Record<string, string> = {}): Promise<Exit> {
  const { PETSTORE_API_KEY: _inherited, ...parent } = process.env;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...parent, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: performance.now() - started });
    });
  });
}

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
  t.match(run.stdout, /^PASS: \d+ checks passed$/m);
  t.match(run.stdout, /^ok {3}auth /m, 'a summary line per family');
  t.match(run.stdout, /seed 1/, 'the seed is printed');
  t.equal(run.stderr, '', 'nothing on stderr (no progress when stdout is not a terminal)');
});

t.test('conform exits 1 against accepts-missing-auth, showing the failed requirement, a curl replay and a rerun line with the seed', async (t) => {
  const server = await startVariant('accepts-missing-auth', { apiKey: KEY });
  t.teardown(() => server.close());
  const run = await petstore(['conform', '--base-url', server.url, '--api-key', KEY, '--seed', '7', '--runs', '20']);
  t.equal(run.code, 1, run.stderr);
  t.match(run.stdout, /^FAIL: \d+ of \d+ checks failed$/m);
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
  t.match(run.stderr, /^petstore: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: the connection was refused\n$/, 'exactly one line');
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
  t.match(run.stderr, /^petstore: unknown family or check "nosuchfamily"; families: auth, validation, limits, not-found, deprecation, responses, state\n$/);
  t.notMatch(run.stderr, STACK_FRAME);
});

t.test('conform --help lists every option the command declares', async (t) => {
  const run = await petstore(['conform', '--help']);
  t.equal(run.code, 0);
  const declared = conformCommand({ stdout: process.stdout, stderr: process.stderr, env: {} }).options.map((o) => o.long!);
  t.ok(declared.length >= 17, `${declared.length} options declared`);
  for (const flag of [...declared, '--help']) t.match(run.stdout, new RegExp(`(^|[ ,])${flag}\\b`, 'm'), `--help shows ${flag}`);
});

/** Runs `work` over `items`, `width` at a time. */
async function pool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: width }, lane));
}

/** Every reporter, to stdout and to --output, against the target; `check` sees each report, stdout and stderr. */
async function everyReport(
  target: { url: string },
  args: readonly string[],
  runner: (argv: readonly string[], toFile: boolean) => Promise<{ code: number | null; stdout: string; stderr: string }>,
  check: (what: string, code: number | null, texts: Record<'output file' | 'stdout' | 'stderr', string>) => void,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'conform-cli-'));
  try {
    const runs = REPORTERS.flatMap((reporter) => [{ reporter, toFile: true }, { reporter, toFile: false }]);
    await pool(runs, 4, async ({ reporter, toFile }) => {
      const file = join(dir, `report.${reporter}`);
      const run = await runner(['conform', '--base-url', target.url, '--api-key', KEY, '--reporter', reporter, ...args, ...(toFile ? ['--output', file] : [])], toFile);
      const report = toFile ? readFileSync(file, 'utf8') : run.stdout;
      check(`--reporter ${reporter}${toFile ? ' --output' : ''}`, run.code, { 'output file': toFile ? report : '', stdout: run.stdout, stderr: run.stderr });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

t.test('the API key never appears in stdout, stderr or the --output file, for every reporter, for a failing target', async (t) => {
  // Accepts any bearer token: its failures are requests that carry near
  // misses of the key, such as the key with a character appended.
  const failing = await startVariant('accepts-any-key', { apiKey: KEY });
  t.teardown(() => failing.close());
  // The binary writes the --output files (and its summary line and stderr);
  // the reports on stdout come from the same code run in-process, to save
  // a few seconds of start-up each.
  const runner = (argv: readonly string[], toFile: boolean) => (toFile ? petstore(argv) : runCli(argv));
  await everyReport(failing, ['--seed', '3', '--runs', '10'], runner, (what, code, texts) => {
    t.equal(code, 1, `${what}: exit code 1`);
    for (const [where, text] of Object.entries(texts)) t.notOk(text.includes(KEY), `${what}: the key is not in ${where}`);
    const report = texts['output file'] || texts.stdout;
    t.match(report, /\$PETSTORE_API_KEY/, `${what}: the report shows the key as $PETSTORE_API_KEY`);
  });
});

t.test('the API key never appears in stdout, stderr or the --output file, for every reporter, for a passing target', async (t) => {
  const reference = await startServer({ apiKeys: [KEY] });
  t.teardown(() => reference.close());
  await everyReport(reference, ['--seed', '3', '--runs', '10'], runCli, (what, code, texts) => {
    t.equal(code, 0, `${what}: exit code 0`);
    t.ok((texts['output file'] || texts.stdout).length > 200, `${what}: a whole report`);
    for (const [where, text] of Object.entries(texts)) t.notOk(text.includes(KEY), `${what}: the key is not in ${where}`);
  });
});

// The suite sends near misses built from the key; a target that accepts one
// fails, and its report shows the request. None may give the key away.
const giveaways: Record<string, { authenticate: (header: string | undefined, key: string) => string; form: string }> = {
  'the key as Basic credentials (base64 of "key:")': {
    authenticate: (header, key) => (header?.startsWith('Basic ') ? 'ok' : header === `Bearer ${key}` ? 'ok' : 'missing'),
    form: Buffer.from(`${KEY}:`).toString('base64'),
  },
  'the key with its case swapped': {
    authenticate: (header, key) => (header?.toLowerCase() === `bearer ${key.toLowerCase()}` ? 'ok' : 'missing'),
    form: 'K-secret-123',
  },
  'the key without its last character': {
    authenticate: (header, key) => (header?.startsWith('Bearer ') && key.startsWith(header.slice(7)) && header.length > 7 ? 'ok' : 'missing'),
    form: KEY.slice(0, -1),
  },
};

for (const [label, { authenticate, form }] of Object.entries(giveaways)) {
  t.test(`no report shows ${label}, which gives the key away, though a target that accepts it fails on that request`, async (t) => {
    const target = await startVariant('base', { apiKey: KEY, authenticate });
    t.teardown(() => target.close());
    await everyReport(target, ['--seed', '1', '--checks', 'auth'], runCli, (what, code, texts) => {
      t.equal(code, 1, `${what}: exit code 1`);
      for (const [where, text] of Object.entries(texts)) {
        t.notOk(text.includes(KEY), `${what}: the key is not in ${where}`);
        t.notOk(text.includes(form), `${what}: ${label} is not in ${where}`);
      }
    });
  });
}
