// Every check of the suite ends through conformance/check.ts, so what it makes
// of a check's run is what the CI gate says: a thrown Violation is a failure
// with the request that showed it (and, for a property, the shrunk input with
// the seed and path that replay it); a check that exercised nothing is never
// passed; a spent write budget or a rate limit stops a check without blaming
// the target; anything else thrown is the check's own failure, reported, not
// an exception that ends the run.
import fc from 'fast-check';
import t from 'tap';
import { errorBodyProblem, exampleCheck, expectErrorBody, expectStatus, NothingToExercise, propertyCheck } from '../../conformance/check.js';
import { RateLimited, TransportError, WriteBudgetExhausted, type WireRequest, type WireResponse } from '../../conformance/client.js';
import { Violation, type CheckContext, type CheckOutcome } from '../../conformance/vocabulary.js';

const META = {
  id: 'limits.example',
  family: 'limits',
  operationId: 'listPets',
  title: 'an example check',
  requirement: 'limit is honoured',
  seedSection: '§3 listPets',
  writes: false,
} as const;

const request: WireRequest = { method: 'GET', path: '/pets?limit=7', headers: {}, operationId: 'listPets' };
const response = (status: number, text = '', json?: unknown): WireResponse => ({ status, headers: {}, text, json: json as never, durationMs: 1 });

function context(runs = 20, timeLeft = 60_000): CheckContext {
  return { options: { seed: 42, runs }, timeLeft: () => timeLeft } as unknown as CheckContext;
}

type Outcome = Omit<CheckOutcome, 'durationMs'>;

/** What every outcome of the check carries, besides its status, runs and note. */
const OUTCOME = { id: META.id, family: 'limits', operationId: 'listPets', title: META.title } as const;

/** A property over naturals that holds until its `from`-th run, and throws `error` from then on; `count()`: the runs it made. */
function throwingFrom(from: number, error: unknown) {
  let count = 0;
  const check = propertyCheck({
    ...META,
    arbitrary: () => fc.nat(),
    predicate: async () => {
      if (++count >= from) throw error;
    },
  });
  return { check, count: () => count };
}

t.test('a property that holds for every input passes, counting its runs', async (t) => {
  const seen: number[] = [];
  const check = propertyCheck({ ...META, arbitrary: () => fc.integer({ min: 1, max: 100 }), predicate: async (_c, n) => void seen.push(n) });
  const outcome = (await check.run(context(20))) as Outcome;
  t.same(outcome, { ...OUTCOME, runs: 20, status: 'passed' });
  t.equal(seen.length, 20);
  t.equal(check.requirement, META.requirement, 'the definition is the check');
});

t.test('a property that fails is a failure with the shrunk input, the seed and path to replay it, and the exchange that showed it', async (t) => {
  const check = propertyCheck({
    ...META,
    arbitrary: () => fc.integer({ min: 1, max: 100 }),
    predicate: async (_c, n) => {
      if (n >= 10) throw new Violation(`limit ${n} gave 11 items`, { request, response: response(200, '[]', []) });
    },
  });
  const outcome = (await check.run(context(100))) as Outcome;
  t.equal(outcome.status, 'failed');
  t.equal(outcome.id, META.id);
  t.ok(outcome.runs > 1, 'the runs include the shrinking');
  t.match(outcome.failure, {
    checkId: META.id,
    family: 'limits',
    operationId: 'listPets',
    requirement: 'limit is honoured',
    seedSection: '§3 listPets',
    message: 'limit 10 gave 11 items',
    counterexample: '10',
    seed: 42,
    request: { path: '/pets?limit=7' },
    response: { status: 200 },
  });
  t.equal(outcome.failure?.message, 'limit 10 gave 11 items', 'the shrunk case is the one reported');
  t.type(outcome.failure?.path, 'string');
  t.notOk(outcome.failure?.setup);
});

t.test('the examples are tried first, every one, even when --runs is fewer', async (t) => {
  const seen: number[] = [];
  const check = propertyCheck({
    ...META,
    arbitrary: () => fc.constant(0),
    examples: () => [11, 12, 13],
    predicate: async (_c, n) => void seen.push(n),
  });
  const outcome = (await check.run(context(1))) as Outcome;
  t.same(seen, [11, 12, 13]);
  t.equal(outcome.runs, 3);
  t.equal(outcome.status, 'passed');
});

t.test('a property of one run that holds passes: only a rate limit makes one run a skip', async (t) => {
  const once = propertyCheck({ ...META, arbitrary: () => fc.nat(), runs: () => 1, predicate: async () => undefined });
  t.match(await once.run(context(1)), { status: 'passed', runs: 1 });
});

t.test("a property's own number of runs overrides --runs", async (t) => {
  let count = 0;
  const check = propertyCheck({ ...META, arbitrary: () => fc.nat(), runs: () => 3, predicate: async () => void count++ });
  t.equal(((await check.run(context(50))) as Outcome).runs, 3);
  t.equal(count, 3);
});

t.test('a check with nothing to exercise is not run, with the reason', async (t) => {
  const { check } = throwingFrom(1, new NothingToExercise('no pet to read under --read-only'));
  t.same(await check.run(context()), { ...OUTCOME, runs: 1, status: 'not run', note: 'no pet to read under --read-only' });
  t.equal(new NothingToExercise('x').code, 'nothing_to_exercise');
});

t.test('a spent write budget ends the runs, and what ran passed', async (t) => {
  const { check, count } = throwingFrom(4, new WriteBudgetExhausted('write budget of 3 used up'));
  t.match(await check.run(context(20)), { status: 'passed', runs: 4, note: 'write budget used up after 3 runs' });
  t.equal(count(), 4, 'no run after it');
});

t.test('a rate limit on the first run skips the check; later, it ends the runs and what ran passed', async (t) => {
  const limitedAt = (at: number) => throwingFrom(at, new RateLimited('429 three times')).check;
  t.same(await limitedAt(1).run(context()), { ...OUTCOME, runs: 1, status: 'skipped', note: 'rate limited: 429 three times' });
  t.match(await limitedAt(2).run(context()), { status: 'passed', runs: 2, note: 'rate limited after 1 run: 429 three times' });
  t.match(await limitedAt(3).run(context()), { status: 'passed', runs: 3, note: 'rate limited after 2 runs: 429 three times' });
});

t.test('a target that stops answering fails the check at once, with the request it did not answer', async (t) => {
  const { check, count } = throwingFrom(1, new TransportError('socket hang up', request));
  const outcome = (await check.run(context(20))) as Outcome;
  t.equal(outcome.status, 'failed');
  t.equal(outcome.failure?.message, 'no valid HTTP answer: socket hang up');
  t.match(outcome.failure?.request, { path: '/pets?limit=7' });
  t.equal(count(), 1, 'no further run and no shrinking against a target that is gone');
});

t.test("anything else thrown is the check's own failure, named as such", async (t) => {
  const check = propertyCheck({
    ...META,
    arbitrary: () => fc.constant(1),
    predicate: async () => {
      throw new TypeError('x is undefined');
    },
  });
  const outcome = (await check.run(context(5))) as Outcome;
  t.equal(outcome.status, 'failed');
  t.equal(outcome.failure?.message, 'the check itself failed: x is undefined');
  t.equal(outcome.failure?.counterexample, '1');
});

t.test('a failure in the check’s own preparation says so', async (t) => {
  const check = propertyCheck({
    ...META,
    arbitrary: () => fc.constant(1),
    predicate: async () => {
      throw new Violation('POST /pets answered 500', { request }, true);
    },
  });
  t.match((await check.run(context(5))) as Outcome, { status: 'failed', failure: { message: 'setup: POST /pets answered 500', setup: true } });
});

t.test('a time budget used up before any run completed skips the check; used up later, what ran passed', async (t) => {
  const slow = propertyCheck({
    ...META,
    arbitrary: () => fc.nat(),
    predicate: () => new Promise((resolve) => setTimeout(resolve, 50)),
  });
  const none = (await slow.run(context(1000, 1))) as Outcome;
  t.equal(none.status, 'skipped');
  t.equal(none.note, 'time budget used up before a run completed');
  const some = (await slow.run(context(1000, 1000))) as Outcome;
  t.equal(some.status, 'passed');
  t.equal(some.note, 'time budget reached');
  t.ok(some.runs > 1 && some.runs < 1000);
});

t.test('an example check: passed with its note, skipped, not run, or failed, as a property is', async (t) => {
  const outcome = (scenario: () => Promise<string | void>) => exampleCheck({ ...META, scenario }).run(context()) as Promise<Outcome>;
  const base = { ...OUTCOME, runs: 1 };
  t.same(await outcome(async () => undefined), { ...base, status: 'passed' });
  t.same(await outcome(async () => 'read 3 pages'), { ...base, status: 'passed', note: 'read 3 pages' });
  t.same(
    await outcome(async () => {
      throw new WriteBudgetExhausted('write budget of 0 used up');
    }),
    { ...base, status: 'skipped', note: 'write budget of 0 used up' },
  );
  t.same(
    await outcome(async () => {
      throw new RateLimited('429 three times');
    }),
    { ...base, status: 'skipped', note: 'rate limited: 429 three times' },
  );
  t.same(
    await outcome(async () => {
      throw new NothingToExercise('no pet');
    }),
    { ...base, status: 'not run', note: 'no pet' },
  );
  const gone = await outcome(async () => {
    throw new TransportError('ECONNRESET', request);
  });
  t.match(gone, { ...base, status: 'failed', failure: { checkId: META.id, message: 'no valid HTTP answer: ECONNRESET', request: { path: '/pets?limit=7' } } });
  t.notOk('counterexample' in gone.failure!, 'an example has no generated input');
  t.notOk('seed' in gone.failure!);
  t.notOk('path' in gone.failure!);
  t.notOk('response' in gone.failure!, 'no answer to show');
  const broken = await outcome(async () => {
    throw new Violation('limit 0 answered 200', { request, response: response(200) });
  });
  t.match(broken.failure, {
    checkId: META.id,
    family: 'limits',
    operationId: 'listPets',
    requirement: 'limit is honoured',
    seedSection: '§3 listPets',
    message: 'limit 0 answered 200',
    response: { status: 200 },
  });
  t.notOk('setup' in broken.failure!);
  t.match(
    await outcome(async () => {
      throw 'a string';
    }),
    { status: 'failed', failure: { message: 'the check itself failed: a string' } },
  );
});

t.test('expectStatus passes the allowed statuses and names what it got, and a 5xx as a server error', async (t) => {
  const thrown = (status: number, allowed: number[], what: string) => {
    try {
      expectStatus({ request, response: response(status) }, allowed, what);
      return undefined;
    } catch (error) {
      t.type(error, Violation);
      t.match((error as Violation).exchange, { request: { path: '/pets?limit=7' }, response: { status } });
      return (error as Violation).message;
    }
  };
  t.equal(thrown(404, [400, 404], 'an unknown id'), undefined);
  t.equal(thrown(200, [400, 404], 'an unknown id'), 'an unknown id: expected 400 or 404, got 200');
  t.equal(thrown(500, [400], 'limit 0'), 'limit 0: expected 400, got 500 (a server error: a conforming service never fails on client input)');
  t.equal(thrown(499, [400], 'limit 0'), 'limit 0: expected 400, got 499');
});

t.test('an Error body is an object with a string code and message and the HTTP status as an integer', async (t) => {
  const problem = (status: number, text: string, json?: unknown) => errorBodyProblem(response(status, text, json));
  t.equal(problem(400, '{"code":"bad","message":"m","status":400}', { code: 'bad', message: 'm', status: 400n }), undefined);
  t.equal(problem(400, ''), 'the body is empty');
  t.equal(problem(400, 'Bad Request'), 'the body is not JSON');
  t.equal(problem(400, 'null', null), 'the body is not a JSON object');
  t.equal(problem(400, '"x"', 'x'), 'the body is not a JSON object');
  t.equal(problem(400, '[]', []), 'the body is not a JSON object');
  t.equal(problem(400, '{}', { message: 'm', status: 400n }), '`code` is missing or not a string');
  t.equal(problem(400, '{}', { code: 1n, message: 'm', status: 400n }), '`code` is missing or not a string');
  t.equal(problem(400, '{}', { code: 'c', status: 400n }), '`message` is missing or not a string');
  t.equal(problem(400, '{}', { code: 'c', message: 'm', status: '400' }), '`status` is missing or not an integer');
  t.equal(problem(400, '{}', { code: 'c', message: 'm' }), '`status` is missing or not an integer');
  t.equal(problem(400, '{}', { code: 'c', message: 'm', status: 404n }), '`status` is 404 but the HTTP status is 400');
  t.doesNotThrow(() => expectErrorBody({ request, response: response(401, '', { code: 'c', message: 'm', status: 401n }) }));
  t.throws(() => expectErrorBody({ request, response: response(401, '') }), {
    message: 'the 401 answer has no valid Error body: the body is empty',
    exchange: { request },
  });
});
