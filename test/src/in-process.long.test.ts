// In-process clock and faults with a shared store (a real redis-server):
// like PUT /__control/clock and /faults, a call on one instance applies to
// every instance of the store; stubs stay the instance's own.
import t from 'tap';
import { request } from 'undici';
import { startServer, type StartedServer } from '../../src/index.js';
import { startRedis } from '../helpers/redis.js';

async function status(api: StartedServer, path: string): Promise<number> {
  const res = await request(api.url + path, { headers: { authorization: `Bearer ${api.apiKey}` } });
  await res.body.text();
  return res.statusCode;
}

/** Waits until `check` holds: the other instance hears of a change through the store's channel. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

t.test('clock.set() and faults.set() on one instance reach the other; a stub does not', async (t) => {
  const redis = await startRedis(t);
  const a = await startServer({ store: redis.url });
  t.teardown(() => a.close());
  const b = await startServer({ store: redis.url });
  t.teardown(() => b.close());

  await a.clock.set('2031-01-01T00:00:00Z');
  t.ok(await eventually(() => b.clock.now().getUTCFullYear() === 2031), 'the other instance’s clock moved');
  await a.clock.set(null);
  t.ok(await eventually(() => b.clock.now().getUTCFullYear() < 2031), 'and back');

  a.faults.set('listPets', { status: 503 });
  t.ok(await eventually(async () => (await status(b, '/pets')) === 503), 'the other instance answers with the fault');
  a.faults.clear();
  t.ok(await eventually(async () => (await status(b, '/pets')) === 200), 'and stops');

  a.stub('listPets', { status: 401, body: { code: 'unauthorized', message: 'stubbed', status: 401 } });
  t.equal(await status(b, '/pets'), 200, 'a stub is the instance’s own');
  t.equal(await status(a, '/pets'), 401);
});
