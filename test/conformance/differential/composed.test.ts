// oracle.composed (conformance/differential/composed.ts): requests composed
// from the interface with perturbations a conforming server ignores, compared
// with the oracle on the spot and shrunk to the fewest perturbations.
import t from 'tap';
import { percentEncodeAll } from '../../../conformance/differential/composed.js';
import { runConformance } from '../../../conformance/index.js';
import { startVariant } from '../../../fixtures/implementations/index.mjs';
import { startTestOracle } from '../../helpers/reference-oracle.js';
import { startTestServer } from '../../helpers/server.js';

t.test('every byte percent-encoded, as any client may send any character', async (t) => {
  t.equal(percentEncodeAll('5'), '%35');
  t.equal(percentEncodeAll('sold'), '%73%6F%6C%64');
  t.equal(percentEncodeAll('é'), '%C3%A9', 'UTF-8 bytes');
  t.equal(decodeURIComponent(percentEncodeAll('pending')), 'pending');
});

t.test('the reference server agrees with itself on every composed request', async (t) => {
  const { url, key } = await startTestServer(t);
  const result = await runConformance({ baseUrl: url, apiKey: key, seed: 21, runs: 40, families: ['oracle'], oracle: await startTestOracle(t, key) });
  const composed = result.checks.find((c) => c.id === 'oracle.composed');
  t.equal(composed?.status, 'passed', composed?.failure?.message ?? 'no failure');
  t.ok((composed?.runs ?? 0) >= 40, `${composed?.runs} requests`);
});

for (const [variant, shown] of [
  ['undecoded-query-values', /GET \/pets\?\S*%[0-9A-F]{2}\S* was answered 400 by the target and 200 by the oracle/],
  ['member-order-dependent', /POST \/pets was answered 400 by the target and 201 by the oracle/],
] as const) {
  t.test(`${variant}: only the composed requests show it, shrunk to one perturbation`, async (t) => {
    const server = await startVariant(variant, { apiKey: 'test-key' });
    t.teardown(() => server.close());
    const result = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, seed: 21, runs: 25, oracle: await startTestOracle(t, server.apiKey) });
    t.same([...new Set(result.failures.map((f) => f.checkId))], ['oracle.composed'], 'no other check fails it');
    const failure = result.failures[0];
    t.match(failure?.message, shown);
    t.ok(failure?.counterexample, `shrunk: ${failure?.counterexample}`);
  });
}

t.test('without an oracle there is no composed check', async (t) => {
  const { url, key } = await startTestServer(t);
  const result = await runConformance({ baseUrl: url, apiKey: key, seed: 21, runs: 5, families: ['auth', 'oracle'] });
  t.equal(
    result.checks.find((c) => c.id.startsWith('oracle.')),
    undefined,
  );
});
