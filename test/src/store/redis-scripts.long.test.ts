// The Lua of the shared store (src/store/redis-scripts.ts), run in a real
// redis-server: a create stores every pet or none (never listed but not
// retrievable), a page is one round trip, a reset forgets what came after the
// seed; ids beyond 2^53 are computed as text from two halves, exactly.
import { createClient } from 'redis';
import t, { type Test } from 'tap';
import { CREATE_SCRIPT, RANGE_SCRIPT, RESET_SCRIPT } from '../../../src/store/redis-scripts.js';
import { startRedis } from '../../helpers/redis.js';

const K = { pets: 't:pets', order: 't:order', seq: 't:seq', meta: 't:meta', available: 't:status:available', sold: 't:status:sold' };
/** CREATE's KEYS: pets, order, seq, then the status lists (KEYS[4]: available, KEYS[5]: sold). */
const CREATE_KEYS = [K.pets, K.order, K.seq, K.available, K.sold];
const RESET_KEYS = [K.pets, K.order, K.seq, K.meta, K.available, K.sold];

interface Pet {
  readonly name: string;
  readonly status?: 'available' | 'sold';
  /** An id of its own (a state file's); none: the next of the sequence. */
  readonly id?: string;
}

/** CREATE's four values per pet: the JSON before the id, after it, its status list's index in KEYS, its id. */
const petArgs = (p: Pet) => [
  '{"id":',
  `,"name":"${p.name}","categoryId":1${p.status ? `,"status":"${p.status}"` : ''}}`,
  p.status === 'available' ? '4' : p.status === 'sold' ? '5' : '0',
  p.id ?? '',
];

async function redis(t: Test) {
  const server = await startRedis(t);
  const client = createClient({ url: server.url });
  await client.connect();
  t.teardown(() => client.close().catch(() => client.destroy()));
  const create = (pets: readonly Pet[], { capacity = 100, high = 0, low = 0, step = 1 } = {}) =>
    client.eval(CREATE_SCRIPT, { keys: CREATE_KEYS, arguments: [String(capacity), String(high), String(low), String(step), ...pets.flatMap(petArgs)] });
  const range = (list: string, start: number, stop: number) => client.eval(RANGE_SCRIPT, { keys: [list, K.pets], arguments: [String(start), String(stop)] });
  const reset = () => client.eval(RESET_SCRIPT, { keys: RESET_KEYS, arguments: [] });
  const lists = async () => ({
    order: await client.lRange(K.order, 0, -1),
    available: await client.lRange(K.available, 0, -1),
    sold: await client.lRange(K.sold, 0, -1),
    pets: (await client.hKeys(K.pets)).sort(),
    seq: await client.get(K.seq),
  });
  return { client, create, range, reset, lists };
}

t.test('a create gives the next ids in order and puts each pet in the hash, the order and its status list', async (t) => {
  const r = await redis(t);
  t.strictSame(await r.create([{ name: 'Rex', status: 'available' }, { name: 'Tom' }]), ['ok', '1', '2']);
  t.strictSame(await r.create([{ name: 'Luna', status: 'sold' }]), ['ok', '3']);
  t.equal(await r.client.hGet(K.pets, '1'), '{"id":1,"name":"Rex","categoryId":1,"status":"available"}');
  t.equal(await r.client.hGet(K.pets, '2'), '{"id":2,"name":"Tom","categoryId":1}');
  t.strictSame(await r.lists(), { order: ['1', '2', '3'], available: ['1'], sold: ['3'], pets: ['1', '2', '3'], seq: '3' });
});

t.test('ids beyond 2^53 are exact: the base is two halves, high × 10^9 + low, with the step between ids', async (t) => {
  const r = await redis(t);
  // The large mode's base: 9223372036854775000, far beyond what a Lua number holds exactly.
  t.strictSame(await r.create([{ name: 'A' }, { name: 'B' }], { high: 9223372036, low: 854775000, step: 3 }), [
    'ok',
    '9223372036854775001',
    '9223372036854775004',
  ]);
  t.equal(await r.client.hGet(K.pets, '9223372036854775004'), '{"id":9223372036854775004,"name":"B","categoryId":1}');
  const carry = await redis(t);
  t.strictSame(
    await carry.create([{ name: 'C' }, { name: 'D' }], { high: 1, low: 999_999_999, step: 1 }),
    ['ok', '2000000000', '2000000001'],
    'low carries into high, zero-padded to 9 digits',
  );
});

t.test('a pet with an id of its own keeps it, and a taken id refuses the whole create', async (t) => {
  const r = await redis(t);
  t.strictSame(await r.create([{ name: 'Rex', id: '42' }, { name: 'Tom' }]), ['ok', '42', '1'], 'an own id does not use the sequence');
  const before = await r.lists();
  t.strictSame(
    await r.create([
      { name: 'New', status: 'sold' },
      { name: 'Again', id: '42' },
    ]),
    ['taken', '42'],
  );
  t.strictSame(await r.lists(), before, 'none of the pets created, the sequence untouched');
});

t.test('a create that would pass the capacity stores none of its pets', async (t) => {
  const r = await redis(t);
  t.strictSame(await r.create([{ name: 'A' }, { name: 'B' }], { capacity: 3 }), ['ok', '1', '2']);
  const before = await r.lists();
  t.strictSame(await r.create([{ name: 'C', status: 'sold' }, { name: 'D' }], { capacity: 3 }), ['full']);
  t.strictSame(await r.lists(), before, 'all or none');
  t.strictSame(await r.create([{ name: 'C' }], { capacity: 3 }), ['ok', '3'], 'exactly up to the capacity');
});

t.test('a page is the JSON of the pets at the positions asked, in list order', async (t) => {
  const r = await redis(t);
  await r.create([{ name: 'A', status: 'sold' }, { name: 'B' }, { name: 'C', status: 'sold' }, { name: 'D', status: 'sold' }]);
  t.strictSame(await r.range(K.order, 0, 1), ['{"id":1,"name":"A","categoryId":1,"status":"sold"}', '{"id":2,"name":"B","categoryId":1}']);
  t.strictSame(await r.range(K.sold, 1, 2), ['{"id":3,"name":"C","categoryId":1,"status":"sold"}', '{"id":4,"name":"D","categoryId":1,"status":"sold"}']);
  t.strictSame(await r.range(K.sold, 0, 99), [
    '{"id":1,"name":"A","categoryId":1,"status":"sold"}',
    '{"id":3,"name":"C","categoryId":1,"status":"sold"}',
    '{"id":4,"name":"D","categoryId":1,"status":"sold"}',
  ]);
  t.strictSame(await r.range(K.available, 0, 19), [], 'an empty list: an empty page');
});

t.test('a reset forgets every pet after the seed, in every list, and sets the sequence back', async (t) => {
  const r = await redis(t);
  await r.create([
    { name: 'Seed1', status: 'available' },
    { name: 'Seed2', status: 'sold' },
  ]);
  await r.client.hSet(K.meta, 'seed', '2');
  await r.create([{ name: 'A', status: 'sold' }, { name: 'B', status: 'available' }, { name: 'C' }]);
  t.equal(await r.reset(), 3, 'how many were forgotten');
  t.strictSame(await r.lists(), { order: ['1', '2'], available: ['1'], sold: ['2'], pets: ['1', '2'], seq: '2' });
  t.strictSame(await r.create([{ name: 'Next' }]), ['ok', '3'], 'the sequence goes on from the seed');
  t.equal(await r.reset(), 1);
  t.equal(await r.reset(), 0, 'nothing after the seed: nothing forgotten');
});

t.test('with no seed, a reset forgets every pet', async (t) => {
  const r = await redis(t);
  await r.create(
    Array.from({ length: 1500 }, (_, i) => ({ name: `P${i}`, status: i % 2 === 0 ? ('sold' as const) : ('available' as const) })),
    { capacity: 2000 },
  );
  t.equal(await r.reset(), 1500, 'more pets than one HDEL batch of 1,000');
  t.strictSame(await r.lists(), { order: [], available: [], sold: [], pets: [], seq: '0' });
  t.equal(await r.client.exists(K.order), 0, 'the order list is gone');
});
