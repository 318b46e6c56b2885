/**
 * The test that runs `petstore conform` on each framework server of
 * fixtures/frameworks, with and without --read-only: it must pass them all.
 */
import type { Test } from 'tap';
import { frameworks, startFramework } from '../../fixtures/frameworks/index.mjs';
import { conformJson, describeFailures } from './run-conform.js';

export function testFrameworks(t: Test, runs: readonly string[]): void {
  for (const framework of frameworks) {
    for (const extra of [[...runs], [...runs, '--read-only']]) {
      t.test(`conform ${extra.join(' ')} exits 0 with no failure for ${framework.name}: ${framework.description}`, async (t) => {
        const server = await startFramework(framework.name, { apiKey: 'test-key-frameworks' });
        t.teardown(() => server.close());
        const { code, result, stderr } = await conformJson(server.url, server.apiKey, extra);
        t.equal(code, 0, `exit code 0${code === 0 ? '' : `; the failures:\n${describeFailures(result)}${stderr ? `\nstderr: ${stderr}` : ''}`}`);
        t.strictSame(result.failures, [], describeFailures(result));
        t.ok(result.exercised > 0, 'the run exercised checks');
      });
    }
  }
}
