// The paths besides the interface's own spellings (conformance/catalogues/targets.ts):
// the same resources under another version or none (OWASP API9:2023, improper
// inventory) and the administrative routes a stand-in keeps, each built from the
// base path's prefix (what comes before its version segment) and an existing pet's id.
import t from 'tap';
import { OTHER_TARGETS } from '../../../conformance/catalogues/targets.js';

const PET = '4711';
/** What checks/no-credential.ts takes for the prefix of a base path. */
const prefixOf = (basePath: string) => basePath.replace(/\/v\d+$/i, '');
const pathsAt = (basePath: string) => OTHER_TARGETS.map((entry) => entry.path(prefixOf(basePath), PET));

t.test('under the base path /v1, the paths are these, in this order', async (t) => {
  t.strictSame(pathsAt('/v1'), [
    '/pets',
    `/pets/${PET}`,
    '/v0/pets',
    `/v2/pets/${PET}`,
    '/V1/pets',
    '/v1.0/pets',
    '/api/pets',
    `/v1/pets/${PET}/delete`,
    '/__control/reset',
    '/reset',
    '/admin',
    '/debug',
  ]);
});

t.test('the copies of the API stand under the prefix of the base path; the administrative routes under the origin', async (t) => {
  const root = pathsAt('/v1');
  const mounted = pathsAt('/api/v1');
  for (const [i, entry] of OTHER_TARGETS.entries()) {
    if (root[i]!.includes('pets')) t.equal(mounted[i], `/api${root[i]}`, `${entry.why}: ${mounted[i]}`);
    else t.equal(mounted[i], root[i], `${entry.why}: ${root[i]} whatever the base path`);
  }
});

t.test('none is the interface itself (its collection or a pet under the base path)', async (t) => {
  for (const basePath of ['/v1', '/api/v1', '/store/v1']) {
    const own = [`${basePath}/pets`, `${basePath}/pets/${PET}`];
    t.strictSame(
      pathsAt(basePath).filter((path) => own.includes(path)),
      [],
      basePath,
    );
  }
});

t.test('an older, a newer and no version of the API are tried (OWASP API9:2023)', async (t) => {
  const paths = pathsAt('/v1');
  t.ok(paths.includes('/pets'), 'no version');
  t.ok(paths.includes('/v0/pets'), 'an older version');
  t.ok(
    paths.some((p) => p.startsWith('/v2/')),
    'a newer version',
  );
});

t.test('each path is sent as written: absolute, and left unchanged by URL resolution', async (t) => {
  for (const path of [...pathsAt('/v1'), ...pathsAt('/api/v1')]) {
    t.equal(path[0], '/', `${path} starts at the origin`);
    t.equal(new URL(path, 'http://127.0.0.1:8080').pathname, path, `${path} keeps its spelling`);
  }
});

t.test('the pet named is the one given, where an entry names one', async (t) => {
  const withPet = OTHER_TARGETS.filter((entry) => entry.path('', PET).includes(PET));
  t.equal(withPet.length, 3);
  for (const entry of withPet) t.notOk(entry.path('', '99').includes(PET), `${entry.why}: the id comes from the argument`);
});

t.test('each path is listed once and each says why it is there', async (t) => {
  const paths = pathsAt('/v1');
  t.equal(new Set(paths).size, paths.length, 'no path twice');
  const whys = OTHER_TARGETS.map((entry) => entry.why);
  t.equal(new Set(whys).size, whys.length, 'no reason twice');
  for (const why of whys) t.ok(why.length > 5, why);
});
