// Seed §4.3 and §9: getPet is removed on 5 December 2030. The server clock
// (`now`, `--now`) lets a client see the world after that date: getPet then
// answers 410 gone, the other operations go on, and the Date header follows
// the server clock.
import t from 'tap';
import { startTestServer } from '../../../helpers/server.js';

const SUNSET = new Date('2030-12-05T00:00:00Z');
const seed = [{ name: 'Rex', categoryId: 1n }];

t.test('from the sunset instant getPet answers 410 gone, while listPets and createPet still work', async (t) => {
  const { api } = await startTestServer(t, { seed, now: SUNSET });
  const r = await api('/pets/1');
  t.equal(r.status, 410);
  t.equal(r.body.code, 'gone');
  t.equal((await api('/pets')).status, 200, 'listPets');
  t.equal((await api('/pets', { json: { name: 'Tom', categoryId: 2 } })).status, 201, 'createPet');
  t.equal((await api('/pets/2')).status, 410, 'a pet created after the sunset cannot be fetched either');
});

t.test('one second before the sunset getPet still answers 200', async (t) => {
  const { api } = await startTestServer(t, { seed, now: new Date(SUNSET.getTime() - 1000) });
  t.equal((await api('/pets/1')).status, 200);
});

t.test('after the sunset getPet answers 410 whatever the id, but 401 without a key', async (t) => {
  const { api } = await startTestServer(t, { seed, now: new Date('2031-06-01T00:00:00Z') });
  t.equal((await api('/pets/999')).status, 410, 'an unknown id');
  t.equal((await api('/pets/1', { auth: false })).status, 401, 'authentication still comes first');
});

t.test('the Date header reflects the server clock', async (t) => {
  const { api } = await startTestServer(t, { now: SUNSET });
  for (const [path, options] of [
    ['/pets', {}],
    ['/pets/1', {}],
    ['/nope', {}],
    ['/pets', { auth: false as const }],
  ] as const) {
    const r = await api(path, options);
    const date = Date.parse(String(r.headers['date']));
    t.ok(date >= SUNSET.getTime() && date < SUNSET.getTime() + 10_000, `${path} → ${r.status}: Date ${r.headers['date']} is the server clock`);
  }
});

t.test('without a chosen instant the clock is the real time', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets');
  t.ok(Math.abs(Date.parse(String(r.headers['date'])) - Date.now()) < 5_000, String(r.headers['date']));
});

t.test('moving the server clock past the sunset (clock.set) retires getPet at once', async (t) => {
  const { api, server } = await startTestServer(t, { seed });
  t.equal((await api('/pets/1')).status, 200);
  server.clock.set(SUNSET);
  t.equal((await api('/pets/1')).status, 410);
});
