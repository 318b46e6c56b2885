// `petstore serve --ids <mode>` (src/store/ids.ts): sequential ids (1, 2,
// 3…), large ones (from 2^53 + 1, beyond what JSON.parse keeps) and random
// ones (any positive int64), each exact on the wire, on a real listening
// server: the interface, the seed, startServer(), reset, and the control
// API's bulk create.
import t from 'tap';
import { startServer } from '../../../../src/index.js';
import { ID_MODES, type IdMode } from '../../../../src/store/index.js';
import { controlClient } from '../../../helpers/control.js';
import { apiClient } from '../../../helpers/api-client.js';
import { startTestServer } from '../../../helpers/server.js';

const MAX_INT64 = 2n ** 63n - 1n;
/** Every id in a JSON text, as the digits sent (JSON.parse would round them). */
const idsIn = (text: string) => [...text.matchAll(/"id":(\d+)/g)].map((m) => BigInt(m[1] as string));
const idOf = (text: string) => idsIn(text)[0] as bigint;

/** What each mode promises of the ids of n pets created one after another. */
const promises: Record<IdMode, (ids: bigint[]) => [boolean, string][]> = {
  sequential: (ids) => [[ids.every((id, i) => id === BigInt(i + 1)), '1, 2, 3…']],
  large: (ids) => [
    [ids[0] === 9007199254740993n, 'the first is 2^53 + 1 = 9007199254740993'],
    [ids.every((id, i) => id === 9007199254740993n + 2n * BigInt(i)), 'then every other integer from there'],
    [ids.every((id) => BigInt(Number(id)) !== id), 'none survives a double (JSON.parse)'],
  ],
  random: (ids) => [
    [ids.every((id) => id >= 1n && id <= MAX_INT64), 'positive int64s'],
    // 21 ids all in ascending order by chance: probability 1/21!, about 2e-20.
    [ids.some((id, i) => i > 0 && id < (ids[i - 1] as bigint)), 'unordered'],
    // Each id lies below 2^53 with probability 2^53 / 2^63 = 1/1024, so of n ids the count below is
    // Binomial(n, 1/1024): for 21 ids, 5 or more below happens with probability under 2e-11, never in practice;
    // a generator confined to doubles' exact range (or to small ids) puts them all there.
    [ids.filter((id) => id <= 2n ** 53n).length <= 4, 'beyond 2^53 but for a few at most, as 1023/1024 of the range is'],
  ],
};

for (const mode of ID_MODES) {
  t.test(`--ids ${mode}: created, read, listed and reset with exact ids`, async (t) => {
    const { api, server, url, key } = await startTestServer(t, { ids: mode, seed: [{ name: 'Seed', categoryId: 9007199254740993n, status: 'sold' }] });
    const seedId = idOf((await api('/pets')).text);
    const created: bigint[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await api('/pets', {
        body: `{"name":"p${i}","categoryId":${MAX_INT64},"status":"available"}`,
        headers: { 'content-type': 'application/json' },
      });
      t.equal(r.status, 201);
      created.push(idOf(r.text));
    }
    const all = [seedId, ...created];
    for (const [holds, what] of promises[mode](all)) t.ok(holds, `ids: ${what} (${all.slice(0, 3).join(', ')}…)`);
    t.equal(new Set(all.map(String)).size, 21, 'distinct');

    for (const id of [seedId, created[7] as bigint]) {
      const r = await api(`/pets/${id}`);
      t.equal(r.status, 200, `getPet ${id}`);
      t.equal(idOf(r.text), id, 'the answer names the id asked for, digit for digit');
    }
    // The double nearest a large id is another id: a client that rounded it must not find this pet.
    if (mode !== 'sequential') {
      const rounded = BigInt(Number(seedId));
      if (rounded !== seedId) t.equal((await api(`/pets/${rounded}`)).status, 404, `${rounded} (the id through a double) is no pet`);
    }
    const page = await api('/pets?limit=100');
    t.strictSame(idsIn(page.text), all, 'the list holds every pet in creation order, ids exact');
    t.strictSame(idsIn((await api('/pets?status=sold')).text), [seedId], 'the status filter');

    server.reset();
    t.equal((await api(`/pets/${created[0]}`)).status, 404, 'a reset forgets the created pets');
    t.equal(idOf((await api(`/pets/${seedId}`)).text), seedId, 'and keeps the seed with its id');
    const after = idOf((await api('/pets', { json: { name: 'after', categoryId: 1 } })).text);
    if (mode === 'random') t.not(after, seedId, 'a new random id');
    else t.equal(after, seedId + (mode === 'large' ? 2n : 1n), 'ids go on after the seed');

    const control = controlClient(t, url, key);
    const loaded = await control('POST', '/pets', {
      json: [
        { name: 'bulk-a', categoryId: 1 },
        { name: 'bulk-b', categoryId: 2, status: 'pending' },
      ],
    });
    t.equal(loaded.status, 201);
    const ids = (loaded.value as { ids: bigint[]; firstId: bigint; lastId: bigint }).ids;
    t.equal(ids.length, 2, 'the bulk create lists the ids it gave');
    t.strictSame(
      [(loaded.value as { firstId: bigint }).firstId, (loaded.value as { lastId: bigint }).lastId],
      ids,
      'firstId and lastId are the first and the last',
    );
    for (const [i, id] of ids.entries()) t.match((await api(`/pets/${id}`)).text, `{"id":${id},"name":"bulk-${'ab'[i]}"`, `bulk pet ${id} is there`);
    const state = await control('GET', '/state');
    t.strictSame(idsIn(state.text), [seedId, after, ...ids], 'the state holds every pet with its exact id');
  });
}

t.test('--ids random: 300 parallel creates get 300 distinct ids, each retrievable', async (t) => {
  const { api } = await startTestServer(t, { ids: 'random' });
  const responses = await Promise.all(Array.from({ length: 300 }, (_, i) => api('/pets', { json: { name: `p${i}`, categoryId: i } })));
  const ids = responses.map((r) => idOf(r.text));
  t.equal(new Set(ids.map(String)).size, 300);
  const fetched = await Promise.all(ids.map((id) => api(`/pets/${id}`)));
  t.ok(
    fetched.every((r, i) => r.status === 200 && r.text === responses[i]?.text),
    'every getPet answers what its create answered',
  );
});

t.test('startServer({ ids }) serves the mode', async (t) => {
  const api = await startServer({ ids: 'large' });
  t.teardown(() => api.close());
  const r = await apiClient(t, api.url, api.apiKey)('/pets', { json: { name: 'Rex', categoryId: 1 } });
  t.equal(r.text, '{"id":9007199254740993,"name":"Rex","categoryId":1}');
});
