// State accounting (conformance/checks/accounting.ts): every pet bearing the
// run's marker was handed back by a 2xx of the run and is served as handed
// back; the ids between the run's own are read where ids are dense.
import t from 'tap';
import { createLedger, gapIds, judge } from '../../../conformance/checks/accounting.js';
import type { Exchange } from '../../../conformance/client.js';
import { runConformance } from '../../../conformance/index.js';
import { runMarker } from '../../../conformance/runner.js';
import { startVariant } from '../../../fixtures/implementations/index.mjs';
import { startTestServer } from '../../helpers/server.js';

const PREFIX = 'conform-ab12.';
const options = { options: { namePrefix: PREFIX } } as never;

const exchange = (method: string, path: string, status: number, json: unknown, body?: string): Exchange =>
  ({
    family: 'state',
    request: { method, path, headers: {}, operationId: 'x', ...(body ? { body } : {}) },
    response: { status, headers: {}, text: 'x', json, durationMs: 1 },
  }) as never;
const pet = (id: bigint, name: string, status = 'sold') => ({ id, name, categoryId: 1n, status });

t.test('a marked pet that a 2xx handed back, served as handed back, is accounted for', async (t) => {
  const ledger = createLedger(PREFIX);
  ledger.observe(exchange('POST', '/pets', 201, pet(1n, `${PREFIX}a`), `{"name":"${PREFIX}a"}`));
  ledger.observe(exchange('GET', '/pets', 200, [pet(1n, `${PREFIX}a`), pet(2n, 'conform-zz99.other run'), pet(3n, 'Rex')]));
  t.same(judge(ledger, options), [], "another run's pets and unmarked ones are not this run's to account for");
});

t.test('a marked pet no answer handed back is named with the refused request that sent its name', async (t) => {
  const ledger = createLedger(PREFIX);
  ledger.observe(exchange('POST', '/pets', 201, pet(1n, `${PREFIX}a`), `{"name":"${PREFIX}a","status":"sold"}`));
  ledger.observe(exchange('POST', '/pets', 400, { code: 'invalid_body' }, `{"name":"${PREFIX}a","status":"lost"}`));
  ledger.observe(exchange('GET', '/pets?limit=100', 200, [pet(1n, `${PREFIX}a`), pet(2n, `${PREFIX}a`)]));
  const [finding, ...rest] = judge(ledger, options);
  t.equal(rest.length, 0);
  t.match(
    finding?.message,
    /^pet 2 \(name "conform-ab12\.a"\) bears this run's marker "conform-ab12\." but no answer of the run handed it back; its name was sent by requests answered 201 ×1, 400 ×1$/,
  );
  t.equal(finding?.response?.status, 400, 'the evidence is the refused request');
});

t.test('a marked pet without any sender, and one served otherwise than created', async (t) => {
  const ledger = createLedger(PREFIX);
  ledger.observe(exchange('POST', '/pets', 201, pet(1n, `${PREFIX}a`, 'sold'), `{"name":"${PREFIX}a"}`));
  ledger.observe(exchange('GET', '/pets/1', 200, pet(1n, `${PREFIX}a`, 'available')));
  ledger.observe(exchange('GET', '/pets/9', 200, pet(9n, `${PREFIX}b`)));
  const messages = judge(ledger, options).map((f) => f.message);
  t.same(messages, [
    'pet 1 was created with status "sold" but GET /pets/1 served status "available"',
    `pet 9 (name "${PREFIX}b") bears this run's marker "${PREFIX}" but no answer of the run handed it back; no request of the run sent its name`,
  ]);
});

t.test('a refused write that answers with a pet does not account for it; a 2xx write does', async (t) => {
  const ledger = createLedger(PREFIX);
  ledger.observe(exchange('POST', '/pets', 400, pet(4n, `${PREFIX}c`)));
  ledger.observe(exchange('PUT', '/pets/5', 200, pet(5n, `${PREFIX}d`)));
  t.same([...ledger.given.keys()], ['5'], 'only a 2xx to a write hands a pet back');
  t.same([...ledger.served.keys()], [], 'a 4xx serves nothing');
});

t.test("the ids between the run's own, on the stride they keep, when few enough", async (t) => {
  t.same(gapIds(['1', '2', '5', '3']), ['4']);
  t.same(gapIds(['9007199254740993', '9007199254740999', '9007199254740995']), ['9007199254740997'], 'odd ids: stride 2');
  t.same(gapIds(['10', '11', '12']), [], 'no gap');
  t.same(gapIds(['7']), [], 'one id has no gap');
  t.same(gapIds(['1', '4611686018427387904', '9223372036854775807']), [], 'random ids: too many to read');
  t.equal(gapIds(['1', '2', '259']).length, 256, 'up to 256 read');
  t.same(gapIds(['1', '2', '260']), [], 'not 257');
  t.same(gapIds(['1', '258']), [], 'two ids alone keep the stride between them');
});

t.test('the run marker is the prefix and four letters or digits, new on every run', async (t) => {
  const markers = new Set(Array.from({ length: 50 }, () => runMarker('conform-')));
  for (const marker of markers) t.match(marker, /^conform-[0-9a-z]{4}\.$/);
  t.ok(markers.size > 45, 'a fresh token each run (50 draws from 36^4)');
});

t.test('a server that keeps a body it refused fails the accounting, and only it', async (t) => {
  const server = await startVariant('stores-refused-status', { apiKey: 'test-key' });
  t.teardown(() => server.close());
  const result = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, seed: 5, runs: 10, families: ['validation'] });
  t.same(
    result.failures.map((f) => f.checkId),
    result.failures.map(() => 'state.accounting'),
  );
  t.match(result.failures[0]?.message, /bears this run's marker .* but no answer of the run handed it back; its name was sent by requests answered .*400 ×\d+/);
});

t.test("a second run against the same server takes none of the first run's pets for its own", async (t) => {
  const { url, key } = await startTestServer(t);
  for (const run of [1, 2]) {
    const result = await runConformance({ baseUrl: url, apiKey: key, seed: 5, runs: 10, families: ['validation', 'state'] });
    t.equal(result.ok, true, `run ${run} passes`);
    t.equal(result.checks.find((c) => c.id === 'state.accounting')?.status, 'passed', `run ${run}: the accounting passed`);
  }
});
