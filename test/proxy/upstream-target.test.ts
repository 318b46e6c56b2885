import t from 'tap';
import { clientLocation, upstreamTarget } from '../../proxy/upstream-target.js';

const upstream = new URL('https://staging.example/api/v1');

t.test("the interface's base path at the proxy becomes the upstream's", async (t) => {
  t.same(upstreamTarget('/v1/pets?limit=5', '/v1', upstream), { path: '/api/v1/pets?limit=5', outside: false, relative: '/pets?limit=5' });
  t.same(upstreamTarget('/v1/pets/7', '/v1', upstream), { path: '/api/v1/pets/7', outside: false, relative: '/pets/7' });
  t.same(upstreamTarget('/v1', '/v1', upstream), { path: '/api/v1', outside: false, relative: '' });
  t.same(upstreamTarget('/v1?x=1', '/v1', upstream), { path: '/api/v1?x=1', outside: false, relative: '?x=1' });
});

t.test('a target outside the base path goes to the upstream origin as it is', async (t) => {
  t.same(upstreamTarget('/health', '/v1', upstream), { path: '/health', outside: true, relative: '/health' });
  t.same(upstreamTarget('/v10/pets', '/v1', upstream), { path: '/v10/pets', outside: true, relative: '/v10/pets' }, 'a longer segment is another path');
});

t.test('an interface at the root of either side', async (t) => {
  t.same(upstreamTarget('/pets', '', new URL('http://u.example/')), { path: '/pets', outside: false, relative: '/pets' });
  t.same(upstreamTarget('/v1/pets', '/v1', new URL('http://u.example')), { path: '/pets', outside: false, relative: '/pets' });
  t.same(upstreamTarget('/v1', '/v1', new URL('http://u.example')), { path: '/', outside: false, relative: '' });
});

t.test("a Location on the upstream's origin names the proxy's, its base path the proxy's (as nginx's proxy_redirect)", async (t) => {
  const proxy = 'http://127.0.0.1:4011';
  t.equal(clientLocation('https://staging.example/api/v1/pets/7', upstream, '/v1', proxy), 'http://127.0.0.1:4011/v1/pets/7');
  t.equal(clientLocation('https://staging.example/api/v1/pets/', upstream, '/v1', proxy), 'http://127.0.0.1:4011/v1/pets/');
  t.equal(clientLocation('https://staging.example/login', upstream, '/v1', proxy), 'http://127.0.0.1:4011/login', 'outside the base path: the origin only');
  t.equal(clientLocation('/api/v1/pets/7', upstream, '/v1', proxy), '/v1/pets/7', 'a path: its base path');
  t.equal(clientLocation('/other', upstream, '/v1', proxy), '/other');
  t.equal(clientLocation('pets/7', upstream, '/v1', proxy), 'pets/7', 'a relative reference resolves against the proxy already');
  t.equal(
    clientLocation('https://elsewhere.example/api/v1/pets/7', upstream, '/v1', proxy),
    'https://elsewhere.example/api/v1/pets/7',
    'another origin is left alone',
  );
  t.equal(
    clientLocation('https://staging.example.evil/api/v1', upstream, '/v1', proxy),
    'https://staging.example.evil/api/v1',
    'a longer host is another origin',
  );
});
