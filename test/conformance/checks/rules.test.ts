// A rule over every answer (conformance/checks/rules.ts) is judged on each
// exchange of the run and reported once, after every other check: the
// verdict counts the answers it spoke about, groups its problems by their
// wording with the numbers aside, names how many other kinds of problem it
// saw, and turns what the standards leave open into an advisory, or into a
// failure under --strict. It reads answers only, so --read-only keeps it.
import t from 'tap';
import type { Exchange } from '../../../conformance/client.js';
import { ruleCheck, type AnswerRule, type RuleFinding } from '../../../conformance/checks/rules.js';
import type { Advisory, CheckContext, CheckOutcome, Failure } from '../../../conformance/vocabulary.js';

type Outcome = CheckOutcome & { extraFailures?: readonly Failure[] };

/** An exchange whose answer carries `verdict` in a header, for the rule below to read back. */
function exchange(path: string, verdict: string, operationId = 'listPets'): Exchange {
  return {
    family: 'json',
    request: { method: 'GET', path, headers: {}, operationId },
    response: { status: 200, headers: { 'x-verdict': verdict }, body: '[]' },
  } as unknown as Exchange;
}

/** A rule that speaks about answers under /pets and finds in each what its x-verdict header says. */
const rule: AnswerRule = {
  id: 'json.example',
  family: 'json',
  title: 'an example rule',
  requirement: 'answers say nothing wrong',
  section: '§0 Example',
  applies: (e) => e.request.path.startsWith('/pets'),
  judge(e): RuleFinding | undefined {
    const verdict = String(e.response.headers['x-verdict']);
    if (verdict === 'ok') return undefined;
    if (verdict.startsWith('open:')) {
      return { open: `observed ${verdict.slice(5)}`, decision: verdict.slice(5), seed: '§0 not shown', reference: 'the reference does X' };
    }
    if (verdict.startsWith('kind:')) return { problem: verdict.slice(5).split('|')[1]!, kind: verdict.slice(5).split('|')[0]! };
    return { problem: verdict };
  },
};

/** What every failure of the rule carries: the rule's id, family and requirement, and the operation of the answer. */
const FAILURE_OF_THE_RULE = {
  checkId: 'json.example',
  family: 'json',
  operationId: 'listPets',
  requirement: 'answers say nothing wrong',
  seedSection: '§0 Example',
};

/** Registers the rule, hands it `exchanges` as the client would, and runs its check (under --strict or not). */
async function judged(
  exchanges: Exchange[],
  strict = false,
): Promise<{ outcome: Outcome; advisories: Advisory[]; writes: boolean; afterAll: boolean; operationId: string }> {
  const observers: ((e: Exchange) => void)[] = [];
  const ctx = { client: { observe: (o: (e: Exchange) => void) => observers.push(o) }, options: { strict } } as unknown as CheckContext;
  const check = ruleCheck(rule, ctx);
  for (const e of exchanges) for (const observe of observers) observe(e);
  const advisories: Advisory[] = [];
  const own = { ...ctx, unspecified: (a: Advisory) => advisories.push(a) } as unknown as CheckContext;
  const outcome = (await check.run(own)) as Outcome;
  return { outcome, advisories, writes: check.writes, afterAll: check.afterAll === true, operationId: check.operationId };
}

t.test('a rule that no answer of the run concerns is not run, never passed', async (t) => {
  const { outcome } = await judged([exchange('/other', 'wrong 1')]);
  t.match(outcome, { id: 'json.example', family: 'json', operationId: '*', status: 'not run', runs: 0, requests: 0 });
  t.notOk(outcome.failure);
});

t.test('a rule that every answer it concerns satisfies passes, counting those answers', async (t) => {
  const { outcome, advisories, writes, afterAll, operationId } = await judged([
    exchange('/pets', 'ok'),
    exchange('/pets?limit=1', 'ok'),
    exchange('/other', 'wrong 1'),
  ]);
  t.match(outcome, { id: 'json.example', family: 'json', operationId: '*', title: 'an example rule', status: 'passed', runs: 2, requests: 2 });
  t.notOk(outcome.failure);
  t.same(advisories, []);
  t.equal(operationId, '*', 'a rule belongs to no one operation');
  t.equal(writes, false, 'it creates nothing, so --read-only keeps it');
  t.equal(afterAll, true, 'judged once every other check has ended');
});

t.test('the same problem with other numbers is one problem, seen as many times, shown by its first answer', async (t) => {
  const { outcome } = await judged([exchange('/pets?limit=5', 'limit 5 ignored'), exchange('/pets/1', 'ok'), exchange('/pets?limit=-17', 'limit -17 ignored')]);
  t.match(outcome, { status: 'failed', runs: 3 });
  t.match(outcome.failure, {
    ...FAILURE_OF_THE_RULE,
    occurrences: 2,
    request: { path: '/pets?limit=5' },
  });
  t.equal(outcome.failure?.message, 'limit 5 ignored', 'one kind of problem: nothing added to its words');
  t.same(outcome.extraFailures, []);
});

t.test('problems whose words differ are different problems, and the first names how many others there are', async (t) => {
  const one = await judged([exchange('/pets', 'size 5 wrong'), exchange('/pets', 'limit 5 wrong')]);
  t.equal(one.outcome.failure?.message, 'size 5 wrong (and 1 other kind of problem)');
  t.match(one.outcome.extraFailures, [{ message: 'limit 5 wrong', occurrences: 1 }]);
  t.equal(one.outcome.extraFailures?.length, 1);

  const three = await judged([exchange('/pets', 'a 1'), exchange('/pets', 'b 1'), exchange('/pets', 'c 1'), exchange('/pets', 'a 22')]);
  t.equal(three.outcome.failure?.message, 'a 1 (and 2 other kinds of problem)');
  t.equal(three.outcome.failure?.occurrences, 2, 'a 22 is a 1 with another number, however many digits it has');
  t.equal(three.outcome.extraFailures?.length, 2);
});

t.test('a problem that names its kind is grouped by the kind, whatever its words', async (t) => {
  const { outcome } = await judged([
    exchange('/pets', 'kind:charset|answer 1 has no charset'),
    exchange('/pets', 'kind:charset|the charset of answer 2 is latin1'),
    exchange('/pets', 'kind:other|x'),
  ]);
  t.equal(outcome.failure?.message, 'answer 1 has no charset (and 1 other kind of problem)');
  t.equal(outcome.failure?.occurrences, 2);
  t.match(outcome.extraFailures, [{ message: 'x', occurrences: 1 }]);
});

t.test('what the standards leave open is an advisory, once per decision, shown by its first answer', async (t) => {
  const { outcome, advisories } = await judged([
    exchange('/pets?limit=1', 'open:trailing-slash'),
    exchange('/pets?limit=2', 'open:trailing-slash'),
    exchange('/pets', 'ok'),
  ]);
  t.match(outcome, { status: 'passed', runs: 3 });
  t.notOk(outcome.failure, 'an advisory never fails a run by itself');
  t.equal(advisories.length, 1);
  t.match(advisories[0], {
    decision: 'trailing-slash',
    family: 'json',
    operationId: 'listPets',
    seed: '§0 not shown',
    observed: 'observed trailing-slash',
    referenceBehaviour: 'the reference does X',
    request: { path: '/pets?limit=1' },
    response: { status: 200 },
  });
});

t.test("under --strict what the standards leave open fails unless it is this project's decision", async (t) => {
  const { outcome, advisories } = await judged(
    [exchange('/pets?limit=1', 'open:trailing-slash'), exchange('/pets?limit=2', 'open:trailing-slash'), exchange('/pets/3', 'open:case', 'getPet')],
    true,
  );
  t.same(advisories, [], 'no advisory: a failure instead');
  t.match(outcome, { status: 'failed' });
  t.match(outcome.failure, {
    ...FAILURE_OF_THE_RULE,
    message: "observed trailing-slash; --strict requires this project's decision: the reference does X (left open: §0 not shown) (and 1 other kind of problem)",
    request: { path: '/pets?limit=1' },
  });
  t.match(outcome.extraFailures, [{ operationId: 'getPet', message: /^observed case; --strict requires/ }]);
});

t.test('problems come before what --strict adds', async (t) => {
  const { outcome } = await judged([exchange('/pets', 'open:case'), exchange('/pets', 'limit 5 wrong')], true);
  t.equal(outcome.failure?.message, 'limit 5 wrong (and 1 other kind of problem)');
});
