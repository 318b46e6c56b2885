// Seed §4.3 (getPet) and §7 (404 when no animal has the petId); decision D3
// (a petId that is not an int64 answers 400 invalid_parameter).
import t from 'tap';
import { startTestServer } from '../../../helpers/server.js';

const seed = [
  { name: 'Rex', categoryId: 3n, status: 'available' as const },
  { name: 'Tom', categoryId: 2n },
];

t.test('getPet answers 200 with the Pet of that id', async (t) => {
  const { api } = await startTestServer(t, { seed });
  t.strictSame((await api('/pets/1')).body, { id: 1, name: 'Rex', categoryId: 3, status: 'available' });
  t.strictSame((await api('/pets/2')).body, { id: 2, name: 'Tom', categoryId: 2 });
});

t.test('getPet finds a pet created by createPet', async (t) => {
  const { api } = await startTestServer(t);
  const created = await api('/pets', { json: { name: 'Luna', categoryId: 4, status: 'sold' } });
  const r = await api(`/pets/${created.body.id}`);
  t.equal(r.status, 200);
  t.strictSame(r.body, created.body);
});

t.test('getPet answers 404 with an Error body for an unknown id', async (t) => {
  const { api } = await startTestServer(t, { seed });
  for (const id of ['3', '0', '-1', '1000000', '9223372036854775807']) {
    const r = await api(`/pets/${id}`);
    t.equal(r.status, 404, id);
    t.strictSame(Object.keys(r.body).sort(), ['code', 'message', 'status'], `${id}: an Error body`);
    t.equal(r.body.code, 'pet_not_found', `${id}: code`);
    t.equal(r.body.status, 404, `${id}: status`);
  }
});

t.test('a petId that is not an int64 answers 400 invalid_parameter naming petId', async (t) => {
  const { api } = await startTestServer(t, { seed });
  for (const id of ['abc', '1.5', '1.0', '1e3', '0x1', '+1', '%201', '1%20', '9223372036854775808', '-9223372036854775809', 'true', 'null', '%E2%9C%93']) {
    const r = await api(`/pets/${id}`);
    t.equal(r.status, 400, id);
    t.equal(r.body.code, 'invalid_parameter', `${id}: code`);
    t.match(r.body.message, /\bpetId\b/, `${id}: the message names petId`);
  }
});

t.test('a petId with leading zeros names the same pet', async (t) => {
  const { api } = await startTestServer(t, { seed });
  t.equal((await api('/pets/001')).body.id, 1);
});
