/**
 * The broken variants of fixtures/implementations, in two halves so that
 * each test file stays well under a minute, and the test run on each.
 */
import type { Test } from 'tap';
import { implementations, startVariant, type ImplementationEntry } from '../../fixtures/implementations/index.mjs';
import { conformJson, describeFailures } from './run-conform.js';

const broken = implementations.filter((i) => i.kind === 'broken');
const half = Math.ceil(broken.length / 2);

/** Half 1 or 2 of the broken variants (sorted by name); together, all of them. */
export function brokenVariants(part: 1 | 2): readonly ImplementationEntry[] {
  return part === 1 ? broken.slice(0, half) : broken.slice(half);
}

export function testBrokenVariant(t: Test, variant: ImplementationEntry): void {
  t.test(`conform exits 1 for ${variant.name} (${variant.description}) and reports it in ${variant.violates.join(' or ')}`, async (t) => {
    const server = await startVariant(variant.name, { apiKey: 'test-key' });
    t.teardown(() => server.close());
    const { code, result, stderr } = await conformJson(server.url, server.apiKey);
    t.equal(code, 1, `exit code 1${code === 1 ? '' : ` (stderr: ${stderr})`}`);
    t.equal(result.ok, false, 'the result says the target does not conform');
    const reported = result.failures.some((f) => variant.violates.includes(f.family));
    t.ok(reported, reported ? `reported in ${variant.violates.join(' or ')}` : `no failure in ${variant.violates.join(', ')}; the failures:\n${describeFailures(result)}`);
  });
}
