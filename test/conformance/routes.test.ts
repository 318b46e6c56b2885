// What the routes family sends to each spelling of a route: no credential,
// and a wrong key. The wrong key is as long as the key, so that a server that
// compares nothing but the length (or a prefix) is not let off by the
// spelling's answer.
import t from 'tap';
import { refusedCredentials } from '../../conformance/checks/routes.js';

t.test('the refused credentials: none, and a Bearer key of the key length that differs from it everywhere', async (t) => {
  for (const key of ['secret-key-123', 'zzzz', 'y', 'z-y-z']) {
    const [none, wrong] = refusedCredentials(key);
    t.equal(none!.header, null, 'no Authorization header');
    const token = wrong!.header!.replace(/^Bearer /, '');
    t.equal(wrong!.header, `Bearer ${token}`, 'a Bearer credential');
    t.equal(token.length, key.length, `${key} → ${token}: the key's length`);
    t.ok(
      [...token].every((c, i) => c !== key[i]),
      `${key} → ${token}: no character in its place`,
    );
  }
  t.match(refusedCredentials('')[1]!.header, /^Bearer \S+$/, 'an empty key still gets a token: a Bearer without one is another case');
});
