// `petstore conform` never gives the API key away: not in stdout, stderr or
// an --output file, for any reporter, whether the target passes or fails; nor
// any form of it that the suite sends on purpose (near misses that must be
// refused) and that reveals it. The binary writes the --output files; the
// reports on stdout come from the same code run in-process (each run of the
// binary costs seconds of start-up).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startVariant } from '../../../fixtures/implementations/index.mjs';
import { startServer } from '../../../src/index.js';
import { petstore } from '../../helpers/petstore-bin.js';
import { runCli } from '../../helpers/run-conform.js';

const KEY = 'k-SECRET-123';
const REPORTERS = ['human', 'tap', 'junit', 'json'] as const;

/** Runs `work` over `items`, `width` at a time. */
async function pool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: width }, lane));
}

/** Every reporter, to stdout and to --output (or to `only` one of them), against the target; `check` sees each report, stdout and stderr. */
async function everyReport(
  target: { url: string },
  args: readonly string[],
  runner: (argv: readonly string[], toFile: boolean) => Promise<{ code: number | null; stdout: string; stderr: string }>,
  check: (what: string, code: number | null, texts: Record<'output file' | 'stdout' | 'stderr', string>) => void,
  only?: 'stdout' | 'output file',
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'conform-cli-'));
  try {
    const toStdout =
      only === 'output file'
        ? []
        : REPORTERS.map((reporter) => async () => {
            const run = await runner(['conform', '--base-url', target.url, '--api-key', KEY, '--reporter', reporter, ...args], false);
            check(`--reporter ${reporter}`, run.code, { 'output file': '', stdout: run.stdout, stderr: run.stderr });
          });
    // One run writes every reporter's file (--reporter name:file, repeated): the same code path
    // as one run per file, at the cost of one start-up of the binary instead of four.
    const toFiles =
      only === 'stdout'
        ? []
        : [
            async () => {
              const files = REPORTERS.map((reporter) => [reporter, join(dir, `report.${reporter}`)] as const);
              const run = await runner(
                ['conform', '--base-url', target.url, '--api-key', KEY, ...files.flatMap(([reporter, file]) => ['--reporter', `${reporter}:${file}`]), ...args],
                true,
              );
              for (const [reporter, file] of files) {
                check(`--reporter ${reporter}:<file>`, run.code, { 'output file': readFileSync(file, 'utf8'), stdout: run.stdout, stderr: run.stderr });
              }
            },
          ];
    await pool([...toFiles, ...toStdout], 4, (work) => work());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

t.test('the API key never appears in stdout, stderr or the --output file, for every reporter, for a failing target', async (t) => {
  // Accepts any bearer token: its failures are requests that carry near
  // misses of the key, such as the key with a character appended.
  const failing = await startVariant('accepts-any-key', { apiKey: KEY });
  t.teardown(() => failing.close());
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
  // --output only: stdout then holds the summary line, the file the report
  // (the failing target above shows the report on stdout as well).
  await everyReport(
    reference,
    ['--seed', '3', '--runs', '10'],
    (argv) => runCli(argv),
    (what, code, texts) => {
      t.equal(code, 0, `${what}: exit code 0`);
      t.ok(texts['output file'].length > 200, `${what}: a whole report`);
      for (const [where, text] of Object.entries(texts)) t.notOk(text.includes(KEY), `${what}: the key is not in ${where}`);
    },
    'output file',
  );
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
    // To stdout only: --output writes the same text (the tests above).
    await everyReport(
      target,
      ['--seed', '1', '--checks', 'auth'],
      (argv) => runCli(argv),
      (what, code, texts) => {
        t.equal(code, 1, `${what}: exit code 1`);
        for (const [where, text] of Object.entries(texts)) {
          t.notOk(text.includes(KEY), `${what}: the key is not in ${where}`);
          t.notOk(text.includes(form), `${what}: ${label} is not in ${where}`);
        }
      },
      'stdout',
    );
  });
}
