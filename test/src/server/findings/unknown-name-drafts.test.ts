// The warnings of a name the operation does not have, which the server ignores
// (D3, D4; src/server/findings/unknown-name-drafts.ts): a query parameter or a
// body field, each naming the known ones and the nearest when one is close, and
// showing what the request sent only as `shown` and `redact` make it safe to.
import t from 'tap';
import { operationById } from '../../../../spec/operations.js';
import { unknownFieldDraft, unknownQueryDraft } from '../../../../src/server/findings/unknown-name-drafts.js';

const KEY = 'sk-live-123';
/** Marks what went through `shown`, so each text is seen to be shown (or not). */
const shown = (text: string) => `«${text.replaceAll(KEY, '[redacted]')}»`;
const redact = (text: string) => text.replaceAll(KEY, '[redacted]');
const listPets = operationById('listPets');
const createPet = operationById('createPet');
const getPet = operationById('getPet');

t.test('an unknown query parameter is a warning at the operation’s parameters, naming its known ones and the nearest', async (t) => {
  t.strictSame(unknownQueryDraft(listPets, 'Limit', '5', shown), {
    code: 'unknown_query_parameter',
    severity: 'warning',
    rule: '/paths/~1pets/get/parameters',
    subject: '«Limit»',
    seed: '§4.1 List animals',
    operationId: 'listPets',
    sent: '«Limit=5»',
    expected: 'limit or status; did you mean limit?',
    message: 'listPets has no query parameter «Limit»: it was ignored (did you mean limit?), so the answer is not filtered or limited by it',
    hint: 'listPets has no query parameter «Limit»: did you mean limit?',
  });
});

t.test('a parameter sent without a value is shown by its name alone', async (t) => {
  const draft = unknownQueryDraft(listPets, 'verbose', '', shown);
  t.equal(draft.sent, '«verbose»');
  t.equal(draft.expected, 'limit or status', 'nothing near: no suggestion');
  t.notMatch(draft.message, /did you mean/);
  t.equal(draft.hint, 'listPets has no query parameter «verbose»: it was ignored', 'an Error’s message says it was ignored, no guess');
});

t.test('an operation without query parameters says so; a key sent in the query is not shown', async (t) => {
  const draft = unknownQueryDraft(createPet, 'api_key', KEY, shown);
  t.equal(draft.expected, 'createPet takes no query parameters');
  t.equal(draft.rule, '/paths/~1pets/post/parameters');
  t.equal(draft.sent, '«api_key=[redacted]»');
  t.notMatch(JSON.stringify(draft), KEY);
  const pathName = unknownQueryDraft(getPet, 'petid', '1', shown);
  t.equal(pathName.expected, 'getPet takes no query parameters', 'a path parameter is no query parameter, nor offered as one');
  t.equal(pathName.seed, '§4.3 Get an animal');
  t.notMatch(pathName.message, /did you mean/);
});

t.test('an unknown body field is a warning at the schema’s properties, naming the declared fields and the nearest', async (t) => {
  t.strictSame(unknownFieldDraft(createPet, 'nmae', '"Rex"', shown, redact), {
    code: 'unknown_body_field',
    severity: 'warning',
    rule: '/components/schemas/NewPet/properties',
    subject: '«nmae»',
    seed: '§2 Resources (NewPet), §4.2 Add an animal',
    operationId: 'createPet',
    sent: '«nmae»: "Rex"',
    expected: 'only name, categoryId, status; did you mean name?',
    message: 'the body field «nmae» is not part of the interface: it was ignored and not stored (did you mean name?)',
    hint: 'the body has no field «nmae»: did you mean name?',
  });
});

t.test('a body field’s value is redacted, and a long one is shown by its size only', async (t) => {
  const secret = unknownFieldDraft(createPet, 'token', JSON.stringify(KEY), shown, redact);
  t.equal(secret.sent, '«token»: "[redacted]"');
  t.equal(secret.expected, 'only name, categoryId, status', 'nothing near: no suggestion');
  t.notMatch(secret.message, /did you mean/);
  t.equal(secret.hint, 'the body has no field «token»: it was ignored', 'the name as shown; never the value');
  const long = unknownFieldDraft(createPet, 'owner', JSON.stringify('x'.repeat(80)), shown, redact);
  t.equal(long.sent, '«owner»: a string of 82 characters');
  const object = unknownFieldDraft(createPet, 'owner', JSON.stringify({ notes: 'y'.repeat(70) }), shown, redact);
  t.equal(object.sent, '«owner»: a value of 82 characters');
});
