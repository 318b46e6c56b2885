// auth (seed §5): a missing or invalid key gets 401 with an Error body on
// every operation, before validation and lookup; the valid key is never
// refused; a pet that exists is refused to a wrong key as any other is. Each
// check passes on the reference server and fails behind a gateway that breaks it.
import t, { type Test } from 'tap';
import { runCheck } from '../../helpers/check-run.js';
import { type FrontHandler, jsonAnswer, startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

/** The check against the reference server, behind `handler` when one is given. */
async function authCheck(t: Test, checkId: string, handler?: (key: string) => FrontHandler) {
  const { url, key } = await startTestServer(t);
  const target = handler ? await startFront(t, url, handler(key)) : url;
  return runCheck(target, key, checkId);
}

const withKey = (key: string) => ({ authorization: `Bearer ${key}` });

t.test('the reference server refuses every missing or invalid key with 401 and an Error body, and accepts the valid one', async (t) => {
  const { url, key } = await startTestServer(t);
  for (const id of ['auth.listPets.refused', 'auth.createPet.refused', 'auth.listPets.accepted', 'auth.getPet.existing']) {
    const { status, message } = await runCheck(url, key, id);
    t.equal(status, 'passed', `${id}: ${message}`);
  }
});

t.test('a key that only begins with the valid key (a character appended) must be refused with 401 (§5.3)', async (t) => {
  // A gateway comparing a prefix: it lets the longer key through as the valid one.
  const { status, message } = await authCheck(t, 'auth.listPets.refused', (key) => (req, forward) => {
    const auth = String(req.headers['authorization'] ?? '');
    return auth.startsWith(`Bearer ${key}`) ? forward({ ...req, headers: { ...req.headers, ...withKey(key) } }) : forward();
  });
  t.equal(status, 'failed');
  t.match(message, /^listPets with the key (followed by more text after a space|with a character appended): expected 401, got 200$/);
});

t.test('the 401 to a missing or invalid key carries an Error body (§5.3)', async (t) => {
  const { status, message } = await authCheck(t, 'auth.listPets.refused', () => async (_req, forward) => {
    const answer = await forward();
    return answer.status === 401 ? { ...answer, headers: { 'www-authenticate': 'Bearer' }, body: Buffer.alloc(0) } : answer;
  });
  t.equal(status, 'failed');
  t.equal(message, 'the 401 answer has no valid Error body: the body is empty');
});

t.test('the key is judged before the body: an invalid NewPet with a wrong key gets 401, not 400', async (t) => {
  // A gateway that validates the body (here by asking the server with the valid key) before it checks the key.
  const { status, message } = await authCheck(t, 'auth.createPet.refused', (key) => async (req, forward) => {
    if (req.operationId === 'createPet') {
      const validated = await forward({ ...req, headers: { ...req.headers, ...withKey(key) } });
      if (validated.status === 400) return validated;
    }
    return forward();
  });
  t.equal(status, 'failed');
  t.match(message, /^createPet with .+: expected 401, got 400$/);
});

t.test('the valid key is never refused on a valid listing (§5.2)', async (t) => {
  // A gateway that refuses the key on any listing with a query.
  const { status, message } = await authCheck(
    t,
    'auth.listPets.accepted',
    () => (req, forward) => (req.path.includes('?') ? jsonAnswer(401, { code: 'unauthorized', message: 'no', status: 401 }) : forward()),
  );
  t.equal(status, 'failed');
  t.equal(message, 'listPets with the valid key: expected 200, got 401');
});

t.test('a pet that exists, just read with the valid key, is still refused to a missing key (no cache in front of authentication)', async (t) => {
  // A cache keyed by the URL alone: a pet read with the key is served to anyone.
  const cache = new Map<string, Awaited<ReturnType<Parameters<FrontHandler>[1]>>>();
  const { status, message } = await authCheck(t, 'auth.getPet.existing', () => async (req, forward) => {
    if (req.operationId !== 'getPet') return forward();
    const cached = cache.get(req.path);
    if (cached) return cached;
    const answer = await forward();
    if (answer.status === 200) cache.set(req.path, answer);
    return answer;
  });
  t.equal(status, 'failed');
  t.match(message, /^getPet of an existing pet with no Authorization header: expected 401, got 200$/);
});
