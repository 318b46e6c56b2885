// The spellings of a route that the routes family sends without a key
// (conformance/arbitraries/spellings.ts): derived from the spec's paths,
// each a real other spelling, none the canonical request itself.
import t from 'tap';
import { routeSpellings } from '../../../conformance/arbitraries/spellings.js';

t.test('listPets: every class of spelling, HEAD included, none the canonical path', async (t) => {
  const spellings = routeSpellings('GET', '/pets', '/pets');
  t.strictSame(
    spellings.map((s) => `${s.method} ${s.path}`),
    [
      'GET /pets/',
      'GET /PETS',
      'GET /Pets',
      'GET /%70ets',
      'GET //pets',
      'GET /./pets',
      'GET /pets/../pets',
      'GET /pets;x=1',
      'GET /pets.json',
      'GET /pets?',
      'HEAD /pets',
    ],
  );
  t.ok(
    spellings.every((s) => s.label.length > 0),
    'each is labelled',
  );
});

t.test('getPet: literal segments change, the id never does; a doubled slash inside the path', async (t) => {
  const spellings = routeSpellings('GET', '/pets/{petId}', '/pets/42');
  const paths = spellings.map((s) => s.path);
  t.ok(paths.includes('/PETS/42'), 'upper case of the literal segment only');
  t.ok(paths.includes('/%70ets/42'), 'the literal segment percent-encoded, the id as it is');
  t.ok(paths.includes('/pets//42'), 'a doubled slash before the id');
  t.ok(paths.includes('/pets/42;x=1'), 'a matrix parameter on the last segment');
  t.ok(paths.includes('/pets%2F42'), 'the slash before the id encoded');
  t.ok(paths.includes('/pets/42.json'), 'a format suffix');
  t.notOk(
    spellings.some((s) => s.method === 'GET' && s.path === '/pets/42'),
    'never the canonical request itself',
  );
  t.ok(
    spellings.some((s) => s.method === 'HEAD' && s.path === '/pets/42'),
    'HEAD on the canonical path',
  );
});

t.test('createPet: no HEAD for a POST', async (t) => {
  t.notOk(routeSpellings('POST', '/pets', '/pets').some((s) => s.method !== 'POST'));
});

t.test('a literal segment with no letters yields no case or encoding spelling', async (t) => {
  const labels = routeSpellings('GET', '/2024', '/2024').map((s) => s.label);
  t.notOk(labels.includes('literal segments in upper case'));
  t.notOk(labels.includes('a percent-encoded letter'));
});
