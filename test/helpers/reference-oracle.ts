/**
 * The reference server as a run's oracle, in this process, as `petstore
 * conform` starts it (cli/oracle.ts): empty, random ids, no control API, page
 * or findings; closed when the test ends.
 */
import type { Test } from 'tap';
import type { OracleTarget } from '../../conformance/differential/mirror.js';
import { createServer } from '../../src/server/index.js';

export async function startTestOracle(t: Test, apiKey: string): Promise<OracleTarget> {
  const server = createServer({ apiKeys: [apiKey], ids: 'random', control: false, docs: false, findings: false });
  const baseUrl = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  return { baseUrl, apiKey, label: 'the reference server', inProcess: true };
}
