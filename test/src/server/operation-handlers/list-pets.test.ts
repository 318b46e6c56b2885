// Seed §4.1 (listPets: limit 1..100, default 20; status filter) and §8
// (limits); decisions D3 (invalid parameters answer 400 invalid_parameter)
// and D6 (ascending id order, the first `limit` matches).
import t from 'tap';
import type { NewPet, PetStatus } from '../../../../spec/types.js';
import { openapi } from '../../../../spec/openapi.js';
import { describeOperations } from '../../../../spec/operations.js';
import { startTestServer } from '../../../helpers/server.js';

const STATUSES: readonly (PetStatus | undefined)[] = ['available', 'pending', 'sold', undefined];

/** `n` pets whose statuses cycle through available, pending, sold and none. */
function pets(n: number): NewPet[] {
  return Array.from({ length: n }, (_, i) => {
    const status = STATUSES[i % STATUSES.length];
    return { name: `pet-${i + 1}`, categoryId: BigInt(i), ...(status ? { status } : {}) };
  });
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ids = (body: Array<{ id: number }>) => body.map((p) => p.id);

t.test('listPets on an empty store answers 200 with an empty array', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets');
  t.equal(r.status, 200);
  t.equal(r.text, '[]');
});

t.test('listPets answers every field of each Pet', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(4) });
  t.strictSame((await api('/pets')).body, [
    { id: 1, name: 'pet-1', categoryId: 0, status: 'available' },
    { id: 2, name: 'pet-2', categoryId: 1, status: 'pending' },
    { id: 3, name: 'pet-3', categoryId: 2, status: 'sold' },
    { id: 4, name: 'pet-4', categoryId: 3 },
  ]);
});

t.test('without limit, listPets returns the first 20 pets (the default)', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(35) });
  t.strictSame(ids((await api('/pets')).body), range(1, 20));
});

t.test('limit=1 returns exactly the first pet', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(35) });
  t.strictSame(ids((await api('/pets?limit=1')).body), [1]);
});

t.test('limit=100 (the maximum) returns the first 100 pets', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(130) });
  t.strictSame(ids((await api('/pets?limit=100')).body), range(1, 100));
});

t.test('limit is a maximum: with fewer pets, all are returned', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(7) });
  t.strictSame(ids((await api('/pets?limit=50')).body), range(1, 7));
  t.strictSame(ids((await api('/pets?limit=7')).body), range(1, 7));
  t.strictSame(ids((await api('/pets?limit=6')).body), range(1, 6));
});

t.test('limit may be written with leading zeros or percent-encoded', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(10) });
  t.strictSame(ids((await api('/pets?limit=005')).body), range(1, 5));
  t.strictSame(ids((await api('/pets?limit=%33')).body), range(1, 3));
});

t.test('an invalid limit answers 400 invalid_parameter naming limit', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(3) });
  const values = [
    '0',
    '101',
    '-1',
    '1.5',
    'abc',
    '',
    '1e1',
    '0x10',
    '+5',
    '%205',
    '5%20',
    '99999999999999999999999',
    '9223372036854775808',
    'limit=5&limit=5',
    'limit=1&limit=2',
  ];
  for (const value of values) {
    const query = value.startsWith('limit=') ? value : `limit=${value}`;
    const r = await api(`/pets?${query}`);
    t.equal(r.status, 400, query);
    t.equal(r.body.code, 'invalid_parameter', `${query}: code`);
    t.match(r.body.message, /\blimit\b/, `${query}: the message names limit`);
  }
});

t.test('status returns only the pets with that status, in ascending id order', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(12) });
  t.strictSame(ids((await api('/pets?status=available')).body), [1, 5, 9]);
  t.strictSame(ids((await api('/pets?status=pending')).body), [2, 6, 10]);
  t.strictSame(ids((await api('/pets?status=sold')).body), [3, 7, 11]);
  for (const status of ['available', 'pending', 'sold']) {
    const r = await api(`/pets?status=${status}`);
    t.ok(
      r.body.every((p: { status: string }) => p.status === status),
      `${status}: only ${status} pets`,
    );
  }
});

t.test('status and limit together return the first `limit` matches', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(100) });
  t.strictSame(ids((await api('/pets?status=pending&limit=3')).body), [2, 6, 10]);
  t.strictSame(ids((await api('/pets?limit=2&status=sold')).body), [3, 7]);
  t.equal((await api('/pets?status=available')).body.length, 20, 'the default limit applies to a filtered list');
  t.equal((await api('/pets?status=available&limit=100')).body.length, 25, 'all 25 available pets');
});

t.test('pets created after the seed are listed in id order and filtered by status', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(2) });
  await api('/pets', { json: { name: 'new', categoryId: 1, status: 'available' } });
  t.strictSame(ids((await api('/pets')).body), [1, 2, 3]);
  t.strictSame(ids((await api('/pets?status=available')).body), [1, 3]);
});

t.test('a status with no pets answers an empty array', async (t) => {
  const { api } = await startTestServer(t, { seed: [{ name: 'A', categoryId: 1n, status: 'available' }] });
  t.equal((await api('/pets?status=sold')).text, '[]');
});

t.test('a status outside PetStatus answers 400 invalid_parameter naming status', async (t) => {
  const { api } = await startTestServer(t, { seed: pets(3) });
  for (const query of ['status=lost', 'status=Available', 'status=', 'status=available,sold', 'status=available&status=sold', 'status=%20available']) {
    const r = await api(`/pets?${query}`);
    t.equal(r.status, 400, query);
    t.equal(r.body.code, 'invalid_parameter', `${query}: code`);
    t.match(r.body.message, /\bstatus\b/, `${query}: the message names status`);
  }
});

t.test('with a spec that has no page size, listPets answers every pet (nothing pages them away)', async (t) => {
  const doc = structuredClone(openapi) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  doc.paths['/pets'].get.parameters = doc.paths['/pets'].get.parameters.filter((p: { name: string }) => p.name !== 'limit');
  const { api } = await startTestServer(t, { seed: pets(130), operations: describeOperations(doc) });
  t.strictSame(ids((await api('/pets')).body), range(1, 130));
  t.strictSame(
    ids((await api('/pets?status=sold')).body),
    range(1, 130).filter((id) => id % 4 === 3),
  );
});
