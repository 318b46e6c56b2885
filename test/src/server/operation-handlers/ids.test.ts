// Seed §2 (Pet.id: unique, assigned by the service on creation); decision D6
// (ids 1, 2, 3… in creation order, never reused).
import t from 'tap';
import { createPets, startTestServer } from '../../../helpers/server.js';

t.test('ids are 1, 2, 3… in creation order', async (t) => {
  const { api } = await startTestServer(t);
  const created = await createPets(api, [
    { name: 'A', categoryId: 1 },
    { name: 'B', categoryId: 1 },
    { name: 'C', categoryId: 1 },
  ]);
  t.strictSame(
    created.map((r) => r.body.id),
    [1, 2, 3],
  );
});

t.test('seed pets take the first ids, in seed order, and new pets follow', async (t) => {
  const { api } = await startTestServer(t, {
    seed: [
      { name: 'A', categoryId: 1n },
      { name: 'B', categoryId: 2n },
    ],
  });
  t.strictSame((await api('/pets/1')).body, { id: 1, name: 'A', categoryId: 1 });
  t.strictSame((await api('/pets/2')).body, { id: 2, name: 'B', categoryId: 2 });
  t.equal((await api('/pets', { json: { name: 'C', categoryId: 3 } })).body.id, 3);
});

t.test('a refused creation uses up no id', async (t) => {
  const { api } = await startTestServer(t);
  t.equal((await api('/pets', { json: { name: 'A', categoryId: 1 } })).body.id, 1);
  t.equal((await api('/pets', { json: { name: 'B' } })).status, 400);
  t.equal((await api('/pets', { body: '{', headers: { 'content-type': 'application/json' } })).status, 400);
  t.equal((await api('/pets', { json: { name: 'C', categoryId: 1 }, auth: false })).status, 401);
  t.equal((await api('/pets', { json: { name: 'D', categoryId: 1 } })).body.id, 2);
});

t.test('reset() forgets the created pets and restores the seed with its ids', async (t) => {
  const { api, server } = await startTestServer(t, { seed: [{ name: 'Seed', categoryId: 1n }] });
  t.equal((await api('/pets', { json: { name: 'A', categoryId: 1 } })).body.id, 2);
  server.reset();
  t.equal((await api('/pets/2')).status, 404, 'after reset the created pet is gone');
  t.equal((await api('/pets/1')).body.name, 'Seed', 'the seed pet is back');
});

t.test('ids stay unique under 200 parallel creates, and every pet is retrievable and listed', async (t) => {
  const { api } = await startTestServer(t);
  const statuses = ['available', 'pending', 'sold'] as const;
  const responses = await Promise.all(
    Array.from({ length: 200 }, (_, i) => api('/pets', { json: { name: `pet-${i}`, categoryId: i, status: statuses[i % 3] } })),
  );
  t.ok(
    responses.every((r) => r.status === 201),
    'every create answered 201',
  );
  const ids = responses.map((r) => r.body.id as number);
  t.equal(new Set(ids).size, 200, '200 distinct ids');
  t.strictSame(
    [...ids].sort((a, b) => a - b),
    Array.from({ length: 200 }, (_, i) => i + 1),
    'exactly 1..200',
  );

  const byId = new Map(responses.map((r) => [r.body.id as number, r.body]));
  const fetched = await Promise.all(ids.map((id) => api(`/pets/${id}`)));
  t.ok(
    fetched.every((r) => r.status === 200),
    'every pet is retrievable',
  );
  t.ok(
    fetched.every((r) => JSON.stringify(r.body) === JSON.stringify(byId.get(r.body.id))),
    'each getPet answers what its create answered',
  );

  // A list holds at most 100, so the three status lists (67 + 67 + 66) together show all 200.
  const listed: number[] = [];
  for (const status of statuses) {
    const r = await api(`/pets?status=${status}&limit=100`);
    t.ok(
      r.body.every((p: { status: string }) => p.status === status),
      `${status} list holds only ${status}`,
    );
    listed.push(...r.body.map((p: { id: number }) => p.id));
  }
  t.strictSame(
    listed.sort((a, b) => a - b),
    Array.from({ length: 200 }, (_, i) => i + 1),
    'every pet is listed once',
  );
});
