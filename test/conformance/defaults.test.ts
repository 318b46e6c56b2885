// The default options of a run (conformance/defaults.ts), kept apart from the
// runner so that the CLI can show them in --help without loading the suite:
// they are the defaults docs/cli.md and docs/conformance.md give, and the file
// reaches nothing but the vocabulary.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { defaultRunOptions } from '../../conformance/defaults.js';
import { FAMILIES } from '../../conformance/vocabulary.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The default column of docs/cli.md's row for `option`, without its backquotes. */
function documented(option: string): string {
  const row = readFileSync(join(root, 'docs/cli.md'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`| \`${option} `) || line.startsWith(`| \`${option}\``));
  if (!row) throw new Error(`docs/cli.md has no row for ${option}`);
  return row.split('|')[2]!.trim().replace(/`/g, '');
}

t.test('each default is the one docs/cli.md gives', async (t) => {
  t.equal(defaultRunOptions.runs, 100);
  t.equal(String(defaultRunOptions.runs), documented('--runs'));
  t.equal(String(defaultRunOptions.maxWrites), documented('--max-writes'));
  t.equal(defaultRunOptions.maxWrites, 1000);
  t.equal(`${defaultRunOptions.rate} (no limit)`, documented('--rate'));
  t.equal(defaultRunOptions.rate, 0);
  t.equal(String(defaultRunOptions.concurrency), documented('--concurrency'));
  t.equal(defaultRunOptions.concurrency, 8);
  t.equal(String(defaultRunOptions.timeoutMs), documented('--timeout'), 'milliseconds, as --timeout takes them');
  t.equal(defaultRunOptions.timeoutMs, 10_000);
  t.equal(String(defaultRunOptions.timeBudgetMs / 1000), documented('--time-budget'), 'seconds, as --time-budget takes them');
  t.equal(defaultRunOptions.timeBudgetMs, 600_000);
  t.equal(String(defaultRunOptions.settleMs / 1000), documented('--settle'), 'seconds, as --settle takes them');
  t.equal(defaultRunOptions.settleMs, 5000);
  t.equal(defaultRunOptions.namePrefix, documented('--name-prefix'));
  t.equal(defaultRunOptions.namePrefix, 'conform-');
  t.equal(documented('--strict'), 'off');
  t.equal(defaultRunOptions.strict, false);
  t.equal(documented('--read-only'), 'off');
  t.equal(defaultRunOptions.readOnly, false);
});

t.test('by default every family runs and no check is singled out', async (t) => {
  t.equal(documented('--checks <list>'), 'all');
  t.strictSame(defaultRunOptions.families, FAMILIES);
  t.ok(defaultRunOptions.families.length >= 12, 'all the families');
  t.strictSame(defaultRunOptions.checkIds, []);
});

t.test('response bodies are read up to 8 MiB (docs/conformance.md)', async (t) => {
  t.equal(defaultRunOptions.maxResponseBytes, 8 * 1024 * 1024);
  t.match(readFileSync(join(root, 'docs/conformance.md'), 'utf8'), /bodies over 8 MiB are cut off/);
});

t.test('the defaults reach nothing of the suite but its vocabulary (no runner, no Prism)', async (t) => {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(root, file), 'utf8');
    // Imports and re-exports the compiled file keeps (`import type` is erased), side-effect imports included.
    for (const m of text.matchAll(/^(?:import|export) (?!type )(?:[^;]*?from )?'([^']+)'/gms)) {
      const target = m[1]!;
      if (target.startsWith('.')) walk(relative(root, join(root, dirname(file), target.replace(/\.js$/, '.ts'))));
      else packages.add(target);
    }
  };
  walk('conformance/defaults.ts');
  t.strictSame([...seen].sort(), ['conformance/defaults.ts', 'conformance/vocabulary.ts']);
  t.strictSame([...packages], [], 'no package at all, Prism least');
});
