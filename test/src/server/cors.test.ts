// Decision D8: CORS (Fetch standard), so that a page in a browser can call the
// interface with a bearer header.
import t from 'tap';
import type { CallOptions } from '../../helpers/api-client.js';
import { startTestServer } from '../../helpers/server.js';

const ORIGIN = 'https://app.example';

function list(header: unknown): string[] {
  return String(header ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

t.test('a preflight answers 204 without authentication, allowing Authorization and Content-Type and the methods of the path', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets', {
    method: 'OPTIONS',
    auth: false,
    headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
  t.equal(r.status, 204);
  t.ok(r.headers['access-control-allow-origin'] === '*' || r.headers['access-control-allow-origin'] === ORIGIN, 'the origin is allowed');
  const headers = list(r.headers['access-control-allow-headers']);
  t.ok(headers.includes('authorization'), 'Authorization is allowed');
  t.ok(headers.includes('content-type'), 'Content-Type is allowed');
  const methods = list(r.headers['access-control-allow-methods']);
  t.ok(methods.includes('get') && methods.includes('post'), `/pets allows GET and POST: ${methods}`);
  t.notOk(methods.includes('delete'), 'and not DELETE');
});

t.test('a preflight for /pets/{petId} allows GET and not POST', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets/1', { method: 'OPTIONS', auth: false, headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } });
  t.equal(r.status, 204);
  const methods = list(r.headers['access-control-allow-methods']);
  t.ok(methods.includes('get'), 'GET');
  t.notOk(methods.includes('post'), 'no POST');
});

t.test('answers to requests with an Origin allow it and expose Deprecation, Sunset and Link', async (t) => {
  const { api } = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n }] });
  const requests: ReadonlyArray<readonly [string, string, CallOptions]> = [
    ['getPet 200', '/pets/1', {}],
    ['getPet 404', '/pets/9', {}],
    ['listPets 200', '/pets', {}],
    ['listPets 401', '/pets', { auth: false }],
    ['createPet 201', '/pets', { json: { name: 'Tom', categoryId: 2 } }],
    ['createPet 400', '/pets', { json: {} }],
  ];
  for (const [what, path, options] of requests) {
    const r = await api(path, { ...options, headers: { ...options.headers, origin: ORIGIN } });
    t.ok(r.headers['access-control-allow-origin'] === '*' || r.headers['access-control-allow-origin'] === ORIGIN, `${what}: Access-Control-Allow-Origin`);
    const exposed = list(r.headers['access-control-expose-headers']);
    for (const name of ['deprecation', 'sunset', 'link']) t.ok(exposed.includes(name), `${what}: exposes ${name}`);
    // The deprecated operation's own headers travel with the CORS ones, not instead of them.
    if (what.startsWith('getPet')) for (const name of ['deprecation', 'sunset', 'link']) t.ok(r.headers[name], `${what}: carries ${name}`);
  }
});

t.test('a 401 to a request with an Origin exposes WWW-Authenticate', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets', { auth: false, headers: { origin: ORIGIN } });
  t.ok(list(r.headers['access-control-expose-headers']).includes('www-authenticate'));
});

t.test('a page can read Petstore-Finding: exposed on every answer to a request with an Origin, as the findings are named', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets?stauts=sold', { headers: { origin: ORIGIN } });
  t.equal(r.headers['petstore-finding'], 'unknown_query_parameter');
  t.ok(list(r.headers['access-control-expose-headers']).includes('petstore-finding'), 'exposed with the other headers');
});
