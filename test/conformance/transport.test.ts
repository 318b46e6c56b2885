// How the suite chooses a proxy for its target (conformance/transport.ts), as
// curl reads the environment: http_proxy for http, https_proxy for https,
// all_proxy otherwise, the lower-case name first, and no_proxy naming the
// hosts reached directly. A report names the proxy without its credentials.
import { createServer } from 'node:http';
import t from 'tap';
import { ProxyAgent } from 'undici';
import { createClient, type WireRequest } from '../../conformance/client.js';
import { bypasses, createTransport, describeProxy, proxyFor } from '../../conformance/transport.js';

const http = new URL('http://staging.example.com/v1');
const https = new URL('https://staging.example.com/v1');

t.test('an http target goes through http_proxy, an https target through https_proxy', async (t) => {
  const env = { http_proxy: 'http://plain.proxy:3128', https_proxy: 'http://secure.proxy:3129' };
  t.equal(proxyFor(http, env), 'http://plain.proxy:3128');
  t.equal(proxyFor(https, env), 'http://secure.proxy:3129');
  t.equal(proxyFor(https, { http_proxy: 'http://plain.proxy:3128' }), undefined, 'http_proxy is not used for an https target');
  t.equal(proxyFor(http, { https_proxy: 'http://secure.proxy:3129' }), undefined, 'https_proxy is not used for an http target');
  t.equal(proxyFor(http, {}), undefined, 'no proxy in the environment: direct');
  t.equal(proxyFor(http, { http_proxy: '   ' }), undefined, 'a blank setting is no proxy');
});

t.test('the upper-case names are read too, and the lower-case name wins where both are set', async (t) => {
  t.equal(proxyFor(http, { HTTP_PROXY: 'http://upper:1' }), 'http://upper:1');
  t.equal(proxyFor(https, { HTTPS_PROXY: 'http://upper:2' }), 'http://upper:2');
  t.equal(proxyFor(http, { HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:1' }), 'http://lower:1');
  t.equal(proxyFor(https, { HTTPS_PROXY: 'http://upper:2', https_proxy: 'http://lower:2' }), 'http://lower:2');
  t.equal(proxyFor(http, { ALL_PROXY: 'http://upper:3', all_proxy: 'http://lower:3' }), 'http://lower:3');
  t.equal(
    proxyFor(http, { http_proxy: 'http://p:1', NO_PROXY: 'example.com', no_proxy: 'other.org' }),
    'http://p:1',
    'no_proxy (lower case) replaces NO_PROXY rather than adding to it',
  );
  t.equal(proxyFor(http, { http_proxy: 'http://p:1', NO_PROXY: 'example.com' }), undefined, 'NO_PROXY alone is read');
});

t.test('all_proxy is the fallback for either scheme, and the scheme-specific setting wins over it', async (t) => {
  t.equal(proxyFor(http, { all_proxy: 'http://all:8080' }), 'http://all:8080');
  t.equal(proxyFor(https, { all_proxy: 'http://all:8080' }), 'http://all:8080');
  t.equal(proxyFor(http, { ALL_PROXY: 'http://all:8080' }), 'http://all:8080');
  t.equal(proxyFor(https, { all_proxy: 'http://all:8080', https_proxy: 'http://secure:8443' }), 'http://secure:8443');
  t.equal(proxyFor(http, { all_proxy: 'http://all:8080', https_proxy: 'http://secure:8443' }), 'http://all:8080', 'an http target falls back past https_proxy');
});

t.test('a proxy written without a scheme is an http:// proxy; one with a scheme is kept as written', async (t) => {
  t.equal(proxyFor(http, { http_proxy: 'proxy.corp:3128' }), 'http://proxy.corp:3128');
  t.equal(proxyFor(https, { https_proxy: '10.0.0.5:8080' }), 'http://10.0.0.5:8080');
  t.equal(proxyFor(https, { https_proxy: '  proxy.corp:3128  ' }), 'http://proxy.corp:3128', 'surrounding blanks are dropped');
  t.equal(proxyFor(https, { https_proxy: 'https://proxy.corp:443' }), 'https://proxy.corp:443');
  t.equal(proxyFor(https, { https_proxy: 'HTTP://proxy.corp:3128' }), 'HTTP://proxy.corp:3128', 'the scheme is recognised in any case');
  t.equal(proxyFor(http, { http_proxy: 'user:pw@proxy.corp:3128' }), 'http://user:pw@proxy.corp:3128', 'credentials are kept for the proxy to read');
});

t.test('no_proxy: a host name covers itself and its subdomains, and nothing else', async (t) => {
  const env = (noProxy: string) => ({ http_proxy: 'http://p:3128', https_proxy: 'http://p:3128', no_proxy: noProxy });
  t.equal(proxyFor(http, env('staging.example.com')), undefined, 'the exact host');
  t.equal(proxyFor(https, env('STAGING.Example.COM')), undefined, 'in any letter case');
  t.equal(proxyFor(https, env('example.com')), undefined, 'a parent domain covers its subdomain');
  t.equal(proxyFor(new URL('http://example.com/v1'), env('example.com')), undefined);
  t.equal(proxyFor(https, env('.example.com')), undefined, 'a leading dot changes nothing');
  t.equal(proxyFor(new URL('https://example.com/v1'), env('.example.com')), undefined, 'a leading dot still covers the domain itself');
  t.equal(proxyFor(https, env('*.example.com')), undefined, '*. changes nothing');
  t.equal(proxyFor(new URL('https://example.com/v1'), env('*.example.com')), undefined);
  t.equal(proxyFor(https, env('other.org, example.com')), undefined, 'any entry of a comma-separated list');
  t.equal(proxyFor(https, env('other.org,example.com')), undefined);

  t.equal(proxyFor(new URL('https://badexample.com/v1'), env('example.com')), 'http://p:3128', 'a name is not a suffix of characters');
  t.equal(proxyFor(new URL('https://example.com.evil.org/v1'), env('example.com')), 'http://p:3128');
  t.equal(proxyFor(https, env('api.staging.example.com')), 'http://p:3128', 'a subdomain does not cover its parent');
  t.equal(proxyFor(https, env('other.org')), 'http://p:3128');
});

t.test('no_proxy: * alone bypasses every proxy', async (t) => {
  const env = { http_proxy: 'http://p:3128', https_proxy: 'http://p:3128', no_proxy: '*' };
  t.equal(proxyFor(http, env), undefined);
  t.equal(proxyFor(new URL('https://10.1.2.3:8443/v1'), env), undefined);
  t.equal(proxyFor(new URL('http://[2001:db8::1]/v1'), env), undefined);
  t.equal(proxyFor(http, { ...env, no_proxy: 'other.org, *' }), undefined, 'as an entry of a list');
});

t.test('no_proxy: host:port covers that port only, the scheme giving the default port', async (t) => {
  t.ok(bypasses(new URL('http://staging.example.com:8080/v1'), 'staging.example.com:8080'));
  t.notOk(bypasses(new URL('http://staging.example.com:8081/v1'), 'staging.example.com:8080'), 'another port');
  t.notOk(bypasses(new URL('http://staging.example.com/v1'), 'staging.example.com:8080'), 'the default port of http is 80');
  t.ok(bypasses(new URL('http://staging.example.com/v1'), 'staging.example.com:80'));
  t.ok(bypasses(new URL('https://staging.example.com/v1'), 'staging.example.com:443'));
  t.notOk(bypasses(new URL('https://staging.example.com/v1'), 'staging.example.com:80'), 'the default port of https is 443');
  t.ok(bypasses(new URL('https://api.example.com:8443/v1'), '.example.com:8443'), 'with a domain');
  t.ok(bypasses(new URL('http://10.0.0.7:8080/v1'), '10.0.0.7:8080'), 'with an IPv4 address');
  t.notOk(bypasses(new URL('http://10.0.0.7:9090/v1'), '10.0.0.7:8080'));
});

t.test('no_proxy: IPv4 addresses and CIDR blocks', async (t) => {
  t.ok(bypasses(new URL('http://10.0.0.7/v1'), '10.0.0.7'), 'an exact address');
  t.notOk(bypasses(new URL('http://10.0.0.8/v1'), '10.0.0.7'));
  t.ok(bypasses(new URL('http://10.20.30.40/v1'), '10.0.0.0/8'), 'inside a /8');
  t.notOk(bypasses(new URL('http://11.0.0.1/v1'), '10.0.0.0/8'), 'outside the /8');
  t.ok(bypasses(new URL('https://192.168.1.200:8443/v1'), '192.168.1.0/24'));
  t.notOk(bypasses(new URL('https://192.168.2.1/v1'), '192.168.1.0/24'));
  t.ok(bypasses(new URL('http://127.0.0.1:4010/v1'), 'localhost, 127.0.0.0/8'));
  t.notOk(bypasses(new URL('http://staging.example.com/v1'), '10.0.0.0/8'), 'a host name is in no CIDR block');
  t.notOk(bypasses(new URL('http://[::ffff:a00:1]/v1'), '10.0.0.0/8'), 'an IPv6 host is not judged by an IPv4 block');
  t.equal(proxyFor(new URL('http://10.9.8.7/v1'), { http_proxy: 'http://p:1', no_proxy: '10.0.0.0/8' }), undefined, 'and proxyFor follows it');
});

t.test('no_proxy: IPv6 literals, in brackets or not, with a port, and IPv6 blocks', async (t) => {
  const target = new URL('http://[2001:db8::1]:8080/v1');
  t.ok(bypasses(target, '[2001:db8::1]'), 'a bracketed literal');
  t.ok(bypasses(target, '2001:db8::1'), 'a bare literal');
  t.ok(bypasses(target, '[2001:db8::1]:8080'), 'a bracketed literal with the target port');
  t.notOk(bypasses(target, '[2001:db8::1]:9090'), 'a bracketed literal with another port');
  t.notOk(bypasses(target, '[2001:db8::2]'), 'another address');
  t.ok(bypasses(target, '2001:db8::/32'), 'an IPv6 CIDR block');
  t.notOk(bypasses(target, '2001:db9::/32'));
  t.ok(bypasses(new URL('http://[::1]:3000/v1'), 'localhost,[::1]'), 'loopback in a list');
  t.equal(proxyFor(new URL('https://[2001:db8::1]/v1'), { https_proxy: 'http://p:1', no_proxy: '[2001:db8::1]' }), undefined);
  t.equal(proxyFor(new URL('https://[2001:db8::1]/v1'), { https_proxy: 'http://p:1', no_proxy: '[2001:db8::2]' }), 'http://p:1');
});

t.test('describeProxy: the proxy as a report names it, without user or password', async (t) => {
  t.equal(describeProxy('http://alice:s3cret-pw@proxy.corp:3128'), 'http://proxy.corp:3128');
  t.equal(describeProxy('http://alice@proxy.corp:3128'), 'http://proxy.corp:3128', 'a user alone');
  t.equal(describeProxy('https://a%40b:p%3Aw@proxy.corp'), 'https://proxy.corp', 'percent-encoded credentials');
  t.equal(describeProxy('http://proxy.corp:3128/'), 'http://proxy.corp:3128', 'no trailing slash');
  t.equal(describeProxy('http://proxy.corp:3128'), 'http://proxy.corp:3128', 'a proxy without credentials is unchanged');
  for (const proxy of ['http://alice:s3cret-pw@proxy.corp:3128', 'https://alice:s3cret-pw@proxy.corp/']) {
    const shown = describeProxy(proxy);
    t.notMatch(shown, /alice|s3cret-pw|@/, `${shown} holds no credentials`);
  }
});

t.test('createTransport: direct without a proxy, through one when the environment names it, never an unknown kind', async (t) => {
  const direct = createTransport(https, {}, { env: {} });
  t.teardown(() => direct.dispatcher.close());
  t.equal(direct.proxy, undefined, 'direct: no proxy named');

  const proxied = createTransport(https, {}, { env: { https_proxy: 'http://alice:s3cret-pw@proxy.corp:3128' } });
  t.teardown(() => proxied.dispatcher.close());
  t.equal(proxied.proxy, 'http://proxy.corp:3128', 'the proxy named without its credentials');

  const bypassed = createTransport(https, {}, { env: { https_proxy: 'http://proxy.corp:3128', no_proxy: 'example.com' } });
  t.teardown(() => bypassed.dispatcher.close());
  t.equal(bypassed.proxy, undefined, 'no_proxy: direct');

  t.throws(
    () => createTransport(https, {}, { env: { https_proxy: 'socks5://alice:pw@proxy.corp:1080' } }),
    { message: 'the proxy socks5://proxy.corp:1080 is not an http: or https: proxy' },
    'a socks proxy is refused, named without its credentials',
  );
});

// Known bug (reported, not fixed here): a no_proxy entry that is not a valid CIDR
// block throws RangeError out of BlockList.addSubnet for a target of the same
// address family, and `petstore conform` ends in "unexpected error" with a stack.
t.test('no_proxy: an entry that is not a valid CIDR block is ignored, not a crash', async (t) => {
  const target = new URL('http://10.0.0.1:8080/v1');
  for (const entry of ['10.0.0.0/33', '10.0.0.0/8:8080', '10.0.0.0/x', '10.0.0.0/']) {
    let bypassed: boolean | string;
    try {
      bypassed = bypasses(target, entry);
    } catch (error) {
      bypassed = `throws ${(error as Error).message}`;
    }
    t.equal(bypassed, false, `${entry}: not a block, so no bypass`);
  }
  t.ok(bypasses(target, '10.0.0.0/33, 10.0.0.1'), 'a later valid entry still applies');
});

// tinyproxy relays an answer, drops the origin's Connection field, and closes
// its client connection afterwards without a "close" option: a client that
// sends its next request on that connection before the close arrives loses it
// (a CI run through tinyproxy lost five GETs this way). This stand-in proxy
// answers one request per connection and drops the connection when a second
// one comes on it, so the race is lost every time.
t.test('through a forward proxy, each request has a connection of its own: one the proxy closes after answering loses nothing', async (t) => {
  const connections = new Set<unknown>();
  const proxy = createServer((req, res) => {
    if (connections.has(req.socket)) return req.socket.destroy();
    connections.add(req.socket);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, url: req.url }));
  });
  proxy.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  const port = (proxy.address() as { port: number }).port;

  const client = createClient({
    baseUrl: 'http://pets.invalid/v1',
    apiKey: 'k',
    timeoutMs: 5_000,
    concurrency: 1,
    rate: 0,
    maxWrites: 10,
    maxResponseBytes: 1 << 20,
    transport: { env: { http_proxy: `http://127.0.0.1:${port}` } },
  });
  t.teardown(() => client.close());
  const requests: WireRequest[] = [
    { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets' },
    { method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: '{"name":"Rex"}', operationId: 'createPet' },
    { method: 'GET', path: '/pets?limit=1', headers: {}, operationId: 'listPets' },
    { method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: '{"name":"Tom"}', operationId: 'createPet' },
  ];
  for (const request of requests) {
    const response = await client.send('test', request);
    t.equal(response.status, 200, `${request.method} ${request.path} answered`);
    t.same(JSON.parse(response.text), { method: request.method, url: `http://pets.invalid/v1${request.path}` }, 'in absolute form, to the proxy');
  }
  t.equal(connections.size, requests.length, 'one connection to the proxy per request');
});

// undici tunnels through an https: proxy whatever the target, and a tunnel carries the target's own connection:
// only requests in absolute form to an http: proxy ask for a connection each.
t.test('the connection per request is asked of an http: proxy forwarding an http target only', async (t) => {
  const cases = [
    { target: http, env: { http_proxy: 'http://proxy.corp:3128' }, own: false },
    { target: http, env: { http_proxy: 'https://proxy.corp:3129' }, own: true },
    { target: https, env: { https_proxy: 'http://proxy.corp:3128' }, own: true },
  ];
  for (const { target, env, own } of cases) {
    const { dispatcher } = createTransport(target, {}, { env });
    t.teardown(() => dispatcher.close());
    t.equal(
      dispatcher.dispatch === ProxyAgent.prototype.dispatch,
      own,
      `${target.protocol} target through ${Object.values(env)[0]}: ${own ? "undici's own dispatch" : 'Connection: close on each request'}`,
    );
  }
});
