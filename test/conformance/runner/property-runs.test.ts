// How many cases a property tries follows --runs: the fixture corpus is
// judged at 25 runs, where the smallest counts (the examples, a floor of
// three bursts) hide what a larger --runs asks for. Each is run here against
// the reference server at a --runs where the share shows.
import t, { type Test } from 'tap';
import { runConformance } from '../../../conformance/index.js';
import { startTestServer } from '../../helpers/server.js';

async function runsOf(t: Test, checkIds: string[], families: string[], runs: number) {
  const { url, key } = await startTestServer(t);
  const result = await runConformance({ baseUrl: url, apiKey: key, seed: 9, runs, families: families as never, checkIds });
  return Object.fromEntries(result.checks.filter((c) => checkIds.includes(c.id)).map((c) => [c.id, `${c.status} ${c.runs ?? ''}`.trim()]));
}

t.test('limits: half of --runs for the page sizes, a tenth for the default', async (t) => {
  const ids = ['limits.listPets.at-most-limit', 'limits.listPets.default'];
  t.same(await runsOf(t, ids, ['limits'], 60), { 'limits.listPets.at-most-limit': 'passed 30', 'limits.listPets.default': 'passed 6' });
});

t.test('concurrency: a tenth of --runs in bursts, three at least', async (t) => {
  const id = 'concurrency.createPet.burst';
  t.same(await runsOf(t, [id], ['concurrency'], 60), { [id]: 'passed 6' });
  t.same(await runsOf(t, [id], ['concurrency'], 10), { [id]: 'passed 3' });
});
