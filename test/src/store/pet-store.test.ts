// src/store/pet-store.ts: pets in memory, ids 1, 2, 3… (or large, or
// random: src/store/ids.ts), lists in creation order, a status index, and a
// capacity.
import t from 'tap';
import type { NewPet } from '../../../spec/types.js';
import { PetStore, type IdMode } from '../../../src/store/index.js';

function store(maxPets = 1000, ids?: IdMode): PetStore {
  return new PetStore({ maxPets, ...(ids ? { ids } : {}) });
}
const pet = (name: string, status?: NewPet['status']): NewPet => ({ name, categoryId: 1n, ...(status ? { status } : {}) });
const text = (result: ReturnType<PetStore['create']>) => (result.ok ? { ...result, json: result.json.toString() } : result);
const names = (json: Buffer | string) => (JSON.parse(String(json)) as Array<{ name: string }>).map((p) => p.name);

t.test('create assigns ids 1, 2, 3… and returns the stored JSON, id first', async (t) => {
  const s = store();
  t.strictSame(text(s.create(pet('A', 'sold'))), { ok: true, id: 1n, json: '{"id":1,"name":"A","categoryId":1,"status":"sold"}' });
  t.strictSame(text(s.create({ name: 'B', categoryId: 9223372036854775807n })), {
    ok: true,
    id: 2n,
    json: '{"id":2,"name":"B","categoryId":9223372036854775807}',
  });
  t.equal(s.size, 2);
});

t.test('get finds a pet by id and nothing outside 1..size, however large', async (t) => {
  const s = store();
  s.create(pet('A'));
  s.create(pet('B'));
  t.equal(s.get(1n)?.toString(), '{"id":1,"name":"A","categoryId":1}');
  t.equal(s.get(2n)?.toString(), '{"id":2,"name":"B","categoryId":1}');
  for (const id of [0n, -1n, 3n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n + 1n]) t.equal(s.get(id), undefined, String(id));
});

t.test('a pet read is answered in memory of its own, the same Buffer while it stays in the read cache, never a pet forgotten by a reset', async (t) => {
  const s = store(5_000);
  s.create(pet('A'));
  s.create(pet('B'));
  s.markSeed();
  const a = s.get(1n)!;
  t.equal(a.byteOffset, 0, 'not a view of the arena');
  t.equal(a.buffer.byteLength, a.length, 'its own memory: the journal keeps it by reference');
  t.equal(s.get(1n), a, 'read again: the same Buffer, no copy');
  const b = s.get(2n)!;
  s.create(pet('C'));
  t.equal(s.get(3n)?.toString(), '{"id":3,"name":"C","categoryId":1}');
  s.reset();
  s.create(pet('D-after-the-reset'));
  t.equal(s.get(3n)?.toString(), '{"id":3,"name":"D-after-the-reset","categoryId":1}', 'the index of a forgotten pet: the new pet, not the cached one');
  t.equal(s.get(2n)?.toString(), b.toString(), 'a kept pet reads the same');
  // More pets than the cache has slots: each slot is shared, and every read is still its own pet.
  for (let i = 0; i < 3_000; i++) s.create(pet(`p${i}`));
  for (const id of [1n, 1025n, 2049n, 1n, 4n, 1028n, 3003n]) t.equal(JSON.parse(s.get(id)!.toString()).id, Number(id), `pet ${id}`);
  s.clear();
  s.create(pet('E'));
  t.equal(s.get(1n)?.toString(), '{"id":1,"name":"E","categoryId":1}', 'nor one forgotten by a clear');
});

t.test('the read cache holds 1,024 pets, one slot each: any 1,024 consecutive pets read once are each the same Buffer when read again', async (t) => {
  const s = store(3_000);
  for (let i = 0; i < 2_100; i++) s.create(pet(`p${i}`));
  for (const from of [1, 1000]) {
    const first = new Map<bigint, Buffer>();
    for (let id = BigInt(from); id < BigInt(from + 1024); id++) first.set(id, s.get(id)!);
    let kept = 0;
    for (const [id, answer] of first) if (s.get(id) === answer) kept++;
    t.equal(kept, 1024, `pets ${from} to ${from + 1023}: none pushed out of its slot by another`);
    // And each was read as itself.
    for (const [id, answer] of first) if (JSON.parse(answer.toString()).id !== Number(id)) t.fail(`pet ${id} read as another`);
  }
  const a = s.get(5n)!;
  s.get(5n + 1024n);
  t.not(s.get(5n), a, 'a pet 1,024 indexes further takes its slot');
  t.equal(JSON.parse(s.get(5n)!.toString()).id, 5, 'and the pet is read again as itself');
});

t.test('list returns the first `limit` pets in ascending id order', async (t) => {
  const s = store();
  for (const name of ['A', 'B', 'C', 'D']) s.create(pet(name));
  t.strictSame(names(s.list(2)), ['A', 'B']);
  t.strictSame(names(s.list(100)), ['A', 'B', 'C', 'D']);
  t.equal(s.list(0).toString(), '[]');
  t.equal(store().list(20).toString(), '[]', 'an empty store');
});

t.test('list with a status uses only pets of that status, in id order, up to `limit`', async (t) => {
  const s = store();
  const statuses = ['available', 'sold', undefined, 'available', 'pending', 'available', 'sold'] as const;
  statuses.forEach((status, i) => {
    s.create(pet(`p${i + 1}`, status));
  });
  t.strictSame(names(s.list(10, 'available')), ['p1', 'p4', 'p6']);
  t.strictSame(names(s.list(2, 'available')), ['p1', 'p4']);
  t.strictSame(names(s.list(10, 'sold')), ['p2', 'p7']);
  t.strictSame(names(s.list(10, 'pending')), ['p5']);
  t.strictSame(names(s.list(10)), ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'], 'a pet without status is only in the unfiltered list');
});

t.test('a store with no pet of a status lists it as []', async (t) => {
  const s = store();
  s.create(pet('A', 'sold'));
  t.equal(s.list(10, 'pending').toString(), '[]');
});

t.test('a full store refuses to create and keeps what it has', async (t) => {
  const s = store(2);
  t.ok(s.create(pet('A')).ok);
  t.ok(s.create(pet('B')).ok);
  t.strictSame(s.create(pet('C')), { ok: false, reason: 'full' });
  t.equal(s.size, 2);
  t.equal(s.capacity, 2);
  t.strictSame(names(s.list(10)), ['A', 'B']);
  t.strictSame(store(0).create(pet('A')), { ok: false, reason: 'full' }, 'maxPets 0 holds nothing');
});

t.test('clear forgets every pet and ids start again at 1', async (t) => {
  const s = store();
  s.create(pet('A', 'sold'));
  s.clear();
  t.equal(s.size, 0);
  t.equal(s.list(10, 'sold').toString(), '[]', 'the status index is cleared too');
  t.equal(s.create(pet('B')).ok && s.get(1n)?.toString(), '{"id":1,"name":"B","categoryId":1}');
});

t.test('allJson yields every pet in id order', async (t) => {
  const s = store();
  s.create(pet('A'));
  s.create(pet('B', 'pending'));
  t.strictSame([...s.allJson()], ['{"id":1,"name":"A","categoryId":1}', '{"id":2,"name":"B","categoryId":1,"status":"pending"}']);
});

t.test('pets stay exact when the byte arena grows many times over, and earlier answers stay valid', async (t) => {
  const n = 20_000; // ~1.2 MB of JSON: the 64 KiB arena grows about ten times
  const s = store(n);
  const first = s.create(pet('première 🐢', 'sold'));
  const firstJson = first.ok ? first.json.toString() : '';
  for (let i = 2; i <= n; i++)
    s.create({ name: `pet-${i}-${'é'.repeat(i % 7)}`, categoryId: BigInt(i) * 1_000_000_007n, ...(i % 3 === 0 ? { status: 'sold' as const } : {}) });
  t.equal(first.ok && first.json.toString(), firstJson, 'the 201 body of the first pet is unchanged after growth');
  t.equal(s.get(1n)?.toString(), firstJson);
  const last = JSON.parse(String(s.get(BigInt(n)))) as { id: number; name: string };
  t.same(last, { id: n, name: `pet-${n}-${'é'.repeat(n % 7)}`, categoryId: n * 1_000_000_007 });
  t.match(String(s.get(BigInt(n))), `"categoryId":${BigInt(n) * 1_000_000_007n}`, 'categoryId digits are exact');
  const page = JSON.parse(String(s.list(100, 'sold'))) as { id: number }[];
  t.equal(page.length, 100);
  t.same(
    page.slice(0, 3).map((p) => p.id),
    [1, 3, 6],
    'the status index keeps ascending ids',
  );
  t.equal((JSON.parse(String(s.list(100))) as unknown[]).length, 100);
  t.equal((JSON.parse(String(s.toJsonArray())) as unknown[]).length, n, 'the whole store is one valid JSON array');
});

t.test('an answer taken before a truncation stays as it was when new pets are created after it', async (t) => {
  const s = store();
  s.create(pet('kept', 'sold'));
  const created = s.create(pet('forgotten-by-the-reset', 'pending'));
  const got = s.get(2n)!;
  const page = s.list(10);
  const before = [created.ok ? created.json.toString() : '', got.toString(), page.toString()];
  s.truncate(1);
  s.create(pet('Zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', 'available'));
  t.strictSame(
    [created.ok ? created.json.toString() : '', got.toString(), page.toString()],
    before,
    'the bytes of answers still being written are not overwritten',
  );
  t.strictSame(names(s.list(10)), ['kept', 'Zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz']);
});

t.test('truncate forgets the pets after the first n, as if never created: ids, pages and the status index go back', async (t) => {
  const s = store();
  for (const [i, status] of (['sold', undefined, 'sold', 'pending', 'sold'] as const).entries()) s.create(pet(`p${i + 1}`, status));
  const before = s.version;
  s.truncate(2);
  t.equal(s.size, 2);
  t.ok(s.version !== before, 'a truncation is a change (persistence writes it)');
  t.equal(s.get(3n), undefined);
  t.strictSame(names(s.list(10)), ['p1', 'p2']);
  t.strictSame(names(s.list(10, 'sold')), ['p1']);
  t.equal(s.list(10, 'pending').toString(), '[]');
  const next = s.create(pet('again', 'sold'));
  t.equal(next.ok && next.id, 3n, 'ids go on from n + 1');
  t.strictSame(names(s.list(10, 'sold')), ['p1', 'again']);
  s.truncate(10);
  t.equal(s.size, 3, 'truncating beyond the size changes nothing');
  s.truncate(0);
  t.equal(s.size, 0);
});

t.test('a page is never stale: a full page is kept until a truncation or a clear, a page short of its limit grows with each creation', async (t) => {
  const s = store();
  for (const [i, status] of (['sold', 'sold', 'pending'] as const).entries()) s.create(pet(`p${i + 1}`, status));
  const full = s.list(2);
  t.equal(s.list(2), full, 'a full page is built once and kept (the same buffer)');
  t.equal(s.list(2, 'sold'), s.list(2, 'sold'), 'so is a full filtered page');
  t.strictSame(names(s.list(5)), ['p1', 'p2', 'p3'], 'a page short of its limit');
  t.strictSame(names(s.list(5, 'sold')), ['p1', 'p2']);
  s.create(pet('p4', 'sold'));
  t.strictSame(names(s.list(5)), ['p1', 'p2', 'p3', 'p4'], 'grows with the next creation');
  t.strictSame(names(s.list(5, 'sold')), ['p1', 'p2', 'p4']);
  t.strictSame(names(s.list(2)), ['p1', 'p2'], 'a full page does not change with a creation');
  s.truncate(1);
  s.create(pet('after-reset', 'sold'));
  t.strictSame(names(s.list(2)), ['p1', 'after-reset'], 'after a truncation, no page from before it is served');
  t.strictSame(names(s.list(2, 'sold')), ['p1', 'after-reset']);
  s.clear();
  s.create(pet('fresh', 'pending'));
  s.create(pet('fresher', 'pending'));
  t.strictSame(names(s.list(2)), ['fresh', 'fresher'], 'nor after a clear');
  t.equal(s.list(2, 'sold').toString(), '[]');
});

t.test('the pages kept are bounded in bytes: beyond the bound a page is built on every call, with the same content', async (t) => {
  const s = store(200_000);
  // Pets of about 60 bytes: the pages of limits 1..1,000 hold about 30 MB together, far past the 4 MiB kept.
  for (let i = 0; i < 1_100; i++) s.create(pet(`pet-${i}-${'x'.repeat(20)}`));
  for (let limit = 1; limit <= 1_000; limit++) s.list(limit);
  const last = s.list(1_000);
  t.not(s.list(1_000), last, 'a page past the bound is not kept');
  t.equal(s.list(1_000).toString(), last.toString(), 'yet it is the same page');
  t.equal(s.list(1), s.list(1), 'pages kept before the bound was reached still are');
});

const ids = (json: Buffer | string) => [...String(json).matchAll(/"id":(\d+)/g)].map((m) => BigInt(m[1] as string));

t.test('large ids are the odd integers from 2^53 + 1, none of which a double holds, written and found digit for digit', async (t) => {
  const s = store(1000, 'large');
  const a = s.create(pet('A', 'sold'));
  t.strictSame(text(a), { ok: true, id: 9007199254740993n, json: '{"id":9007199254740993,"name":"A","categoryId":1,"status":"sold"}' });
  t.equal(s.create(pet('B')).ok && s.get(9007199254740995n)?.toString(), '{"id":9007199254740995,"name":"B","categoryId":1}');
  for (const id of [1n, 2n, 9007199254740992n, 9007199254740994n, 9007199254740996n, 9007199254740997n]) t.equal(s.get(id), undefined, `${id} is no pet`);
  s.truncate(1);
  t.equal(s.get(9007199254740995n), undefined, 'a truncation forgets the later ids');
  t.equal(s.create(pet('C')).ok && s.create(pet('D')).ok && s.get(9007199254740997n)?.toString(), '{"id":9007199254740997,"name":"D","categoryId":1}');
  const sparse = store(1000, 'large');
  sparse.create(pet('kept'), 10n);
  const next = sparse.create(pet('next'));
  t.equal(next.ok && next.id, 9007199254740993n, 'after an id of its own, the next large id is still the first');
  sparse.create(pet('high'), 9007199254741000n);
  const odd = sparse.create(pet('odd'));
  t.equal(odd.ok && odd.id, 9007199254741001n, 'and then the next odd one after the highest');
  s.clear();
  t.strictSame(ids(String(s.create(pet('E')).ok && s.list(10))), [9007199254740993n], 'a clear starts again from the first large id');
});

t.test('random ids are distinct positive int64s spread over the range, and lists keep creation order', async (t) => {
  const s = store(5000, 'random');
  const created: bigint[] = [];
  for (let i = 0; i < 2000; i++) {
    const r = s.create(pet(`p${i}`, i % 2 ? 'sold' : undefined));
    if (r.ok) created.push(r.id);
  }
  t.equal(new Set(created).size, 2000, 'distinct');
  t.ok(
    created.every((id) => id >= 1n && id <= 2n ** 63n - 1n),
    'every id is a positive int64',
  );
  // The count below 2^53 is Binomial(2000, 1/1024), about 2; more than 100 has a probability far below 1e-100,
  // and one half of the range holding all 2000 one of 2^-1999: these hold on every run a correct generator makes.
  t.ok(created.filter((id) => id > 2n ** 53n).length > 1900, 'nearly all beyond 2^53 (as 99.9% of the range is)');
  t.ok(created.some((id) => id >= 2n ** 62n) && created.some((id) => id < 2n ** 62n), 'both halves of the range are drawn');
  t.notSame(
    [...created].sort((a, b) => (a < b ? -1 : 1)),
    created,
    'not ascending',
  );
  t.strictSame(ids(s.list(100)), created.slice(0, 100), 'a page lists pets in creation order');
  t.strictSame(ids(s.list(3, 'sold')), [created[1], created[3], created[5]], 'so does a filtered page');
  for (const i of [0, 999, 1999]) t.match(String(s.get(created[i] as bigint)), `{"id":${created[i]},"name":"p${i}"`);
  t.equal(s.get(1n), undefined);
  s.truncate(10);
  t.equal(s.get(created[10] as bigint), undefined, 'a truncation forgets the later ids');
  t.ok(s.get(created[9] as bigint), 'and keeps the earlier');
  t.equal(s.size, 10);
});

t.test('a pet created with an id keeps it; a taken id is refused; sequential ids go on after the highest', async (t) => {
  const s = store();
  t.equal(s.create(pet('A'), 5n).ok && s.get(5n)?.toString(), '{"id":5,"name":"A","categoryId":1}');
  t.strictSame(s.create(pet('B'), 5n), { ok: false, reason: 'taken' });
  t.equal(s.create(pet('C'), 9223372036854775000n).ok && s.get(9223372036854775000n)?.toString(), '{"id":9223372036854775000,"name":"C","categoryId":1}');
  t.equal(s.create(pet('D'), 2n).ok && s.get(2n)?.toString(), '{"id":2,"name":"D","categoryId":1}');
  const next = s.create(pet('E'));
  t.equal(next.ok && next.id, 9223372036854775001n, 'the next id follows the highest');
  t.strictSame(ids(s.list(10)), [5n, 9223372036854775000n, 2n, 9223372036854775001n], 'creation order');
  t.equal(s.get(1n), undefined);
  s.truncate(1);
  const after = s.create(pet('F'));
  t.equal(after.ok && after.id, 6n, 'after a truncation, the highest kept counts');
  const top = store();
  top.create(pet('top'), 2n ** 63n - 1n);
  const beyond = top.create(pet('beyond'));
  t.ok(beyond.ok && beyond.id >= 1n && beyond.id < 2n ** 63n - 1n, 'past the largest int64, a free id is drawn');
});
