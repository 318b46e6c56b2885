// Seed §5 (bearer authentication) and §7 (401 on every operation); decision D1.
import t from 'tap';
import type { CallOptions } from '../../../helpers/api-client.js';
import { parseRawResponse, rawExchange } from '../../../helpers/raw-socket.js';
import { startTestServer } from '../../../helpers/server.js';

const seed = [{ name: 'Rex', categoryId: 1n, status: 'available' as const }];

/** One valid request for each operation of the spec. */
const operations: ReadonlyArray<readonly [string, string, CallOptions]> = [
  ['listPets', '/pets', {}],
  ['createPet', '/pets', { json: { name: 'Tom', categoryId: 2 } }],
  ['getPet', '/pets/1', {}],
];

const CHALLENGE = 'Bearer realm="petstore"';

t.test('every operation answers 401 with an Error body and a Bearer challenge when the API key is missing', async (t) => {
  const { api } = await startTestServer(t, { seed });
  for (const [operationId, path, options] of operations) {
    const r = await api(path, { ...options, auth: false });
    t.equal(r.status, 401, `${operationId} without Authorization`);
    t.equal(r.body.code, 'unauthorized', `${operationId}: code`);
    t.equal(r.headers['www-authenticate'], CHALLENGE, `${operationId}: a challenge without error="invalid_token" (no key was presented)`);
  }
});

t.test('every operation answers 401 with error="invalid_token" for a bearer key that is not accepted', async (t) => {
  const { api } = await startTestServer(t, { seed });
  for (const [operationId, path, options] of operations) {
    const r = await api(path, { ...options, auth: 'Bearer not-a-key' });
    t.equal(r.status, 401, operationId);
    t.equal(r.body.code, 'unauthorized', `${operationId}: code`);
    t.match(r.headers['www-authenticate'], /^Bearer realm="petstore", error="invalid_token"/, `${operationId}: challenge names invalid_token`);
  }
});

t.test('an empty bearer token is refused with 401 like a missing key', async (t) => {
  const { api } = await startTestServer(t);
  for (const auth of ['Bearer ', 'Bearer', 'Bearer    ']) {
    const r = await api('/pets', { auth });
    t.equal(r.status, 401, JSON.stringify(auth));
    t.equal(r.headers['www-authenticate'], CHALLENGE, `${JSON.stringify(auth)}: no invalid_token, no key was presented`);
  }
});

t.test('a credential in another scheme is refused with 401, even when it holds a valid key', async (t) => {
  const { api, key } = await startTestServer(t);
  for (const auth of [`Basic ${Buffer.from(`user:${key}`).toString('base64')}`, `Basic ${key}`, `Token ${key}`, key]) {
    const r = await api('/pets', { auth });
    t.equal(r.status, 401, auth);
    t.equal(r.headers['www-authenticate'], CHALLENGE, `${auth}: a plain Bearer challenge`);
  }
});

t.test('the Bearer scheme name is case-insensitive (RFC 9110 §11.1)', async (t) => {
  const { api, key } = await startTestServer(t);
  for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
    const r = await api('/pets', { auth: `${scheme} ${key}` });
    t.equal(r.status, 200, scheme);
  }
});

t.test('the Bearer scheme is the first token of Authorization and nothing else (RFC 9110 §11.4, RFC 6750 §2.1)', async (t) => {
  const { api, key } = await startTestServer(t);
  for (const auth of [
    `XBearer ${key}`, // a scheme that ends in "bearer"
    `xbearer ${key}`,
    `BearerX ${key}`, // a scheme that starts with "bearer"
    `Bearerbearer ${key}`,
    `Basic bearer ${key}`, // "bearer" as the second token
    `Token Bearer ${key}`,
    `,Bearer ${key}`, // something before the scheme
    `"Bearer" ${key}`,
  ]) {
    const r = await api('/pets', { auth });
    t.equal(r.status, 401, JSON.stringify(auth));
    t.equal(r.headers['www-authenticate'], CHALLENGE, `${JSON.stringify(auth)}: no Bearer credential was presented`);
  }
});

t.test('the key itself is compared exactly', async (t) => {
  const { api, key } = await startTestServer(t);
  for (const wrong of [key.toUpperCase(), `${key}x`, key.slice(0, -1), ` ${key}x`]) {
    const r = await api('/pets', { auth: `Bearer ${wrong}` });
    t.equal(r.status, 401, JSON.stringify(wrong));
  }
});

t.test('configured API keys are all accepted and the development key is then refused', async (t) => {
  const { api } = await startTestServer(t, { apiKeys: ['key-one', 'key-two'] });
  t.equal((await api('/pets', { auth: 'Bearer key-one' })).status, 200, 'first key');
  t.equal((await api('/pets', { auth: 'Bearer key-two' })).status, 200, 'second key');
  const dev = await api('/pets', { auth: 'Bearer petstore-dev-key' });
  t.equal(dev.status, 401, 'the development key');
  t.match(dev.headers['www-authenticate'], /error="invalid_token"/);
});

t.test('without configured keys the development key petstore-dev-key is accepted', async (t) => {
  const { api, key } = await startTestServer(t);
  t.equal(key, 'petstore-dev-key');
  t.equal((await api('/pets', { auth: 'Bearer petstore-dev-key' })).status, 200);
});

t.test('authentication comes before body validation: an invalid createPet body without a key answers 401', async (t) => {
  const { api } = await startTestServer(t);
  const bodies: CallOptions[] = [
    { body: '{not json', headers: { 'content-type': 'application/json' } },
    { json: { categoryId: 1 } },
    { body: 'x', headers: { 'content-type': 'text/plain' } },
    { method: 'POST' },
  ];
  for (const options of bodies) {
    t.equal((await api('/pets', { ...options, auth: false })).status, 401, `${JSON.stringify(options)} without a key`);
    t.not((await api('/pets', options)).status, 401, `${JSON.stringify(options)} with a key is refused for its body`);
  }
});

t.test('authentication comes before lookup: an unknown petId without a key answers 401', async (t) => {
  const { api } = await startTestServer(t);
  t.equal((await api('/pets/999', { auth: false })).status, 401, 'without a key');
  t.equal((await api('/pets/999', { auth: 'Bearer wrong' })).status, 401, 'with a wrong key');
  t.equal((await api('/pets/999')).status, 404, 'with the key the pet is looked up (and not found)');
});

t.test('authentication comes before parameter validation: an invalid limit or petId without a key answers 401', async (t) => {
  const { api } = await startTestServer(t);
  for (const path of ['/pets?limit=0', '/pets?status=lost', '/pets/abc']) {
    t.equal((await api(path, { auth: false })).status, 401, `${path} without a key`);
    t.equal((await api(path)).status, 400, `${path} with the key`);
  }
});

t.test('authentication comes before the method check: another method on a known path without a key answers 401', async (t) => {
  const { api } = await startTestServer(t, { seed });
  for (const [method, path] of [
    ['DELETE', '/pets'],
    ['PUT', '/pets/1'],
    ['PATCH', '/pets/1'],
  ] as const) {
    t.equal((await api(path, { method, auth: false })).status, 401, `${method} ${path} without a key`);
    t.equal((await api(path, { method })).status, 405, `${method} ${path} with the key`);
  }
});

t.test('two Authorization fields are refused with 401, whichever holds the key (RFC 9110 §11.6.2: not a list field)', async (t) => {
  const { url, key } = await startTestServer(t, { seed });
  const { host, pathname } = new URL(url);
  for (const fields of [
    [`Bearer ${key}`, 'Bearer wrong'],
    ['Bearer wrong', `Bearer ${key}`],
    [`Bearer ${key}`, `Bearer ${key}`],
  ]) {
    const lines = fields.map((value) => `Authorization: ${value}\r\n`).join('');
    const raw = parseRawResponse(await rawExchange(url, `GET ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\n${lines}Connection: close\r\n\r\n`));
    t.equal(raw.status, 401, fields.join(' + '));
    t.match(raw.headers['www-authenticate'], /error="invalid_token"/, 'refused as an invalid credential');
  }
  const one = parseRawResponse(
    await rawExchange(url, `GET ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`),
  );
  t.equal(one.status, 200, 'one field with the key is accepted');
});
