import t from 'tap';
import type { PassiveFinding, PassiveJudge } from '../../conformance/index.js';
import type { Passed } from '../../proxy/exchange.js';
import { createVerdicts } from '../../proxy/verdict.js';
import { operations } from '../../spec/operations.js';
import { createClock } from '../../src/server/clock.js';
import { createFindingLedger } from '../../src/server/findings/ledger.js';
import type { Exchange } from '../../src/server/respond.js';

const found: PassiveFinding = {
  rule: 'http.date',
  severity: 'error',
  requirement: 'An origin server with a clock sends Date (RFC 9110 §6.6.1).',
  section: 'RFC 9110 §6.6.1',
  operationId: 'getPet',
  problem: 'the 200 answer to GET /pets/1 has no Date',
  kind: 'no Date',
};

/** A judge that finds what it is told to, for every exchange. */
const judging = (findings: PassiveFinding[]): PassiveJudge => ({ judge: () => findings });

const exchange = (seq: number) => ({ seq, req: { method: 'GET', url: '/v1/pets/1' } }) as unknown as Exchange;

const passed: Passed = {
  method: 'GET',
  target: '/v1/pets/1',
  requestHeaders: {},
  requestBody: undefined,
  outside: false,
  status: 200,
  responseHeaders: ['content-type', 'application/json'],
  responseBody: Buffer.from('{}'),
  durationMs: 1,
};

const ledgerOf = () => createFindingLedger({ clock: createClock(), redact: (text) => text, keys: [] });

t.test("a problem the suite's rules find is a server finding, in the shape of the client's, counted per kind", async (t) => {
  const ledger = ledgerOf();
  const verdicts = createVerdicts({ ledger, judge: judging([found]), operations, basePath: '/v1', errors: false });
  t.equal(verdicts.judge(exchange(1), passed), undefined, 'passed back as it came without --errors');
  verdicts.judge(exchange(2), passed);
  t.match(ledger.list(), [
    {
      code: 'http.date',
      side: 'server',
      severity: 'error',
      rule: '/paths/~1pets~1{petId}/get/responses',
      seed: 'RFC 9110 §6.6.1',
      operationId: 'getPet',
      sent: '200: the 200 answer to GET /pets/1 has no Date',
      expected: found.requirement,
      status: 200,
      count: 2,
      first: { request: 1 },
      last: { request: 2 },
    },
  ]);
});

t.test('--errors: an answer that breaks a rule is replaced by a 502 naming it; an advisory is not', async (t) => {
  const broken = createVerdicts({ ledger: ledgerOf(), judge: judging([found]), operations, basePath: '/v1', errors: true });
  t.match(broken.judge(exchange(1), passed), {
    status: 502,
    code: 'nonconforming_upstream',
    message: /breaks http\.date \(RFC 9110 §6\.6\.1\): the 200 answer/,
  });
  const advised = createVerdicts({ ledger: ledgerOf(), judge: judging([{ ...found, severity: 'warning' }]), operations, basePath: '/v1', errors: true });
  t.equal(advised.judge(exchange(1), passed), undefined);
});

t.test('a target outside the base path is passed on unjudged', async (t) => {
  const ledger = ledgerOf();
  const verdicts = createVerdicts({ ledger, judge: judging([found]), operations, basePath: '/v1', errors: true });
  t.equal(verdicts.judge(exchange(1), { ...passed, target: '/health', outside: true }), undefined);
  t.same(ledger.list(), []);
});

t.test("the judge is handed the target relative to the base path and the answer's fields by name", async (t) => {
  const seen: unknown[] = [];
  const verdicts = createVerdicts({
    ledger: ledgerOf(),
    judge: {
      judge: (x) => {
        seen.push(x);
        return [];
      },
    },
    operations,
    basePath: '/v1',
    errors: false,
  });
  verdicts.judge(exchange(1), { ...passed, target: '/v1/pets?limit=5', responseHeaders: ['Set-Cookie', 'a=1', 'set-cookie', 'b=2', 'Vary', 'x', 'vary', 'y'] });
  t.match(seen, [{ path: '/pets?limit=5', responseHeaders: { 'set-cookie': 'a=1\nb=2', vary: 'x, y' } }]);
});
