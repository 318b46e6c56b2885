// Readers of the response header fields the suite judges (conformance/fields.ts),
// to their RFCs' grammar: IMF-fixdate (RFC 9110 §5.6.7), challenges (§11.6.1,
// RFC 6750 §3), Cache-Control (RFC 9111 §5.2), Content-Range (RFC 9110 §14.4)
// and lists (§5.6.1). Each returns a value or undefined, never throws.
import t from 'tap';
import fc from 'fast-check';
import { BEARER_PARAM_CHARS, cacheDirectives, contentRange, IMF_FIXDATE, imfFixdate, parseChallenges, splitList } from '../../conformance/fields.js';

t.test('an IMF-fixdate is read as its instant; the obsolete forms and near misses are not IMF-fixdates', async (t) => {
  // RFC 9110 §5.6.7's own example.
  t.equal(imfFixdate('Sun, 06 Nov 1994 08:49:37 GMT'), Date.UTC(1994, 10, 6, 8, 49, 37));
  t.equal(imfFixdate('Thu, 01 Jan 1970 00:00:00 GMT'), 0);
  for (const other of [
    'Sunday, 06-Nov-94 08:49:37 GMT',
    'Sun Nov  6 08:49:37 1994',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'sun, 06 nov 1994 08:49:37 GMT',
    ' Sun, 06 Nov 1994 08:49:37 GMT',
    'Sun, 99 Nov 1994 08:49:37 GMT',
    '',
    undefined,
  ]) {
    t.equal(imfFixdate(other), undefined, JSON.stringify(other));
  }
  t.notOk(IMF_FIXDATE.test('Sun, 06 Nov 1994 08:49:37 GMT, Sun'), 'the pattern is anchored');
});

t.test('the challenges of RFC 9110 §11.6.1 read as scheme, token68 or parameters', async (t) => {
  // RFC 9110 §11.6.1's example: two challenges, the second's comma-separated parameters, a quoted-pair.
  t.strictSame(parseChallenges('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"'), [
    { scheme: 'newauth', params: { realm: 'apps', type: '1', title: 'Login to "apps"' } },
    { scheme: 'basic', params: { realm: 'simple' } },
  ]);
  t.strictSame(parseChallenges('Bearer Realm = "pets, and more" , Error=invalid_token'), [
    { scheme: 'bearer', params: { realm: 'pets, and more', error: 'invalid_token' } },
  ]);
  t.strictSame(parseChallenges('Negotiate YIIC+w==, Bearer'), [
    { scheme: 'negotiate', token68: 'YIIC+w==', params: {} },
    { scheme: 'bearer', params: {} },
  ]);
  t.strictSame(parseChallenges('Bearer'), [{ scheme: 'bearer', params: {} }]);
  t.strictSame(parseChallenges(''), [], 'an empty value holds no challenge');
});

t.test('a value that is no list of challenges is undefined', async (t) => {
  for (const bad of ['"Bearer"', 'Bearer realm="unclosed', 'Bearer a b', '=Bearer', 'Bearer@realm']) {
    t.equal(parseChallenges(bad), undefined, bad);
  }
});

t.test('no value makes a reader throw', async (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
      parseChallenges(text);
      cacheDirectives(text);
      splitList(text);
      contentRange(text);
      imfFixdate(text);
    }),
    { seed: 1, numRuns: 300 },
  );
  t.pass('300 values read');
});

t.test("RFC 6750 §3: a Bearer parameter's value holds printable ASCII but for the double quote and the backslash", async (t) => {
  for (const name of ['error', 'error_description', 'scope']) {
    const chars = BEARER_PARAM_CHARS[name]!;
    t.ok(chars.test('invalid_token'), `${name}: a plain word`);
    t.ok(chars.test('The access token expired (see RFC 6750)!'), `${name}: spaces and punctuation`);
    for (const bad of ['say "no"', 'back\\slash', 'caf\u00e9', 'line\nbreak', 'tab\there', '\x7f']) t.notOk(chars.test(bad), `${name}: ${JSON.stringify(bad)}`);
  }
});

t.test('Cache-Control directives by lower-cased name, their arguments unquoted', async (t) => {
  t.strictSame(
    [...cacheDirectives('No-Store, max-age=0, private="set-cookie, x-token", s-maxage = 60')],
    [
      ['no-store', ''],
      ['max-age', '0'],
      ['private', 'set-cookie, x-token'],
      ['s-maxage', '60'],
    ],
  );
  t.equal(cacheDirectives(undefined).size, 0);
  t.equal(cacheDirectives(' , ').size, 0);
});

t.test('a list splits at commas outside quoted strings, empty members dropped (RFC 9110 §5.6.1)', async (t) => {
  t.strictSame(splitList('a, "b,c" ,, d'), ['a', '"b,c"', 'd']);
  t.strictSame(splitList('"x\\",y", z'), ['"x\\",y"', 'z'], 'an escaped quote does not end the string');
  t.strictSame(splitList(''), []);
});

t.test('Content-Range: bytes first-last/complete, or undefined', async (t) => {
  t.strictSame(contentRange('bytes 0-499/1234'), { first: 0, last: 499, complete: 1234 });
  t.strictSame(contentRange(' BYTES 500-999/* '), { first: 500, last: 999 });
  t.notOk('complete' in contentRange('bytes 0-0/*')!, 'an unknown length has no complete');
  for (const bad of ['bytes 500-10/1000', 'bytes */1234', 'items 0-1/2', 'bytes 0-/10', 'bytes=0-1/2', '', undefined]) {
    t.equal(contentRange(bad), undefined, JSON.stringify(bad));
  }
});
