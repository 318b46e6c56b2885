// How the store assigns ids (src/store/ids.ts; seed §2: an id is an int64 the
// service assigns): the modes' first ids and steps, what counts as a pet's
// id, and the random generator's range.
import t from 'tap';
import { createRandomIds, idBase, idStep, ID_MODES, isPetId, MAX_INT64, nextIdAfter } from '../../../src/store/ids.js';
import { PetStore } from '../../../src/store/index.js';

const TWO_53 = 2n ** 53n;
const pet = { name: 'Rex', categoryId: 1n };

t.test('the modes are sequential, large and random, and the largest id is 2^63 - 1', async (t) => {
  t.same(ID_MODES, ['sequential', 'large', 'random']);
  t.equal(MAX_INT64, 9223372036854775807n);
});

t.test('sequential ids start after 0 in steps of 1; large ids after 2^53 in steps of 2', async (t) => {
  t.equal(idBase('sequential'), 0n);
  t.equal(idStep('sequential'), 1n);
  t.equal(idBase('random'), 0n);
  t.equal(idStep('random'), 1n);
  t.equal(idBase('large'), TWO_53);
  t.equal(idStep('large'), 2n);
});

t.test('the next sequential id is the next integer; the next large one the next odd integer', async (t) => {
  t.equal(nextIdAfter('sequential', 0n), 1n);
  t.equal(nextIdAfter('sequential', 41n), 42n);
  t.equal(nextIdAfter('large', TWO_53), TWO_53 + 1n);
  t.equal(nextIdAfter('large', TWO_53 + 1n), TWO_53 + 3n);
  t.equal(nextIdAfter('large', TWO_53 + 4n), TWO_53 + 5n, 'after an even id (a state file may hold one)');
  t.equal(nextIdAfter('random', 7n), 8n);
});

t.test('a pet id is a bigint from 1 to 2^63 - 1', async (t) => {
  for (const id of [1n, 2n, TWO_53 + 1n, MAX_INT64]) t.ok(isPetId(id), String(id));
  for (const id of [0n, -1n, MAX_INT64 + 1n, 1, '1', undefined, null]) t.notOk(isPetId(id), `${typeof id} ${String(id)}`);
});

t.test('random ids are positive int64s, drawn afresh past each batch of 64, and do not repeat', async (t) => {
  const draw = createRandomIds();
  const ids = Array.from({ length: 300 }, draw);
  for (const id of ids) t.ok(typeof id === 'bigint' && id >= 1n && id <= MAX_INT64, String(id));
  t.equal(new Set(ids).size, ids.length, 'no two alike among 300');
  t.ok(
    ids.some((id) => id > 2n ** 62n),
    'the upper half of the range is reached',
  );
  const other = Array.from({ length: 64 }, createRandomIds());
  t.notSame(other, ids.slice(0, 64), 'each generator draws its own ids');
});

t.test('the store gives sequential ids 1, 2, 3 and finds each, and nothing else', async (t) => {
  const store = new PetStore({ maxPets: 10 });
  t.same(
    [1n, 2n, 3n],
    [store.create(pet), store.create(pet), store.create(pet)].map((r) => r.ok && r.id),
  );
  for (const id of [1n, 2n, 3n]) t.ok(store.has(id), String(id));
  for (const id of [0n, -1n, 4n, MAX_INT64]) t.notOk(store.has(id), String(id));
});

t.test('the store gives large ids 2^53 + 1, + 3, + 5 and finds each, and no id between or around them', async (t) => {
  const store = new PetStore({ maxPets: 10, ids: 'large' });
  const ids = [store.create(pet), store.create(pet), store.create(pet)].map((r) => r.ok && r.id);
  t.same(ids, [TWO_53 + 1n, TWO_53 + 3n, TWO_53 + 5n]);
  for (const id of ids) t.ok(store.has(id as bigint), String(id));
  for (const id of [TWO_53 - 1n, TWO_53, TWO_53 + 2n, TWO_53 + 4n, TWO_53 + 6n, TWO_53 + 7n, 1n]) t.notOk(store.has(id), String(id));
  t.equal(String(store.get(TWO_53 + 3n)), `{"id":${TWO_53 + 3n},"name":"Rex","categoryId":1}`);
});

t.test('a pet created with an id keeps it, the ids go on after the highest, and the earlier pets are still found', async (t) => {
  const store = new PetStore({ maxPets: 10 });
  store.create(pet);
  t.same(store.create(pet, 10n), { ok: true, id: 10n, json: store.get(10n) });
  t.equal((store.create(pet) as { id: bigint }).id, 11n, 'after the highest');
  t.equal((store.create(pet, 5n) as { id: bigint }).id, 5n, 'a lower id is kept too');
  t.equal((store.create(pet) as { id: bigint }).id, 12n, 'still after the highest');
  for (const id of [1n, 5n, 10n, 11n, 12n]) t.ok(store.has(id), String(id));
  for (const id of [2n, 3n, 4n, 6n, 13n]) t.notOk(store.has(id), String(id));
  t.same(store.create(pet, 10n), { ok: false, reason: 'taken' });
});

t.test('a large store given a pet at an id of its own keeps every id', async (t) => {
  const store = new PetStore({ maxPets: 10, ids: 'large' });
  store.create(pet);
  store.create(pet, 7n);
  t.equal((store.create(pet) as { id: bigint }).id, TWO_53 + 3n, 'the next odd id after the highest');
  for (const id of [TWO_53 + 1n, 7n, TWO_53 + 3n]) t.ok(store.has(id), String(id));
  t.notOk(store.has(TWO_53 + 5n));
});

t.test('a large store given an id just below its first (2^53 - 1, 2^53 - 3), as the first pet or the second, keeps it and finds it', async (t) => {
  // The ids one and two steps below the mode's first: an id that is not its
  // position must be kept, whichever index it takes.
  for (const [given, at] of [
    [TWO_53 - 1n, 0],
    [TWO_53 - 3n, 0],
    [TWO_53 - 1n, 1],
    [TWO_53 - 3n, 1],
  ] as const) {
    const store = new PetStore({ maxPets: 10, ids: 'large' });
    if (at === 1) store.create(pet);
    t.same(store.create(pet, given), { ok: true, id: given, json: store.get(given) }, `${given} at index ${at}`);
    t.equal(String(store.get(given)), `{"id":${given},"name":"Rex","categoryId":1}`, `${given} at index ${at} is found`);
    if (at === 1) t.ok(store.has(TWO_53 + 1n), 'the first pet is still found');
    const next = store.create(pet) as { id: bigint };
    t.equal(next.id, at === 1 ? TWO_53 + 3n : TWO_53 + 1n, 'the next id is the next odd one after the highest');
    t.ok(store.has(next.id) && store.has(given), 'both found');
  }
});

t.test('once the highest id is 2^63 - 1, new ids are drawn at random, never past the range', async (t) => {
  const store = new PetStore({ maxPets: 10 });
  store.create(pet, MAX_INT64);
  const next = store.create(pet);
  t.ok(next.ok && isPetId(next.id) && next.id !== MAX_INT64, String(next.ok && next.id));
  t.ok(store.has(MAX_INT64));
});

t.test('a full store refuses a pet, with or without an id', async (t) => {
  const store = new PetStore({ maxPets: 1 });
  store.create(pet);
  t.same(store.create(pet), { ok: false, reason: 'full' });
  t.same(store.create(pet, 9n), { ok: false, reason: 'full' });
  t.notOk(store.has(2n));
});

t.test('random ids are found, each, and only those', async (t) => {
  const store = new PetStore({ maxPets: 100, ids: 'random' });
  const ids = Array.from({ length: 50 }, () => (store.create(pet) as { id: bigint }).id);
  for (const id of ids) t.ok(store.has(id));
  t.notOk(store.has(1n));
  t.equal(new Set(ids).size, 50);
});
