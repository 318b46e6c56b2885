// How a client sent its key, told without the key (src/server/findings/auth-form.ts):
// the seed (§5) says `Authorization: Bearer <API_KEY>`; any other form (another
// scheme, `bearer` in lower case, extra whitespace, the key in another header or
// the query) is described so the client finds out, and the key is never shown.
import fc from 'fast-check';
import t from 'tap';
import { authorizationForm, isCanonicalBearer, keyElsewhere } from '../../../../src/server/findings/auth-form.js';

const KEY = 'secret-key-123';
const redact = (text: string) => text.replaceAll(KEY, '[redacted]');

t.test('only `Bearer`, one space, then the key is the seed’s own spelling', async (t) => {
  t.equal(isCanonicalBearer(`Bearer ${KEY}`), true);
  t.equal(isCanonicalBearer(`bearer ${KEY}`), false, 'the scheme in lower case');
  t.equal(isCanonicalBearer(`BEARER ${KEY}`), false, 'the scheme in upper case');
  t.equal(isCanonicalBearer(`Bearer  ${KEY}`), false, 'two spaces');
  t.equal(isCanonicalBearer(`Bearer\t${KEY}`), false, 'a tab');
  t.equal(isCanonicalBearer(`Bearer \u00a0${KEY}`), false, 'a no-break space before the key');
  t.equal(isCanonicalBearer('Bearer '), false, 'nothing after the space');
  t.equal(isCanonicalBearer('Bearer'), false, 'the scheme alone');
  t.equal(isCanonicalBearer(`Basic ${KEY}`), false, 'another scheme');
  t.equal(isCanonicalBearer(KEY), false, 'a bare key');
});

t.test('the form of an Authorization value shows its scheme and the whitespace after it, never the key', async (t) => {
  t.equal(authorizationForm(`Bearer ${KEY}`, redact), 'Authorization: Bearer <key>');
  t.equal(authorizationForm(`bearer ${KEY}`, redact), 'Authorization: bearer <key>', 'the scheme as written');
  t.equal(authorizationForm(`Token ${KEY}`, redact), 'Authorization: Token <key>');
  t.equal(authorizationForm(`Bearer   ${KEY}`, redact), 'Authorization: Bearer [3 spaces] <key>');
  t.equal(authorizationForm(`Bearer\t${KEY}`, redact), 'Authorization: Bearer [a tab] <key>');
  t.equal(authorizationForm(`Bearer \t${KEY}`, redact), 'Authorization: Bearer [2 whitespace characters] <key>');
  t.equal(authorizationForm('Bearer ', redact), 'Authorization: Bearer (nothing after the scheme)');
});

t.test('an empty value, and one with no whitespace (a bare key, perhaps), show nothing of it', async (t) => {
  t.equal(authorizationForm('', redact), 'Authorization: (empty)');
  t.equal(authorizationForm('   ', redact), 'Authorization: (empty)');
  t.equal(authorizationForm(KEY, redact), 'Authorization: a value with no scheme (a bare key?)');
  t.equal(
    authorizationForm('sk_live_abcdef', (s) => s),
    'Authorization: a value with no scheme (a bare key?)',
    'even when redact knows no key',
  );
});

t.test('a "scheme" over 20 characters is shown by its length only; a shorter one is shown through redact', async (t) => {
  const long = 'k'.repeat(21);
  t.equal(
    authorizationForm(`${long} x`, (s) => s),
    'Authorization: (a scheme of 21 characters) <key>',
  );
  const twenty = 'k'.repeat(20);
  t.equal(
    authorizationForm(`${twenty} x`, (s) => s),
    `Authorization: ${twenty} <key>`,
    '20 characters are shown',
  );
  t.equal(authorizationForm(`${KEY} Bearer`, redact), 'Authorization: [redacted] <key>', 'a key sent in the scheme’s place is redacted');
});

t.test('no key sent after a scheme appears in the form', async (t) => {
  // A key begins with a digit here, so it cannot be a part of the form's own words.
  const key = fc.stringMatching(/^[0-9][A-Za-z0-9._~+/-]{7,39}$/);
  const scheme = fc.constantFrom('Bearer', 'bearer', 'Token', 'Basic', 'ApiKey');
  const gap = fc.constantFrom(' ', '  ', '\t', ' \t');
  t.doesNotThrow(
    () =>
      fc.assert(
        fc.property(scheme, gap, key, (s, g, k) => {
          const form = authorizationForm(`${s}${g}${k}`, (text) => text);
          return !form.includes(k) && form.startsWith(`Authorization: ${s}`) && form.endsWith('<key>');
        }),
        { seed: 1, numRuns: 100 },
      ),
    '100 keys, none shown',
  );
});

t.test('a key put in a header commonly used for keys is named by that header', async (t) => {
  for (const name of ['x-api-key', 'api-key', 'apikey', 'x-auth-token', 'x-access-token', 'token']) {
    t.equal(keyElsewhere({ headers: { [name]: KEY } }), `the ${name} header`, name);
  }
  t.equal(keyElsewhere({ headers: { 'x-api-key': KEY }, url: '/v1/pets?api_key=k' }), 'the x-api-key header', 'a header before the query');
});

t.test('a key put in the query is named by its parameter, as the client spelt it', async (t) => {
  t.equal(keyElsewhere({ headers: {}, url: '/v1/pets?api_key=k' }), 'the query parameter api_key');
  t.equal(keyElsewhere({ headers: {}, url: '/v1/pets?limit=5&access_token=k' }), 'the query parameter access_token');
  t.equal(keyElsewhere({ headers: {}, url: '/v1/pets?TOKEN=k' }), 'the query parameter TOKEN');
  for (const name of ['apikey', 'api-key', 'key', 'token', 'auth']) {
    t.equal(keyElsewhere({ headers: {}, url: `/v1/pets?${name}=k` }), `the query parameter ${name}`, name);
  }
  t.equal(keyElsewhere({ headers: {}, url: '/v1/pets?monkey=1' }), undefined, 'a parameter that only ends in "key"');
  t.equal(keyElsewhere({ headers: {}, url: '/v1/key=1' }), undefined, 'no query at all');
  t.equal(keyElsewhere({ headers: {}, url: '/v1/pets?limit=5' }), undefined);
});

t.test('a cookie is a guess; with none of these, the key is nowhere else', async (t) => {
  t.equal(keyElsewhere({ headers: { cookie: 'session=1' } }), 'a cookie, perhaps');
  t.equal(keyElsewhere({ headers: { cookie: 'session=1' }, url: '/v1/pets?token=k' }), 'the query parameter token', 'the query before a cookie');
  t.equal(keyElsewhere({ headers: { accept: 'application/json' }, url: '/v1/pets' }), undefined);
  t.equal(keyElsewhere({ headers: {} }), undefined, 'no url');
});
