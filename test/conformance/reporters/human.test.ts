// The report for people: a summary by family and operation, then each failure
// with its requirement, the minimal request, the response seen and the
// command that replays it; then the advisories, the coverage map of a failing
// run, and the verdict. The API key appears nowhere in it.
import t from 'tap';
import type { Failure, ConformanceResult, CheckOutcome } from '../../../conformance/vocabulary.js';
import { basicCredentials } from '../../../conformance/key-forms.js';
import { renderHuman } from '../../../conformance/reporters/human.js';

const KEY = 'secret-key-123';
const TARGET = 'http://127.0.0.1:8080/v1';

const failure: Failure = {
  checkId: 'auth.listPets.refused',
  family: 'auth',
  operationId: 'listPets',
  requirement: 'When the key is missing or invalid, the service answers 401 with an Error body (§5.3).',
  seedSection: '§5 Authentication',
  message: 'listPets with the key with a character appended: expected 401, got 200',
  request: { method: 'GET', path: '/pets?limit=5', operationId: 'listPets', headers: { accept: 'application/json', authorization: `Bearer ${KEY}x` } },
  response: {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-served-by': 'cache-7', date: 'Tue, 02 Jun 2026 10:00:00 GMT' },
    text: `[{"id":1,"name":"owner ${KEY}"}]`,
    json: undefined,
    durationMs: 3,
  },
  counterexample: `[{"label":"the key with a character appended","header":"Bearer ${KEY}x"}]`,
  seed: 1234,
  occurrences: 2,
  cause: 'cause-1',
};

const check = (id: string, status: CheckOutcome['status'], title: string, extra: Partial<CheckOutcome> = {}): CheckOutcome => {
  const [family, operationId] = id.split('.') as [CheckOutcome['family'], string];
  return { id, family, operationId, title, status, runs: 5, durationMs: 10, ...extra };
};

function sample(overrides: Partial<ConformanceResult> = {}): ConformanceResult {
  return {
    ok: false,
    counts: { passed: 1, failed: 1, advisory: 1, skipped: 1, 'not run': 1 },
    exercised: 3,
    target: TARGET,
    seed: 7,
    strict: false,
    startedAt: '2026-06-02T10:00:00.000Z',
    durationMs: 1530,
    validatorLoadMs: 420,
    requests: 12,
    writes: 3,
    checks: [
      check('limits.listPets.default', 'advisory', 'listPets without `limit` returns at most 20 pets'),
      check('auth.listPets.refused', 'failed', 'listPets answers 401 to a missing or invalid API key', { failure }),
      check('validation.createPet.valid-body', 'passed', 'createPet answers 201 with the created Pet'),
      check('validation.createPet.long-name', 'skipped', 'createPet keeps a long name whole', { note: 'left out by --read-only' }),
      check('not-found.getPet.unknown-ids', 'not run', 'getPet answers 404 to unknown ids', { note: 'no pet exists to read' }),
    ],
    failures: [failure],
    causes: [
      {
        id: 'cause-1',
        summary: 'every near miss of the key is served as the key',
        evidence: `GET /pets with Bearer ${KEY}x → 200`,
        checkIds: ['auth.listPets.refused', 'leaks.listPets.key'],
        failures: 2,
      },
    ],
    advisories: [
      {
        decision: 'limit-out-of-range',
        family: 'limits',
        operationId: 'listPets',
        seed: '§7 "Behaviour for an out-of-range `limit`: not shown"',
        observed: `limit=0 was answered 200 (x-user: ${KEY})`,
        referenceBehaviour: '400 invalid_parameter',
      },
    ],
    tolerated: [],
    targetDate: '2026-06-02T10:00:00.000Z',
    connection: { insecure: true, proxy: 'http://proxy.example:3128' },
    coverage: {
      operations: [
        {
          operationId: 'listPets',
          method: 'GET',
          path: '/pets',
          requests: 9,
          statuses: [
            { status: 200, count: 8, declared: true },
            { status: 418, count: 1, declared: false },
          ],
          neverObserved: [400],
          inputs: [{ dimension: 'credential', classes: [{ value: 'a wrong key', count: 4 }] }],
        },
      ],
    },
    ...overrides,
  };
}

const lines = (text: string) => text.split('\n');

t.test('the report never contains the API key, nor a form of it that gives it away', async (t) => {
  const report = renderHuman(sample(), KEY);
  t.notOk(report.includes(KEY), 'not the key');
  t.notOk(report.includes(basicCredentials(KEY)), 'not its Basic credentials');
  t.match(report, /Authorization: "Bearer \$PETSTORE_API_KEYx"/, 'the credential sent shows where the key was');
  t.match(report, /body \[\{"id":1,"name":"owner \$PETSTORE_API_KEY"\}\]/, 'the key is removed from a response body');
  t.match(report, /limit=0 was answered 200 \(x-user: \$PETSTORE_API_KEY\)/, 'and from an advisory');
});

t.test('it opens with the target, how it was reached, and the run: seed, requests, writes, time, Prism, target clock', async (t) => {
  const [first, second, third] = lines(renderHuman(sample(), KEY));
  t.equal(first, `petstore conform: ${TARGET}`);
  t.equal(second, 'reached TLS certificates NOT verified (--insecure); through the proxy http://proxy.example:3128');
  t.equal(third, 'seed 7; 12 requests (3 writes) in 1.5 s (0.4 s of it loading Prism); target clock 2026-06-02T10:00:00.000Z');
  const direct = lines(renderHuman(sample({ connection: undefined, strict: true, validatorLoadMs: 0, targetDate: undefined }), KEY));
  t.equal(direct[1], 'seed 7, --strict; 12 requests (3 writes) in 1.5 s', 'a direct connection says nothing; --strict is said');
});

t.test('the summary lists the families in their declared order, each check marked with its outcome', async (t) => {
  const report = lines(renderHuman(sample(), KEY));
  const summary = report.slice(report.indexOf('') + 1, report.indexOf('', report.indexOf('') + 1));
  t.strictSame(summary, [
    'FAIL auth         0 passed, 1 failed',
    '  ✗ listPets: listPets answers 401 to a missing or invalid API key',
    'ok   validation   1 passed, 0 failed, 1 skipped',
    '  ✓ createPet: createPet answers 201 with the created Pet',
    '  - createPet: createPet keeps a long name whole (left out by --read-only)',
    'ok   limits       0 passed, 0 failed, 1 advisory',
    '  ! listPets: listPets without `limit` returns at most 20 pets',
    'ok   not-found    0 passed, 0 failed, 1 not run',
    '  ∅ getPet: getPet answers 404 to unknown ids (not run: no pet exists to read)',
  ]);
});

t.test('a failure shows its requirement, minimal input, request, response (the telling headers only), replay and rerun', async (t) => {
  const report = renderHuman(sample(), KEY);
  const start = lines(report).indexOf('1) [auth] listPets: listPets with the key with a character appended: expected 401, got 200 (seen 2 times) [cause-1]');
  t.ok(start > 0, 'numbered, with its family, operation, occurrences and cause');
  t.strictSame(lines(report).slice(start + 1, start + 12), [
    '   requirement (§5 Authentication): When the key is missing or invalid, the service answers 401 with an Error body (§5.3).',
    '   minimal input: [{"label":"the key with a character appended","header":"Bearer $PETSTORE_API_KEYx"}]',
    '   request: GET /pets?limit=5',
    '            Authorization: "Bearer $PETSTORE_API_KEYx"',
    '   response: 200',
    '            content-type: application/json',
    '            date: Tue, 02 Jun 2026 10:00:00 GMT',
    '            body [{"id":1,"name":"owner $PETSTORE_API_KEY"}]',
    `   replay: curl -sS -i -X GET '${TARGET}/pets?limit=5' -H 'accept: application/json' -H 'authorization: Bearer '"$PETSTORE_API_KEY"'x'`,
    `   rerun:  petstore conform --base-url ${TARGET} --api-key "$PETSTORE_API_KEY" --checks auth.listPets.refused --seed 1234`,
    '',
  ]);
  t.notMatch(report, /x-served-by/, 'a header outside the telling ones is left out');
});

t.test('causes come before the failures they explain', async (t) => {
  const report = renderHuman(sample(), KEY);
  t.match(
    report,
    '1 cause behind several failures:\n  cause-1: every near miss of the key is served as the key\n    shown by: GET /pets with Bearer $PETSTORE_API_KEYx → 200\n    explains 2 failures of auth.listPets.refused, leaks.listPets.key\n',
  );
  t.ok(report.indexOf('cause behind') < report.indexOf('1 failure:'));
});

t.test('advisories say what was seen, what this project does and the seed; --strict makes them requirements', async (t) => {
  const advisory =
    '  - [limits] listPets: limit=0 was answered 200 (x-user: $PETSTORE_API_KEY). This project: 400 invalid_parameter. Seed: §7 "Behaviour for an out-of-range `limit`: not shown"';
  const loose = renderHuman(sample(), KEY);
  t.match(loose, `1 advisory (the seed leaves these open; not failures, --strict makes them requirements):\n${advisory}\n`);
  t.match(renderHuman(sample({ strict: true }), KEY), `1 advisory (the seed leaves these open; not failures):\n${advisory}\n`);
});

t.test('a failing run ends with the coverage map and the verdict; a passing one shows the map only when asked', async (t) => {
  const failing = renderHuman(sample(), KEY);
  t.match(
    failing,
    'coverage (what the run actually sent and saw):\n  listPets   GET /pets: 9 requests; statuses 200 ×8, 418 (undeclared) ×1; declared, never seen: 400\n    credential: a wrong key ×4\n',
  );
  t.ok(failing.endsWith('\nFAIL: 1 passed, 1 failed, 1 advisory, 1 skipped, 1 not run\n'), 'the verdict is the last line');

  const passing = sample({ ok: true, failures: [], causes: [], counts: { passed: 1, failed: 0, advisory: 1, skipped: 1, 'not run': 1 } });
  t.notMatch(renderHuman(passing, KEY), /coverage \(/, 'no map unless asked');
  t.match(renderHuman(passing, KEY, { coverage: true }), /coverage \(what the run actually sent and saw\):/, 'the map when asked');
  t.ok(renderHuman(passing, KEY).endsWith('\nPASS: 1 passed, 0 failed, 1 advisory, 1 skipped, 1 not run\n'));
  t.ok(renderHuman({ ...passing, exercised: 0 }, KEY).endsWith('\nNOTHING TESTED: 1 passed, 0 failed, 1 advisory, 1 skipped, 1 not run\n'));
});
