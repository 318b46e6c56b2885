/**
 * The variants of fixtures/implementations, in shards of a few each so that
 * every test file stays well under a minute (each run of the suite loads
 * Prism afresh), and the test that runs `petstore conform` on one.
 */
import type { Test } from 'tap';
import { implementations, startVariant, type ImplementationEntry } from '../../fixtures/implementations/index.mjs';
import { conformJson, describeFailures } from './run-conform.js';

export const SHARDS = { broken: 4, correct: 2 } as const;

/** Shard `part` (1-based) of the variants of `kind`, sorted by name; together the shards hold them all. */
export function shard(kind: 'broken' | 'correct', part: number): readonly ImplementationEntry[] {
  const all = implementations.filter((i) => i.kind === kind);
  const size = Math.ceil(all.length / SHARDS[kind]);
  return all.slice((part - 1) * size, part * size);
}

/**
 * Property cases per check in the fast tier (npm test): every variant and
 * every class of input the checks try first (their examples) still run, with
 * fewer generated cases on top; a broken variant is run with the families it
 * breaks only (a correct one with all of them: no family may fail it). The
 * long tier (test/long/implementations-*) runs every variant again with every
 * family and the default --runs, as users do.
 */
export const FAST_RUNS = ['--runs', '25'] as const;

/** Broken: conform exits 1 with a failure in a family the variant breaks. Correct: exit 0, no failure. */
export function testVariant(t: Test, variant: ImplementationEntry, runs: readonly string[] = FAST_RUNS): void {
  const extra = variant.readOnly ? [...runs, '--read-only'] : runs;
  if (variant.kind === 'broken') {
    const args = runs === FAST_RUNS ? [...extra, '--checks', variant.violates.join(',')] : extra;
    t.test(`conform ${args.join(' ')} exits 1 for ${variant.name} (${variant.description}) and reports it in ${variant.violates.join(' or ')}`, async (t) => {
      const server = await startVariant(variant.name, { apiKey: 'test-key' });
      t.teardown(() => server.close());
      const { code, result, stderr } = await conformJson(server.url, server.apiKey, args);
      t.equal(code, 1, `exit code 1${code === 1 ? '' : ` (stderr: ${stderr})`}`);
      t.equal(result.ok, false, 'the result says the target does not conform');
      const reported = result.failures.some((f) => variant.violates.includes(f.family));
      t.ok(
        reported,
        reported ? `reported in ${variant.violates.join(' or ')}` : `no failure in ${variant.violates.join(', ')}; the failures:\n${describeFailures(result)}`,
      );
    });
  } else {
    t.test(`conform ${extra.join(' ')} exits 0 with no failure for ${variant.name} (${variant.description})`, async (t) => {
      const server = await startVariant(variant.name, { apiKey: 'test-key' });
      t.teardown(() => server.close());
      const { code, result, stderr } = await conformJson(server.url, server.apiKey, extra);
      t.equal(code, 0, `exit code 0${code === 0 ? '' : `; the failures:\n${describeFailures(result)}${stderr ? `\nstderr: ${stderr}` : ''}`}`);
      t.strictSame(result.failures, [], describeFailures(result));
    });
  }
}
