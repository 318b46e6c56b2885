// The `petstore` command (cli/main.ts), run in process with a fake io: its
// output goes to the io given, never to the process's; `run` resolves with the
// exit code (0 success, 2 a usage error, 1 an unexpected failure) and never exits.
import { PassThrough, Writable } from 'node:stream';
import t from 'tap';
import type { CliIo } from '../../cli/io.js';
import { createProgram, run } from '../../cli/main.js';

/** Runs the CLI in this process with captured output. Only for calls that end without serving or testing. */
async function runCaptured(argv: readonly string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const out = new PassThrough().on('data', (chunk: Buffer) => (stdout += chunk));
  const err = new PassThrough().on('data', (chunk: Buffer) => (stderr += chunk));
  const code = await run(argv, { stdout: out, stderr: err, env });
  return { code, stdout, stderr };
}

t.test('the program is petstore, with the subcommands serve, conform and proxy', async (t) => {
  const io: CliIo = { stdout: new PassThrough(), stderr: new PassThrough(), env: {} };
  const program = createProgram(io);
  t.equal(program.name(), 'petstore');
  t.strictSame(
    program.commands.map((c) => c.name()),
    ['serve', 'conform', 'proxy'],
  );
});

t.test('--version prints the version on stdout and exits 0', async (t) => {
  for (const flag of ['--version', '-V']) {
    const r = await runCaptured([flag]);
    t.equal(r.code, 0, flag);
    t.equal(r.stdout, '0.1.0\n', `${flag}: the version`);
    t.equal(r.stderr, '', `${flag}: nothing on stderr`);
  }
});

t.test('--help lists both subcommands on stdout and exits 0', async (t) => {
  const r = await runCaptured(['--help']);
  t.equal(r.code, 0);
  t.match(r.stdout, /^Usage: petstore \[options\] \[command\]/);
  t.match(r.stdout, /\n {2}serve \[options\]/);
  t.match(r.stdout, /\n {2}conform \[options\]/);
  t.equal(r.stderr, '');
  const sub = await runCaptured(['help', 'conform']);
  t.equal(sub.code, 0, 'help <command>');
  t.match(sub.stdout, /^Usage: petstore conform \[options\]/, "a subcommand's help goes to the io given too");
});

t.test('no command at all shows the usage on stderr', async (t) => {
  const r = await runCaptured([]);
  t.match(r.stderr, /^Usage: petstore \[options\] \[command\]/);
  t.equal(r.stdout, '');
  // cli/main.ts counts commander's help-on-error ("commander.help") as a success.
  t.equal(r.code, 0);
});

t.test("commander's own usage errors exit 2 with the reason on stderr and a hint", async (t) => {
  const unknown = await runCaptured(['bogus']);
  t.equal(unknown.code, 2);
  t.equal(unknown.stderr, "error: unknown command 'bogus'\n(run with --help for usage)\n");
  t.equal(unknown.stdout, '');
  const missing = await runCaptured(['conform']);
  t.equal(missing.code, 2, 'a required option left out');
  t.match(missing.stderr, /required option '-u, --base-url <url>' not specified/);
  const noValue = await runCaptured(['serve', '--port']);
  t.equal(noValue.code, 2, 'an option without its value');
  t.match(noValue.stderr, /option '-p, --port <port>' argument missing/);
});

t.test("a subcommand's UsageError is one line on stderr, prefixed petstore:, exit 2", async (t) => {
  const noKey = await runCaptured(['conform', '--base-url', 'http://127.0.0.1:9/v1']);
  t.equal(noKey.code, 2);
  t.equal(noKey.stderr, 'petstore: an API key is required: --api-key KEY or PETSTORE_API_KEY\n');
  t.equal(noKey.stdout, '');
  const notUrl = await runCaptured(['conform', '--base-url', 'nope', '--api-key', 'k']);
  t.equal(notUrl.code, 2);
  t.equal(notUrl.stderr, 'petstore: --base-url nope is not a URL\n');
});

t.test('the environment is read from the io given, not from the process', async (t) => {
  // With PETSTORE_API_KEY in the io's environment the key is found, and the next check (the URL's scheme) speaks.
  const r = await runCaptured(['conform', '--base-url', 'ftp://127.0.0.1/v1'], { PETSTORE_API_KEY: 'k' });
  t.equal(r.code, 2);
  t.equal(r.stderr, 'petstore: --base-url must be http: or https:\n');
});

t.test('an unexpected failure resolves with exit code 1 and its stack on stderr, instead of throwing', async (t) => {
  let stderr = '';
  const broken = new Writable({
    write(_chunk, _encoding, callback) {
      callback();
    },
  });
  broken.write = () => {
    throw new Error('stdout is gone');
  };
  const err = new PassThrough().on('data', (chunk: Buffer) => (stderr += chunk));
  const code = await run(['--version'], { stdout: broken, stderr: err, env: {} });
  t.equal(code, 1);
  t.match(stderr, /^petstore: unexpected error: Error: stdout is gone\n {4}at /);
});
