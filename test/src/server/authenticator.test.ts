// Seed §5 (bearer authentication); RFC 6750 §2.1, RFC 9110 §11.4 and §11.6.2; RFC 9112 §3.2.
// The authenticator and the repeated-field checks on their own, without a server.
import t from 'tap';
import { challenge, createAuthenticator, hasRepeatedAuthorization, hasRepeatedHost, sameBytes } from '../../../src/server/authenticator.js';

const KEY = 'key-0123';
const authenticate = createAuthenticator([KEY, 'another-key']);

t.test('a server cannot be made without an API key', async (t) => {
  t.throws(() => createAuthenticator([]), /at least one API key/);
});

t.test('the key after "Bearer" and one or more spaces is accepted, the scheme in any case', async (t) => {
  for (const header of [`Bearer ${KEY}`, `bearer ${KEY}`, `BEARER ${KEY}`, `Bearer  ${KEY}`, `bEaReR    ${KEY}`, 'Bearer another-key']) {
    t.equal(authenticate(header), 'ok', JSON.stringify(header));
  }
});

t.test('the Bearer scheme is the first token of the field and nothing else', async (t) => {
  for (const header of [`XBearer ${KEY}`, `BearerX ${KEY}`, `Bearerbearer ${KEY}`, `Basic bearer ${KEY}`, `Token Bearer ${KEY}`, `,Bearer ${KEY}`]) {
    t.equal(authenticate(header), 'missing', JSON.stringify(header));
  }
});

t.test('only spaces separate the scheme from the token: a tab or a no-break space presents no credential', async (t) => {
  for (const header of [`Bearer\t${KEY}`, `Bearer \t${KEY}`, `Bearer \u00a0${KEY}`, `Bearer\u00a0${KEY}`]) {
    t.equal(authenticate(header), 'missing', JSON.stringify(header));
  }
});

t.test('no field, an empty one, or a scheme without a token presents no credential', async (t) => {
  for (const header of [undefined, '', 'Bearer', 'Bearer ', 'Bearer   ']) t.equal(authenticate(header), 'missing', JSON.stringify(header));
});

t.test('a Bearer token that is not exactly a configured key is invalid', async (t) => {
  for (const token of [`${KEY}x`, KEY.slice(0, -1), `x${KEY}`, KEY.toUpperCase(), `${KEY} x`, 'k', 'another-key-', `${KEY}\u0000`]) {
    t.equal(authenticate(`Bearer ${token}`), 'invalid', JSON.stringify(token));
    t.equal(authenticate(`bearer  ${token}`), 'invalid', `${JSON.stringify(token)} after a lower-case scheme and two spaces`);
  }
});

t.test('sameBytes compares the text from `start` to its end with the key, byte for byte', async (t) => {
  const key = Buffer.from('abc');
  t.ok(sameBytes('abc', 0, key));
  t.ok(sameBytes('xxabc', 2, key));
  t.notOk(sameBytes('xxabc', 1, key), 'a longer text');
  t.notOk(sameBytes('ab', 0, key), 'a shorter text');
  t.notOk(sameBytes('abd', 0, key), 'the last byte differs');
  t.notOk(sameBytes('bbc', 0, key), 'the first byte differs');
  t.notOk(sameBytes('', 0, key), 'an empty text');
  t.ok(sameBytes('é', 0, Buffer.from('é', 'latin1')), 'one character per byte');
  t.notOk(sameBytes('é', 0, Buffer.from('é', 'utf8')), 'a UTF-8 key is two bytes');
});

t.test('a key with bytes beyond ASCII is compared as its UTF-8 bytes, as Node.js delivers them one character per byte', async (t) => {
  const check = createAuthenticator(['clé']);
  t.equal(check(`Bearer ${Buffer.from('clé', 'utf8').toString('latin1')}`), 'ok');
  t.equal(check('Bearer clé'), 'invalid', 'the key as Latin-1 is another key');
});

t.test('two Authorization fields are repeated, in any case; other names of the same length are not', async (t) => {
  t.ok(hasRepeatedAuthorization(['Authorization', 'Bearer a', 'authorization', 'Bearer b']));
  t.ok(hasRepeatedAuthorization(['AUTHORIZATION', 'x', 'Host', 'h', 'Authorization', 'y']));
  t.notOk(hasRepeatedAuthorization(['Authorization', 'Bearer a']));
  t.notOk(hasRepeatedAuthorization(['Authorization', 'Bearer a', 'Cache-Control', 'no-cache', 'If-None-Match', '"x"']));
  t.notOk(hasRepeatedAuthorization(['Cache-Control', 'no-cache', 'If-None-Match', '"x"']));
  t.notOk(hasRepeatedAuthorization([]));
});

t.test('two Host fields are repeated, in any case; other names of four characters are not', async (t) => {
  t.ok(hasRepeatedHost(['Host', 'a', 'Host', 'b']));
  t.ok(hasRepeatedHost(['host', 'a', 'HOST', 'b']));
  t.ok(hasRepeatedHost(['HoSt', 'a', 'Date', 'd', 'hOsT', 'b']));
  t.notOk(hasRepeatedHost(['Host', 'a']));
  t.notOk(hasRepeatedHost(['HOST', 'a', 'Date', 'd', 'From', 'f']));
  t.notOk(hasRepeatedHost(['Date', 'd', 'From', 'f']));
  t.notOk(hasRepeatedHost([]));
});

t.test('the challenge names invalid_token only for a key that was presented and refused (RFC 6750 §3)', async (t) => {
  t.equal(challenge('missing'), 'Bearer realm="petstore"');
  t.equal(challenge('invalid'), 'Bearer realm="petstore", error="invalid_token", error_description="The API key is not accepted"');
});
