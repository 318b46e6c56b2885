// Issue 26 §4: findings' memory is bounded per rule, not per request: a
// client sending 10,000 distinct unknown parameter names cannot grow it
// without bound. And the count, the first and the last request per finding.
import t from 'tap';
import { createClock } from '../../../../src/server/clock.js';
import { createFindingLedger, type NotedRequest } from '../../../../src/server/findings/ledger.js';
import { MAX_FINDINGS_PER_RULE, type FindingDraft } from '../../../../src/server/findings/finding.js';
import { startTestServer } from '../../../helpers/server.js';
import { request } from 'undici';
import v8 from 'node:v8';
import vm from 'node:vm';

// The heap is measured after a full collection: gc exposed for this file.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const draft = (subject: string): FindingDraft => ({
  code: 'unknown_query_parameter',
  severity: 'warning',
  rule: '/paths/~1pets/get/parameters',
  subject,
  seed: '§4.1 List animals',
  sent: `${subject}=1`,
  expected: 'limit or status',
  message: `no parameter ${subject}`,
});
const requestNo = (seq: number) => ({ seq, req: { method: 'GET', url: `/v1/pets?n${seq}=1` } });

t.test('a rule keeps at most MAX_FINDINGS_PER_RULE distinct findings; the rest are counted together in one more', async (t) => {
  const ledger = createFindingLedger({ clock: createClock(), redact: (s) => s, keys: [] });
  for (let i = 1; i <= 10_000; i++) ledger.note(requestNo(i), draft(`name${i}`));
  const all = ledger.list();
  t.equal(all.length, MAX_FINDINGS_PER_RULE + 1);
  const overflow = all[MAX_FINDINGS_PER_RULE];
  t.match(overflow, { count: 10_000 - MAX_FINDINGS_PER_RULE, first: { request: MAX_FINDINGS_PER_RULE + 1 }, last: { request: 10_000 } });
  t.match(overflow?.sent, /and others: more than 20 distinct findings of this rule/);
  t.equal(
    all.reduce((n, f) => n + f.count, 0),
    10_000,
    'every request counted',
  );
  t.equal(ledger.count('warning'), MAX_FINDINGS_PER_RULE + 1, 'counted as distinct findings');
});

t.test("the upstream's findings (behind petstore proxy) are bounded apart from the client's: a rule the client's fill leaves room for them", async (t) => {
  const ledger = createFindingLedger({ clock: createClock(), redact: (s) => s, keys: [] });
  const rule = '/paths';
  for (let i = 1; i <= 100; i++) ledger.note(requestNo(i), { ...draft(`route${i}`), code: 'route_not_found', severity: 'error', rule });
  ledger.note(requestNo(101), { ...draft('invariants.served-pets'), code: 'invariants.served-pets', side: 'server', severity: 'error', rule });
  const server = ledger.list().filter((f) => f.side === 'server');
  t.match(server, [{ code: 'invariants.served-pets', count: 1, first: { request: 101 } }]);
  t.equal(ledger.list().filter((f) => f.side === 'client').length, MAX_FINDINGS_PER_RULE + 1);
});

t.test('10,000 distinct unknown parameter names sent to a server leave a bounded set of findings and a flat heap', async (t) => {
  const s = await startTestServer(t);
  const send = async (i: number) => {
    const res = await request(`${s.url}/pets?unknown_${i}_${'x'.repeat(50)}=${i}`, { headers: { authorization: `Bearer ${s.key}` } });
    await res.body.text();
  };
  const batch = async (from: number, to: number) => {
    for (let i = from; i < to; i += 50) await Promise.all(Array.from({ length: Math.min(50, to - i) }, (_, k) => send(i + k)));
  };
  await batch(0, 2_000);
  gc();
  const before = process.memoryUsage().heapUsed;
  await batch(2_000, 10_000);
  gc();
  const after = process.memoryUsage().heapUsed;
  const findings = s.server.findings.list();
  t.equal(findings.length, MAX_FINDINGS_PER_RULE + 1, 'bounded by the rule, not by the names sent');
  t.equal(
    findings.reduce((n, f) => n + f.count, 0),
    10_000,
    'and every one counted',
  );
  t.ok(after - before < 8 * 1024 * 1024, `heap grew ${Math.round((after - before) / 1024)} KiB over 8,000 more distinct names`);
});

t.test('clear forgets every finding', async (t) => {
  const ledger = createFindingLedger({ clock: createClock(), redact: (s) => s, keys: [] });
  ledger.note(requestNo(1), draft('a'));
  ledger.clear();
  t.strictSame(ledger.list(), []);
  t.equal(ledger.count(), 0);
});

t.test('a request that shows a finding is marked with its severity and rule, each of them', async (t) => {
  const ledger = createFindingLedger({ clock: createClock(), redact: (s) => s, keys: [] });
  const x: { seq: number; req: { method: string; url: string }; findings?: string } = requestNo(1);
  ledger.note(x, draft('a'));
  ledger.note(x, { ...draft('b'), severity: 'error', rule: '/paths' });
  t.equal(x.findings, 'warning /paths/~1pets/get/parameters, error /paths');
});

t.test('a request is marked for its answer: its findings’ codes in the order found and their hints, each once', async (t) => {
  const ledger = createFindingLedger({ clock: createClock(), redact: (s) => s, keys: [] });
  const x: NotedRequest = requestNo(1);
  ledger.note(x, { ...draft('stauts'), hint: 'listPets has no query parameter stauts: did you mean status?' });
  t.equal(x.findingCodes, 'unknown_query_parameter');
  t.equal(x.hints, 'listPets has no query parameter stauts: did you mean status?');
  ledger.note(x, { ...draft('page'), hint: 'listPets has no query parameter page: it was ignored' });
  ledger.note(x, { ...draft('stauts'), hint: 'listPets has no query parameter stauts: did you mean status?' });
  ledger.note(x, { ...draft(''), code: 'invalid_parameter', severity: 'error', rule: '/paths/~1pets/get/parameters/0' });
  t.equal(x.findingCodes, 'unknown_query_parameter, invalid_parameter', 'a code once, however many findings have it');
  t.equal(
    x.hints,
    'listPets has no query parameter stauts: did you mean status?; listPets has no query parameter page: it was ignored',
    'a hint once; a finding without one adds none',
  );
  const quiet: NotedRequest = requestNo(2);
  ledger.note(quiet, { ...draft('x'), code: 'deprecated_operation' });
  t.equal(quiet.findingCodes, 'deprecated_operation');
  t.equal(quiet.hints, undefined, 'no hint: nothing for a message to end with');
});

t.test('a code or hint that is only a part of one noted before is noted still', async (t) => {
  const ledger = createFindingLedger({ clock: createClock(), redact: (s) => s, keys: [] });
  const x: NotedRequest = requestNo(1);
  ledger.note(x, { ...draft('a'), code: 'unknown_query_parameter', hint: 'ab: did you mean a?' });
  ledger.note(x, { ...draft('b'), code: 'unknown_query_parameter', hint: 'b: did you mean a?' });
  t.equal(x.hints, 'ab: did you mean a?; b: did you mean a?');
  const y: NotedRequest = { seq: 2, req: {}, findingCodes: 'unauthorized_form' };
  ledger.note(y, { ...draft('c'), code: 'unauthorized' });
  t.equal(y.findingCodes, 'unauthorized_form, unauthorized');
});

t.test('list(since) keeps the findings last seen at or after that request; after mark(since), count counts from the mark', async (t) => {
  const ledger = createFindingLedger({ clock: createClock(), redact: (s) => s, keys: [] });
  ledger.note(requestNo(1), draft('a'));
  ledger.note(requestNo(2), draft('a'));
  ledger.note(requestNo(3), draft('b'));
  ledger.mark(4);
  ledger.note(requestNo(4), draft('a'));
  ledger.note(requestNo(5), draft('c'));
  const brief = (since?: number) => ledger.list(since).map((f) => [f.sent, f.count, f.first.request, f.last.request]);
  t.strictSame(
    brief(4),
    [
      ['a=1', 1, 1, 4],
      ['c=1', 1, 5, 5],
    ],
    'b is left out; a counts once since the mark (its first request is still the first ever)',
  );
  t.strictSame(brief(5), [['c=1', 1, 5, 5]], 'a since without a mark filters, and counts every occurrence');
  t.strictSame(
    brief(),
    [
      ['a=1', 3, 1, 4],
      ['b=1', 1, 3, 3],
      ['c=1', 1, 5, 5],
    ],
    'without since, every finding and every occurrence',
  );
  t.strictSame(
    brief(2).map(([sent, count]) => [sent, count]),
    [
      ['a=1', 3],
      ['b=1', 1],
      ['c=1', 1],
    ],
  );
  ledger.clear();
  ledger.note(requestNo(6), draft('a'));
  t.strictSame(brief(4), [['a=1', 1, 6, 6]], 'after a clear the count starts again from it');
});

t.test('the ledger remembers the latest marks only, and counts from the mark a since names', async (t) => {
  const ledger = createFindingLedger({ clock: createClock(), redact: (s) => s, keys: [] });
  ledger.note(requestNo(1), draft('a'));
  ledger.mark(2);
  for (let i = 0; i < 300; i++) ledger.mark(1000 + i);
  ledger.note(requestNo(1299), draft('a'));
  t.equal(ledger.list(2)[0]?.count, 2, 'a mark that is long forgotten: every occurrence is counted');
  t.equal(ledger.list(1299)[0]?.count, 1, 'the latest mark counts from itself');
});
