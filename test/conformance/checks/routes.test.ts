// What the routes family sends to each spelling of a route: no credential,
// and a wrong key. The wrong key is as long as the key, so that a server that
// compares nothing but the length (or a prefix) is not let off by the
// spelling's answer.
import t from 'tap';
import { missingOrWrongKey, servedData } from '../../../conformance/checks/routes.js';
import type { WireResponse } from '../../../conformance/client.js';

t.test('the refused credentials: none, and a Bearer key of the key length that differs from it everywhere', async (t) => {
  for (const key of ['secret-key-123', 'zzzz', 'y', 'z-y-z']) {
    const [none, wrong] = missingOrWrongKey(key);
    t.equal(none!.header, null, 'no Authorization header');
    const token = wrong!.header!.replace(/^Bearer /, '');
    t.equal(wrong!.header, `Bearer ${token}`, 'a Bearer credential');
    t.equal(token.length, key.length, `${key} → ${token}: the key's length`);
    t.ok(
      [...token].every((c, i) => c !== key[i]),
      `${key} → ${token}: no character in its place`,
    );
  }
  t.match(missingOrWrongKey('')[1]!.header, /^Bearer \S+$/, 'an empty key still gets a token: a Bearer without one is another case');
});

t.test('an answer shows the operation ran when it is a 2xx with pets (a list, or an object with an id); to HEAD, a 2xx JSON answer', async (t) => {
  const answer = (status: number, json: unknown, type = 'application/json'): WireResponse =>
    ({ status, headers: { 'content-type': type }, text: JSON.stringify(json) ?? '', json, durationMs: 1 }) as unknown as WireResponse;
  t.ok(servedData('GET', answer(200, [])), 'a list, even empty');
  t.ok(servedData('GET', answer(200, { id: 1, name: 'Rex' })), 'a pet');
  t.ok(servedData('GET', answer(299, [{ id: 1 }])), 'any 2xx, the last one too');
  t.notOk(servedData('GET', answer(300, [{ id: 1 }])), 'a 3xx is not served');
  t.notOk(servedData('GET', answer(199, [{ id: 1 }])), 'nor an informational status');
  t.notOk(servedData('GET', answer(200, { status: 'ok' })), 'an object without an id (a health page) is no pet');
  t.notOk(servedData('GET', answer(200, 'hello', 'text/html')), 'an HTML page (an app shell) is none');
  t.ok(servedData('HEAD', answer(200, undefined)), 'HEAD: a 2xx labelled JSON');
  t.notOk(servedData('HEAD', answer(200, undefined, 'text/html')), 'HEAD: a 2xx labelled otherwise is not');
  t.notOk(servedData('HEAD', answer(200, undefined, 'text/html; profile=application/json')), 'HEAD: JSON named in a parameter is not the type');
});
