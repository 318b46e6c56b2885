// The oracle (conformance/differential/mirror.ts): every request of the run
// sent again to a second implementation, ids and key translated, the answers
// compared in the order the target gave them.
import t, { type Test } from 'tap';
import { createOracleSession, translated, type OracleTarget } from '../../../conformance/differential/mirror.js';
import { runConformance } from '../../../conformance/index.js';
import { createServer } from '../../../src/server/index.js';
import { startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

async function startOracle(t: Test, apiKey: string): Promise<OracleTarget> {
  const server = createServer({ apiKeys: [apiKey], ids: 'random', control: false, docs: false, findings: false });
  const baseUrl = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  return { baseUrl, apiKey, label: 'the reference server', inProcess: true };
}

t.test("a request is translated: the target's ids of the run's pets to the oracle's, the target's key to the oracle's", async (t) => {
  const ids = new Map([['12', '90071992547409931']]);
  const request = {
    method: 'GET',
    path: '/pets/12?x=12',
    headers: { authorization: 'Bearer one', 'x-api-key': 'one' },
    body: '{"k":"one"}',
    operationId: 'getPet',
  };
  t.same(
    translated(request, ids, 'one', 'two'),
    {
      ...request,
      path: '/pets/90071992547409931?x=12',
      headers: { authorization: 'Bearer two', 'x-api-key': 'two' },
      body: '{"k":"two"}',
    },
    'a query value is not an id in a path',
  );
  t.same(translated(request, new Map(), 'one', 'one'), request, 'the same key, no pet of the run: unchanged');
});

t.test('the reference compared with itself: every request mirrored, no difference', async (t) => {
  const { url, key } = await startTestServer(t);
  const oracle = await startOracle(t, key);
  const result = await runConformance({ baseUrl: url, apiKey: key, seed: 3, runs: 5, families: ['state', 'auth', 'oracle'], oracle });
  const same = result.checks.find((c) => c.id === 'oracle.same-outcome');
  t.equal(result.ok, true, result.failures.map((f) => f.message).join('\n'));
  t.equal(same?.status, 'passed');
  t.ok((same?.runs ?? 0) > 20, `${same?.runs} requests mirrored`);
  t.equal(result.checks.find((c) => c.id === 'oracle.composed')?.status, 'passed');
});

t.test('a target that serves the list without a key, where the oracle refuses, fails with both answers', async (t) => {
  const { url, key } = await startTestServer(t);
  // A gateway that lets a request asking for HTML through to an unguarded page of the list.
  const front = await startFront(t, url, async (req, forward) =>
    req.headers['accept'] === 'text/html' ? forward({ ...req, headers: { ...req.headers, authorization: `Bearer ${key}` } }) : forward(),
  );
  const oracle = await startOracle(t, key);
  const result = await runConformance({
    baseUrl: front,
    apiKey: key,
    seed: 3,
    runs: 5,
    families: ['invariants'],
    checkIds: ['invariants.no-credential'],
    oracle,
  });
  const failure = result.failures.find((f) => f.checkId === 'oracle.same-outcome');
  t.match(
    failure?.message,
    /was answered 200 by the target and 401 by the oracle: the target served pet data to a request that carries no form of the key\. the reference server answered 401 \{"code":"unauthorized"/,
  );
});

t.test('a target that stops answering leaves the oracle skipped, not failed', async (t) => {
  const { url, key } = await startTestServer(t);
  const session = createOracleSession(
    { operations: [], options: { apiKey: key, settleMs: 0 }, client: { authorization: `Bearer ${key}` } } as never,
    {
      send: async () => {
        const { TransportError } = await import('../../../conformance/client.js');
        throw new TransportError('connection refused', { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets' });
      },
    } as never,
    { baseUrl: url, apiKey: key, label: 'the other one' },
  );
  const exchange = {
    family: 'auth',
    request: { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets' },
    response: { status: 200, headers: {}, text: '[]', json: [], durationMs: 1 },
  };
  t.equal(await session.ask(exchange as never), undefined);
  t.equal(session.stopped(), 'the other one stopped answering: connection refused');
  t.equal(await session.ask({ ...exchange, request: { ...exchange.request, raw: 'GET / HTTP/1.1\r\n\r\n' } } as never), undefined, 'nor asked again');
});
