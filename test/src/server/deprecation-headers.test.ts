// Seed §4.3 and §9: getPet is deprecated, removed on 5 December 2030, replaced
// by GET /pets. Decision D7: every getPet answer says so in headers —
// Deprecation (RFC 9745), Sunset (RFC 8594) and a successor Link (RFC 5829).
import t, { type Test } from 'tap';
import type { ApiResponse, CallOptions } from '../../helpers/api-client.js';
import { startTestServer } from '../../helpers/server.js';

const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
const seed = [{ name: 'Rex', categoryId: 1n }];

function checkDeprecationHeaders(t: Test, r: ApiResponse, what: string): void {
  const deprecation = String(r.headers['deprecation']);
  t.match(deprecation, /^@\d+$/, `${what}: Deprecation is a structured-field date @<unix seconds>`);
  t.ok(Number(deprecation.slice(1)) * 1000 < Date.parse(SUNSET), `${what}: deprecated before the sunset`);
  t.equal(r.headers['sunset'], SUNSET, `${what}: Sunset`);
  t.equal(r.headers['link'], '</v1/pets>; rel="successor-version"', `${what}: Link to the successor`);
}

t.test('every getPet answer carries Deprecation, Sunset and a successor Link: 200, 404, 400 and 401', async (t) => {
  const { api } = await startTestServer(t, { seed });
  const answers: ReadonlyArray<readonly [string, string, CallOptions, number]> = [
    ['found', '/pets/1', {}, 200],
    ['not found', '/pets/2', {}, 404],
    ['invalid petId', '/pets/abc', {}, 400],
    ['no key', '/pets/1', { auth: false }, 401],
    ['wrong key', '/pets/1', { auth: 'Bearer nope' }, 401],
  ];
  for (const [what, path, options, status] of answers) {
    const r = await api(path, options);
    t.equal(r.status, status, what);
    checkDeprecationHeaders(t, r, what);
  }
});

t.test('getPet answers after the sunset (410) still carry the deprecation headers', async (t) => {
  const { api } = await startTestServer(t, { seed, now: new Date('2031-01-01T00:00:00Z') });
  const r = await api('/pets/1');
  t.equal(r.status, 410);
  checkDeprecationHeaders(t, r, '410');
});

t.test('the other operations carry no Deprecation, Sunset or successor Link', async (t) => {
  const { api } = await startTestServer(t, { seed });
  const answers: ReadonlyArray<readonly [string, string, CallOptions]> = [
    ['listPets 200', '/pets', {}],
    ['listPets 400', '/pets?limit=0', {}],
    ['listPets 401', '/pets', { auth: false }],
    ['createPet 201', '/pets', { json: { name: 'Tom', categoryId: 2 } }],
    ['createPet 400', '/pets', { json: { name: 'Tom' } }],
    ['createPet 401', '/pets', { json: { name: 'Tom', categoryId: 2 }, auth: false }],
    ['unknown path', '/pets/1/owner', {}],
    ['405 on /pets/{petId}', '/pets/1', { method: 'DELETE' }],
  ];
  for (const [what, path, options] of answers) {
    const r = await api(path, options);
    t.equal(r.headers['deprecation'], undefined, `${what}: no Deprecation`);
    t.equal(r.headers['sunset'], undefined, `${what}: no Sunset`);
    t.equal(r.headers['link'], undefined, `${what}: no Link`);
  }
});
