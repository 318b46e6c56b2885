// Seed §4 (endpoints relative to the base address ending in /v1); decision D2
// (404 for unknown paths, 405 with Allow), HEAD, OPTIONS, --base-path, and
// requests that are not well-formed HTTP.
import t from 'tap';
import { call } from '../../helpers/api-client.js';
import { checkAgainstSpec } from '../../helpers/spec-guard.js';
import { connect, parseRawResponse, rawExchange, readAll } from '../../helpers/raw-socket.js';
import { startTestServer } from '../../helpers/server.js';

const seed = [{ name: 'Rex', categoryId: 1n, status: 'available' as const }];

function methods(allow: unknown): string[] {
  return String(allow)
    .split(',')
    .map((m) => m.trim())
    .sort();
}

t.test('an unknown path answers 404 with code route_not_found', async (t) => {
  const { api } = await startTestServer(t, { seed });
  for (const path of ['', '/', '/nope', '/pets/1/owner', '/pets/', '/pets//', '/PETS', '/store/orders', '/pets/1/']) {
    const r = await api(path);
    t.equal(r.status, 404, JSON.stringify(path));
    t.equal(r.body.code, 'route_not_found', `${JSON.stringify(path)}: code`);
  }
});

t.test('a path outside the base path answers 404 route_not_found', async (t) => {
  const { url, key } = await startTestServer(t, { seed });
  const origin = new URL(url).origin;
  for (const path of ['/pets', '/pets/1', '/v2/pets', '/v1pets']) {
    const r = await call(t, origin + path, path, key);
    t.equal(r.status, 404, path);
    t.equal(r.body.code, 'route_not_found', `${path}: code`);
  }
});

t.test('a known path with another method answers 405 with an Allow header listing the methods of the path', async (t) => {
  const { api } = await startTestServer(t, { seed });
  for (const method of ['DELETE', 'PUT', 'PATCH']) {
    const r = await api('/pets', { method });
    t.equal(r.status, 405, `${method} /pets`);
    t.equal(r.body.code, 'method_not_allowed');
    t.strictSame(methods(r.headers['allow']), ['GET', 'HEAD', 'OPTIONS', 'POST'], `${method} /pets: Allow`);
  }
  for (const method of ['POST', 'DELETE', 'PUT', 'PATCH']) {
    const r = await api('/pets/1', { method, ...(method === 'GET' ? {} : { json: { name: 'x', categoryId: 1 } }) });
    t.equal(r.status, 405, `${method} /pets/1`);
    t.equal(r.body.code, 'method_not_allowed');
    t.strictSame(methods(r.headers['allow']), ['GET', 'HEAD', 'OPTIONS'], `${method} /pets/1: Allow`);
  }
});

t.test('HEAD /pets answers 200 with the headers of GET /pets and no body', async (t) => {
  const { api } = await startTestServer(t, { seed });
  const get = await api('/pets');
  const head = await api('/pets', { method: 'HEAD' });
  t.equal(head.status, 200);
  t.equal(head.text, '', 'no body');
  t.equal(head.headers['content-type'], 'application/json');
  t.equal(head.headers['content-length'], String(Buffer.byteLength(get.text)), 'the length of the GET body');
  t.equal((await api('/pets', { method: 'HEAD', auth: false })).status, 401, 'HEAD is authenticated like GET');
});

t.test('HEAD /pets/{petId} answers like getPet, without a body', async (t) => {
  const { api } = await startTestServer(t, { seed });
  const found = await api('/pets/1', { method: 'HEAD' });
  t.equal(found.status, 200);
  t.equal(found.text, '');
  t.match(found.headers['deprecation'], /^@\d+$/, 'the deprecation headers of getPet');
  t.equal((await api('/pets/2', { method: 'HEAD' })).status, 404, 'an unknown id');
});

t.test('OPTIONS on a known path answers 204 with Allow, without authentication', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets', { method: 'OPTIONS', auth: false });
  t.equal(r.status, 204);
  t.equal(r.text, '');
  t.strictSame(methods(r.headers['allow']), ['GET', 'HEAD', 'OPTIONS', 'POST']);
  const pet = await api('/pets/1', { method: 'OPTIONS', auth: false });
  t.equal(pet.status, 204);
  t.strictSame(methods(pet.headers['allow']), ['GET', 'HEAD', 'OPTIONS']);
  t.equal((await api('/nope', { method: 'OPTIONS', auth: false })).status, 404, 'an unknown path is still unknown');
});

t.test('a percent-encoded petId is decoded before it is read', async (t) => {
  const { api } = await startTestServer(t, { seed });
  const r = await api('/pets/%31');
  t.equal(r.status, 200);
  t.equal(r.body.id, 1);
});

t.test('a petId that is not valid percent-encoding is an invalid parameter, refused only after authentication', async (t) => {
  const { api } = await startTestServer(t, { seed });
  const anonymous = await api('/pets/%zz', { auth: false });
  t.equal(anonymous.status, 401, 'without a key: 401 first');
  t.match(anonymous.headers['deprecation'], /^@\d+$/, 'still a getPet answer, with its deprecation headers');
  const r = await api('/pets/%zz');
  t.equal(r.status, 400, 'with the key');
  t.equal(r.body.code, 'invalid_parameter');
  t.match(r.body.message, /petId/, 'the message names the parameter');
});

t.test('unknown query parameters are ignored', async (t) => {
  const { api } = await startTestServer(t, { seed });
  const r = await api('/pets?color=red&offset=5');
  t.equal(r.status, 200);
  t.equal(r.body.length, 1);
});

t.test('basePath /api/v1 serves the interface below /api/v1 and nothing below /v1', async (t) => {
  const { api, url, key } = await startTestServer(t, { seed, basePath: '/api/v1' });
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/, 'the base URL ends in the base path');
  t.equal((await api('/pets')).status, 200, 'listPets');
  const pet = await api('/pets/1');
  t.equal(pet.status, 200, 'getPet');
  t.equal(pet.headers['link'], '</api/v1/pets>; rel="successor-version"', 'the successor link is below the base path');
  t.equal((await api('/pets', { json: { name: 'Tom', categoryId: 2 } })).status, 201, 'createPet');
  const origin = new URL(url).origin;
  t.equal((await call(t, `${origin}/v1/pets`, '/v1/pets', key)).status, 404, 'the default /v1 is not served');
});

t.test('basePath is normalised: a missing leading slash and a trailing slash make no difference', async (t) => {
  const { url, api } = await startTestServer(t, { basePath: 'api/v1/' });
  t.match(url, /\/api\/v1$/);
  t.equal((await api('/pets')).status, 200);
});

t.test('basePath / serves the interface at the root', async (t) => {
  const { url, api } = await startTestServer(t, { basePath: '/' });
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.equal((await api('/pets')).status, 200);
});

t.test('a request target over 8 KiB answers 414 uri_too_long', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api(`/pets?pad=${'a'.repeat(9000)}`);
  t.equal(r.status, 414);
  t.equal(r.body.code, 'uri_too_long');
  t.equal((await api(`/pets?pad=${'a'.repeat(7000)}`)).status, 200, 'a long target under the limit is served');
});

t.test('a request that is not HTTP answers 400 with an Error body, and the server keeps serving', async (t) => {
  const { api, url } = await startTestServer(t);
  const r = parseRawResponse(await rawExchange(url, 'GARBAGE\r\n\r\n'));
  t.equal(r.status, 400);
  t.equal(JSON.parse(r.text).code, 'bad_request');
  await checkAgainstSpec(t, { method: 'GARBAGE', path: '', ...r });
  t.equal((await api('/pets')).status, 200, 'the next request is served');
});

t.test('request headers over 16 KiB answer 431 with an Error body', async (t) => {
  const { api, url } = await startTestServer(t);
  const { host, pathname } = new URL(url);
  const raw = await rawExchange(url, `GET ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
  const r = parseRawResponse(raw);
  t.equal(r.status, 431);
  t.equal(JSON.parse(r.text).code, 'header_too_large');
  await checkAgainstSpec(t, { method: 'GET', path: '/pets', ...r });
  t.equal((await api('/pets')).status, 200, 'the next request is served');
});

t.test('one connection can carry several requests (keep-alive)', async (t) => {
  const { url, key } = await startTestServer(t);
  const { host, pathname } = new URL(url);
  const socket = await connect(url);
  const all = readAll(socket);
  const request = `GET ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\n\r\n`;
  socket.write(request + request.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
  const text = await all;
  t.equal(text.match(/HTTP\/1\.1 200 OK\r\n/g)?.length, 2, 'two answers on one connection');
});

t.test('a request target in absolute form is served like its path (RFC 9112 §3.2.2)', async (t) => {
  const { url } = await startTestServer(t);
  const { host, pathname } = new URL(url);
  const r = parseRawResponse(
    await rawExchange(
      url,
      `GET http://${host}${pathname}/pets?limit=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer petstore-dev-key\r\nConnection: close\r\n\r\n`,
    ),
  );
  t.equal(r.status, 200);
  t.equal(r.text, '[]');
});
