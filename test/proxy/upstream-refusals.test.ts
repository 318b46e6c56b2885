import t from 'tap';
import { startProxy } from '../../proxy/index.js';
import { startTestServer } from '../helpers/server.js';

const get = async (url: string, key: string) => {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, finding: res.headers.get('petstore-finding'), text: await res.text() };
};

t.test('a getPet 404 for an id JSON.parse makes of an id the upstream served is the client rounding it (a warning naming both)', async (t) => {
  const upstream = await startTestServer(t, { apiKeys: ['k'], ids: 'large' });
  const proxy = await startProxy({ upstream: upstream.url });
  t.teardown(() => proxy.close());
  const created = await fetch(`${proxy.url}/pets`, {
    method: 'POST',
    headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":1}',
  });
  t.match(await created.text(), /"id":9007199254740993/);
  const rounded = await get(`${proxy.url}/pets/9007199254740992`, 'k');
  t.equal(rounded.status, 404, "the upstream's answer, passed back");
  t.match(rounded.finding, /rounded_id/, 'named on the answer');
  t.match(
    proxy.findings().filter((f) => f.code === 'rounded_id'),
    [{ side: 'client', severity: 'warning', expected: '9007199254740993, the id this server gave', sent: 'petId 9007199254740992' }],
  );
});

t.test('a getPet 404 for another id is the pet_not_found the stand-in notes', async (t) => {
  const upstream = await startTestServer(t, { apiKeys: ['k'] });
  const proxy = await startProxy({ upstream: upstream.url });
  t.teardown(() => proxy.close());
  t.equal((await get(`${proxy.url}/pets/42`, 'k')).status, 404);
  t.match(
    proxy.findings().map((f) => [f.code, f.severity]),
    [
      ['deprecated_operation', 'warning'],
      ['pet_not_found', 'error'],
    ],
  );
});

t.test("a key the upstream refused is the client's refused key, noted once", async (t) => {
  const upstream = await startTestServer(t, { apiKeys: ['k'] });
  const proxy = await startProxy({ upstream: upstream.url });
  t.teardown(() => proxy.close());
  const refused = await get(`${proxy.url}/pets`, 'not-the-key');
  t.equal(refused.status, 401);
  t.equal(refused.finding, 'unauthorized');
  const keyless = await fetch(`${proxy.url}/pets`);
  await keyless.text();
  t.same(
    proxy.findings().map((f) => [f.code, f.count, f.sent]),
    [
      ['unauthorized', 1, 'Authorization: Bearer <a key this server does not accept>'],
      ['unauthorized', 1, 'no Authorization header'],
    ],
    'a request without a key is noted by the proxy itself, once',
  );
});
