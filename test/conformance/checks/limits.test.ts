// limits (seed §4.1, §8): `limit` is at least 1, at most 100, 20 by default,
// and a page never holds more pets than asked for; an out-of-range `limit`
// gets an answer the seed leaves open (§7), but never a server error. Each
// check passes on the reference server and fails behind a gateway that breaks it.
import t, { type Test } from 'tap';
import { runCheck } from '../../helpers/check-run.js';
import { type FrontHandler, jsonAnswer, startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

async function limitsCheck(t: Test, checkId: string, handler?: FrontHandler) {
  const { url, key } = await startTestServer(t);
  const target = handler ? await startFront(t, url, handler) : url;
  return runCheck(target, key, checkId);
}

/** A gateway that asks the server for the largest page on every listing, whatever `limit` said: a limit it drops. */
const ignoresLimit: FrontHandler = (req, forward) => {
  if (req.operationId !== 'listPets') return forward();
  const [path, query = ''] = req.path.split('?');
  const params = new URLSearchParams(query);
  params.set('limit', '100');
  return forward({ ...req, path: `${path}?${params}` });
};

t.test('the reference server keeps every limit in 1..100 and the default of 20, and answers an out-of-range limit with 400', async (t) => {
  const { url, key } = await startTestServer(t);
  for (const id of ['limits.listPets.at-most-limit', 'limits.listPets.default', 'limits.listPets.out-of-range']) {
    const { status, message } = await runCheck(url, key, id);
    t.equal(status, 'passed', `${id}: ${message}`);
  }
});

t.test('a page never holds more pets than `limit` asked for (§4.1 "Maximum number of animals returned")', async (t) => {
  const { status, message } = await limitsCheck(t, 'limits.listPets.at-most-limit', ignoresLimit);
  t.equal(status, 'failed');
  t.match(message, /^asked for at most \d+ pets, got 100$/);
  t.notMatch(message, /at most 100 pets/, 'the largest limit is kept by this gateway: it fails on a smaller one');
});

t.test('without `limit`, a page holds at most the default of 20 pets (§4.1)', async (t) => {
  const { status, message } = await limitsCheck(t, 'limits.listPets.default', ignoresLimit);
  t.equal(status, 'failed');
  t.equal(message, 'asked for at most 20 pets, got 100');
});

t.test('an out-of-range limit is never answered with a server error (§7: the answer is open, a 5xx is not)', async (t) => {
  const { status, message } = await limitsCheck(t, 'limits.listPets.out-of-range', async (req, forward) => {
    const answer = await forward();
    return req.operationId === 'listPets' && answer.status === 400 ? jsonAnswer(500, { code: 'internal', message: 'oops', status: 500 }) : answer;
  });
  t.equal(status, 'failed');
  t.match(message, /^limit .+: expected 200 or 400 or 422, got 500 \(a server error: a conforming service never fails on client input\)$/);
});

t.test('an out-of-range limit answered 200 with more than the maximum page fails', async (t) => {
  // A gateway that turns the refusal into the largest page it can, with one pet too many.
  const { status, message } = await limitsCheck(t, 'limits.listPets.out-of-range', async (req, forward) => {
    const answer = await forward();
    if (req.operationId !== 'listPets' || answer.status !== 400) return answer;
    const page = await forward({ ...req, path: '/pets?limit=100' });
    const pets = JSON.parse(page.body.toString()) as unknown[];
    return jsonAnswer(200, [...pets, { ...(pets[0] as object), id: 999_999 }]);
  });
  t.equal(status, 'failed');
  t.match(message, /^limit .+ was answered 200 without a list of at most 100 pets$/);
});
