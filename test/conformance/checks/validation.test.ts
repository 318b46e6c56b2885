// validation (seed §4.2, §7): an invalid NewPet gets 400 with an Error body; a
// valid one gets 201 with the created Pet, its fields as sent; a long name is
// kept whole or refused, never cut. Each check passes on the reference server
// and fails behind a gateway that breaks it.
import t, { type Test } from 'tap';
import { runCheck } from '../../helpers/check-run.js';
import { type FrontAnswer, type FrontHandler, jsonAnswer, jsonOf, startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

async function validationCheck(t: Test, checkId: string, handler?: FrontHandler) {
  const { url, key } = await startTestServer(t);
  const target = handler ? await startFront(t, url, handler) : url;
  return runCheck(target, key, checkId);
}

/** A gateway that changes createPet's answers of `status` with `change`. */
const onCreate =
  (status: number, change: (answer: FrontAnswer) => FrontAnswer): FrontHandler =>
  async (req, forward) => {
    const answer = await forward();
    return req.operationId === 'createPet' && answer.status === status ? change(answer) : answer;
  };

/** The created Pet's body with `name` changed by `rename`. */
const renamed = (answer: FrontAnswer, rename: (name: string) => string): FrontAnswer => {
  const pet = JSON.parse(answer.body.toString()) as { name: string };
  return { ...answer, body: Buffer.from(JSON.stringify({ ...pet, name: rename(pet.name) })) };
};

t.test('the reference server creates every valid NewPet as sent, refuses every invalid one with 400, and keeps a long name whole', async (t) => {
  const { url, key } = await startTestServer(t);
  for (const id of ['validation.createPet.valid-body', 'validation.createPet.invalid-body', 'validation.createPet.long-name']) {
    const { status, message } = await runCheck(url, key, id);
    t.equal(status, 'passed', `${id}: ${message}`);
  }
});

t.test('the created Pet holds the name as sent (§4.2 "body is the created Pet")', async (t) => {
  const { status, message } = await validationCheck(
    t,
    'validation.createPet.valid-body',
    onCreate(201, (a) => renamed(a, (name) => name.toUpperCase())),
  );
  t.equal(status, 'failed');
  t.match(message, /^the created Pet's name is ".*", but ".*" was sent \(they differ from character \d+: U\+[0-9A-F]{4}.*, then U\+[0-9A-F]{4}.*\)$/);
});

t.test('an invalid body gets 400, not another 4xx (§4.2, §7)', async (t) => {
  const { status, message } = await validationCheck(
    t,
    'validation.createPet.invalid-body',
    onCreate(400, () => jsonAnswer(422, { code: 'unprocessable', message: 'invalid', status: 422 })),
  );
  t.equal(status, 'failed');
  t.match(message, /^an invalid body \(.+\): expected 400, got 422$/);
});

t.test('the 400 to an invalid body carries an Error body {code, message, status}', async (t) => {
  const { status, message } = await validationCheck(
    t,
    'validation.createPet.invalid-body',
    onCreate(400, (a) => jsonAnswer(400, { error: (jsonOf(a) as { message: string }).message })),
  );
  t.equal(status, 'failed');
  t.equal(message, 'the 400 answer has no valid Error body: `code` is missing or not a string');
});

t.test('a long name accepted with 201 comes back whole: a name cut to a column size fails', async (t) => {
  const { status, message } = await validationCheck(
    t,
    'validation.createPet.long-name',
    onCreate(201, (a) => renamed(a, (name) => name.slice(0, 255))),
  );
  t.equal(status, 'failed');
  t.equal(message, 'a 10000-character name was accepted (201) but came back as 255 characters (cut off): refuse it with 400 or keep it whole');
});
