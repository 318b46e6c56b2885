// How `petstore serve` is called (cli/serve.ts, options.ts, api-keys.ts),
// in process through `run`: usage errors exit 2 before anything listens, and
// --help lists every option.
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import t from 'tap';
import { resolveApiKeys } from '../../../cli/api-keys.js';
import type { CliIo } from '../../../cli/io.js';
import { run } from '../../../cli/main.js';
import { parseInstant, parseInteger } from '../../../cli/options.js';
import { serveCommand } from '../../../cli/serve.js';

/** Runs the CLI in this process with captured output. Only for calls that end without serving. */
async function runCaptured(argv: readonly string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const out = new PassThrough().on('data', (chunk: Buffer) => (stdout += chunk));
  const err = new PassThrough().on('data', (chunk: Buffer) => (stderr += chunk));
  const io: CliIo = { stdout: out, stderr: err, env };
  const code = await run(argv, io);
  return { code, stdout, stderr };
}

t.test('serve --help lists every option of serve and exits 0', async (t) => {
  const r = await runCaptured(['serve', '--help']);
  t.equal(r.code, 0);
  const options = serveCommand({ stdout: new PassThrough(), stderr: new PassThrough(), env: {} }).options.map((o) => o.long as string);
  for (const option of ['--port', '--host', '--api-key', '--api-keys-file', '--base-path', '--seed', '--now', '--max-pets']) {
    t.ok(options.includes(option), `serve declares ${option}`);
  }
  for (const option of options) t.match(r.stdout, option, `${option} is in the help`);
  t.match(r.stdout, /PETSTORE_API_KEYS/, 'the environment variable is mentioned');
});

t.test('an invalid option value is a usage error: exit code 2 and a reason on stderr', async (t) => {
  const cases: ReadonlyArray<readonly [string[], RegExp]> = [
    [['--port', 'abc'], /--port.*'abc' is invalid/],
    [['--port', '65536'], /0 to 65535/],
    [['--port', '-1'], /--port/],
    [['--port', '1.5'], /--port/],
    [['--now', 'yesterday'], /ISO 8601/],
    [['--now', '2031-01-01T00:00:00'], /ISO 8601/],
    [['--now', '2031-02-30'], /ISO 8601/],
    [['--now', '2031-04-31T00:00:00Z'], /ISO 8601/],
    [['--now', '2031-01-01T24:00:00Z'], /ISO 8601/],
    [['--max-pets', 'many'], /--max-pets/],
    [['--no-such-option'], /unknown option/],
  ];
  for (const [args, reason] of cases) {
    // --port 0 first, so that a value wrongly accepted never takes a fixed port (a later --port wins).
    const r = await runCaptured(['serve', '--port', '0', ...args]);
    t.equal(r.code, 2, args.join(' '));
    t.match(r.stderr, reason, `${args.join(' ')}: the reason`);
    t.equal(r.stdout, '', `${args.join(' ')}: nothing on stdout`);
  }
});

t.test('a seed file that cannot be read or does not hold NewPets is a usage error', async (t) => {
  const dir = t.testdir({ 'bad.json': '[{"name":"A"}]', 'object.json': '{}' });
  const missing = await runCaptured(['serve', '--port', '0', '--seed', join(dir, 'missing.json')]);
  t.equal(missing.code, 2, 'a missing file');
  t.match(missing.stderr, /^petstore: cannot read seed file .*missing\.json/);
  const bad = await runCaptured(['serve', '--port', '0', '--seed', join(dir, 'bad.json')]);
  t.equal(bad.code, 2, 'an invalid entry');
  t.match(bad.stderr, /bad\.json: entry 0: categoryId is required/);
  const object = await runCaptured(['serve', '--port', '0', '--seed', join(dir, 'object.json')]);
  t.equal(object.code, 2, 'not an array');
});

t.test('an API key with white space, or an unreadable key file, is a usage error', async (t) => {
  const spaced = await runCaptured(['serve', '--port', '0', '--api-key', 'two words']);
  t.equal(spaced.code, 2);
  t.match(spaced.stderr, /white space/);
  const missing = await runCaptured(['serve', '--port', '0', '--api-keys-file', '/nonexistent/keys']);
  t.equal(missing.code, 2);
  t.match(missing.stderr, /cannot read --api-keys-file \/nonexistent\/keys: ENOENT/);
});

t.test('a port that is taken is a usage error naming the address', async (t) => {
  const blocker = createNetServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
  const port = (blocker.address() as { port: number }).port;
  const r = await runCaptured(['serve', '--port', String(port), '--host', '127.0.0.1']);
  t.equal(r.code, 2);
  t.match(r.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: EADDRINUSE`));
});

t.test('API keys from flags, PETSTORE_API_KEYS and a file add up, trimmed and without duplicates', async (t) => {
  const dir = t.testdir({ keys: '# comment\nfile-key\r\n\n  shared  \n' });
  t.strictSame(resolveApiKeys({ flags: ['flag-key', 'shared'], env: ' env-key ,,shared', file: join(dir, 'keys') }), [
    'flag-key',
    'shared',
    'env-key',
    'file-key',
  ]);
  t.strictSame(resolveApiKeys({}), [], 'none at all');
  t.throws(() => resolveApiKeys({ flags: ['a\tb'] }), { code: 'usage', exitCode: 2 }, 'white space inside a key');
});

t.test('option parsers: whole numbers in range, ISO 8601 instants with an offset', async (t) => {
  const port = parseInteger(0, 65535);
  t.equal(port('0'), 0);
  t.equal(port('65535'), 65535);
  for (const bad of ['', 'abc', '1e3', '0x10', '-1', '65536', '1.0']) t.throws(() => port(bad), bad);
  t.equal(parseInstant('2030-12-05T00:00:00Z').toISOString(), '2030-12-05T00:00:00.000Z');
  t.equal(parseInstant('2030-12-05T01:00:00+01:00').toISOString(), '2030-12-05T00:00:00.000Z');
  t.equal(parseInstant('2030-12-05').toISOString(), '2030-12-05T00:00:00.000Z', 'a date alone is UTC midnight');
  t.equal(parseInstant('2032-02-29T23:59:59.5Z').toISOString(), '2032-02-29T23:59:59.500Z', 'a leap day');
  t.equal(parseInstant('0050-06-01T00:00:00Z').getUTCFullYear(), 50, 'a year below 100 is not taken for 19xx');
  for (const bad of ['2030-12-05T00:00', 'Dec 5 2030', '2030-13-01', '2030-00-10', '2031-02-29', '2031-02-30T00:00:00Z', '2030-12-05T24:00:00Z', '']) {
    t.throws(() => parseInstant(bad), bad || 'empty');
  }
});
