// Words for the POSIX-shell commands the reports print (conformance/shell.ts):
// shellQuote makes any text one single-quoted word; shellArgument leaves a
// word the shell keeps as it is (a path, an option) and quotes any other.
// Each word is checked by what /bin/sh makes of it.
import { spawnSync } from 'node:child_process';
import t from 'tap';
import fc from 'fast-check';
import { shellArgument, shellQuote } from '../../conformance/shell.js';

/** The arguments /bin/sh reads from `words`, with an empty environment but PATH. */
function asShellReads(words: readonly string[]): string[] {
  const run = spawnSync('sh', ['-c', `printf '%s\\0' ${words.join(' ')}`], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/home/nobody' },
    cwd: '/',
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.split('\0').slice(0, -1);
}

const HOSTILE = ["it's", "''", 'a b', '$HOME', '`id`', '$(id)', '*', '~', '~/x', 'a\nb', '\\', '"', '!', ';ls', '&', '|', '#x', '{a,b}', '', ' ', '\t', 'é🐈'];

t.test('a quoted text is one word that the shell reads back exactly', async (t) => {
  t.equal(shellQuote('plain'), "'plain'");
  t.equal(shellQuote("it's"), "'it'\\''s'");
  t.strictSame(asShellReads(HOSTILE.map(shellQuote)), HOSTILE);
});

t.test('any text without NUL survives quoting (fast-check, seed 1)', async (t) => {
  const texts = fc.sample(
    fc.string({ unit: 'binary', maxLength: 30 }).filter((s) => !s.includes('\0')),
    { seed: 1, numRuns: 200 },
  );
  t.strictSame(asShellReads(texts.map(shellQuote)), texts);
  t.strictSame(asShellReads(texts.map(shellArgument)), texts);
});

t.test('paths, options and URLs are left as they are', async (t) => {
  for (const word of ['--base-url', 'https://staging.example.com:8443/v1', 'report.json', '../x/y_z', 'a@b%c+d=e:f,g', '-H'])
    t.equal(shellArgument(word), word);
});

t.test('any other word is quoted, so the shell expands nothing in it', async (t) => {
  for (const word of HOSTILE) t.equal(shellArgument(word), shellQuote(word), JSON.stringify(word));
  t.strictSame(asShellReads(HOSTILE.map(shellArgument)), HOSTILE);
  t.equal(shellArgument(''), "''", 'an empty argument stays an argument');
});
