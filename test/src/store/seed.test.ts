// src/store/seed.ts: seed files, a JSON array of NewPet objects.
import t from 'tap';
import { loadSeedFile, parseSeed, SeedError } from '../../../src/store/index.js';

t.test('a seed is read in order, int64 categoryIds exactly, ids and unknown properties ignored', async (t) => {
  const pets = parseSeed('[{"id":99,"name":"A","categoryId":9223372036854775807,"status":"sold"},{"name":"B","categoryId":2,"x":1}]');
  t.strictSame(pets, [
    { name: 'A', categoryId: 9223372036854775807n, status: 'sold' },
    { name: 'B', categoryId: 2n },
  ]);
});

t.test('a seed that is not an array of NewPet objects is a SeedError naming the source and the entry', async (t) => {
  t.throws(() => parseSeed('{"name":"A","categoryId":1}', 'pets.json'), new SeedError('pets.json: must be a JSON array of NewPet objects'));
  t.throws(() => parseSeed('[', 'pets.json'), { name: 'Error', message: /^pets\.json: malformed JSON/ });
  t.throws(() => parseSeed('[{"name":"A","categoryId":1},{"name":"B"}]', 'pets.json'), { message: 'pets.json: entry 1: categoryId is required' });
  let caught: unknown;
  try {
    parseSeed('[1]');
  } catch (error) {
    caught = error;
  }
  t.ok(caught instanceof SeedError, 'a SeedError');
  t.equal((caught as SeedError | undefined)?.code, 'invalid_seed');
});

t.test('fixtures/pets.json holds 32 valid pets', async (t) => {
  const pets = await loadSeedFile(new URL('../../../fixtures/pets.json', import.meta.url).pathname);
  t.equal(pets.length, 32);
  t.ok(
    pets.some((p) => p.status === undefined),
    'some pets without a status',
  );
  t.ok(
    pets.some((p) => p.categoryId > 2n ** 53n),
    'a categoryId beyond 2^53',
  );
});

t.test('a missing seed file is a SeedError', async (t) => {
  await t.rejects(loadSeedFile('/nonexistent/pets.json'), { message: /^cannot read seed file \/nonexistent\/pets\.json/ });
});
