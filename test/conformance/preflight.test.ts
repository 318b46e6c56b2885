// What stands between the suite and a real staging, diagnosed before any check
// runs (conformance/runner.ts, preflight): a base URL that redirects is a usage
// error naming the --base-url to give instead, and a refusal that is not the
// interface's own Error body (a gateway, an access proxy) is a usage error
// that shows the answer and suggests --header. A --header value is sent on
// every request and never shown in a report: it is written as $VARIABLE.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startServer } from '../../src/index.js';
import { runCli } from '../helpers/run-conform.js';

const KEY = 'staging-diagnosis-key-1';
const GATEWAY_SECRET = 'gw-secret-123';
const QUICK = ['--checks', 'auth', '--runs', '5', '--seed', '1', '--quiet'];

/** A server on 127.0.0.1, a free port; closed when the test ends. */
async function listen(t: Test, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { server, port: (server.address() as AddressInfo).port };
}

t.test('a base URL that redirects to https: exit 2, naming the --base-url to give instead', async (t) => {
  let requests = 0;
  let port = 0;
  ({ port } = await listen(t, (req, res) => {
    requests++;
    req.resume();
    res.writeHead(301, { location: `https://127.0.0.1:${port}/v1/pets` }).end();
  }));
  const base = `http://127.0.0.1:${port}/v1`;
  const run = await runCli(['conform', '--base-url', base, '--api-key', KEY, ...QUICK]);
  t.equal(run.code, 2, 'a usage error');
  t.equal(
    run.stderr,
    `petstore: ${base}/pets answered 301 with Location: https://127.0.0.1:${port}/v1/pets; ` +
      `the suite follows no redirect (the key would travel with it), so give --base-url https://127.0.0.1:${port}/v1\n`,
    'one line that names the new base URL',
  );
  t.ok(run.stderr.includes(`--base-url https://127.0.0.1:${port}/v1`), 'the base URL to give');
  t.equal(run.stdout, '', 'no report: nothing was checked');
  t.equal(requests, 1, 'one request, before any check');
});

t.test("a list that redirects to another spelling of itself is the interface's own answer: the checks judge it (exit 1)", async (t) => {
  let port = 0;
  ({ port } = await listen(t, (req, res) => {
    req.resume();
    res.writeHead(308, { location: `http://127.0.0.1:${port}/v1/pets/` }).end();
  }));
  const run = await runCli(['conform', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY, ...QUICK]);
  t.equal(run.code, 1, `a failed requirement, not a wrong target: ${run.stderr}`);
  t.notMatch(run.stderr, /follows no redirect/);
});

t.test('a redirect to another path on the same host names that base URL; one elsewhere says what to look for', async (t) => {
  let port = 0;
  ({ port } = await listen(t, (req, res) => {
    req.resume();
    if (req.url?.startsWith('/v1/')) res.writeHead(308, { location: '/api/v1/pets' }).end();
    else res.writeHead(302, { location: '/login?next=%2Fpets' }).end();
  }));
  const moved = await runCli(['conform', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY, ...QUICK]);
  t.equal(moved.code, 2);
  t.match(moved.stderr, `answered 308 with Location: http://127.0.0.1:${port}/api/v1/pets;`, 'a relative Location resolved against the request');
  t.match(moved.stderr, new RegExp(`give --base-url http://127\\.0\\.0\\.1:${port}/api/v1\\n$`));

  const login = await runCli(['conform', '--base-url', `http://127.0.0.1:${port}/v2`, '--api-key', KEY, ...QUICK]);
  t.equal(login.code, 2);
  t.match(login.stderr, `answered 302 with Location: http://127.0.0.1:${port}/login?next=%2Fpets;`);
  t.match(login.stderr, /give the base URL that serves the interface at the redirect's target\n$/, 'no base URL can be read from a login page');
  t.notMatch(login.stderr, /--base-url http/, 'and none is invented');
});

/**
 * A gateway in front of a reference server: 403 text/plain unless the request
 * carries X-Gateway-Key: gw-secret-123, then forwarded as it came. It also
 * breaks the interface where a report will show it: a request without
 * Authorization gets 200 and the gateway key echoed in a response field,
 * rather than the reference server's 401.
 */
async function gateway(t: Test) {
  const reference = await startServer({ apiKeys: [KEY] });
  t.teardown(() => reference.close());
  const upstream = new URL(reference.url);
  const seen = { withKey: 0, withoutKey: 0 };
  const { port } = await listen(t, (req, res) => {
    if (req.headers['x-gateway-key'] !== GATEWAY_SECRET) {
      seen.withoutKey++;
      req.resume();
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden by gateway\nrequest id 7f3a\n');
      return;
    }
    seen.withKey++;
    if (req.headers.authorization === undefined) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'x-gateway-echo': GATEWAY_SECRET }).end('[]');
      return;
    }
    const forwarded = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  return { base: `http://127.0.0.1:${port}/v1`, seen };
}

t.test('a gateway that refuses with its own body: exit 2, showing its answer and suggesting --header', async (t) => {
  const { base } = await gateway(t);
  const run = await runCli(['conform', '--base-url', base, '--api-key', KEY, ...QUICK]);
  t.equal(run.code, 2, 'a usage error');
  t.match(run.stderr, /^petstore: [^\n]*\n$/, 'one line');
  t.ok(
    run.stderr.includes(`GET ${base}/pets answered 403 (text/plain): "Forbidden by gateway", which is not the interface's`),
    `it shows the request and the answer: status, Content-Type, the first line of the body: ${run.stderr}`,
  );
  t.ok(run.stderr.includes("give it with --header 'Name: value'"), 'it suggests --header');
  for (const part of ['403', 'text/plain', 'Forbidden by gateway', '--header']) t.ok(run.stderr.includes(part), `it names ${part}`);
  t.notMatch(run.stderr, /request id 7f3a/, 'only the first line of the body');
  t.notMatch(run.stderr, /check --api-key/, 'a 403 is not about the API key');
  t.equal(run.stdout, '', 'no report');
});

t.test("a 403 with the interface's own Error body is the target refusing the key, not a gateway", async (t) => {
  const { port } = await listen(t, (req, res) => {
    req.resume();
    res.writeHead(403, { 'content-type': 'application/json' }).end('{"code":"forbidden","message":"key revoked","status":403}');
  });
  const run = await runCli(['conform', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY, ...QUICK]);
  t.equal(run.code, 2);
  t.equal(run.stderr, 'petstore: the target refuses the API key (403 on GET /pets); check --api-key\n');
  t.notMatch(run.stderr, /--header/);
});

t.test('a gateway 401 that is not an Error body suggests --header, and --api-key too', async (t) => {
  const { port } = await listen(t, (req, res) => {
    req.resume();
    res.writeHead(401, { 'content-type': 'text/html' }).end('\n<html><body>Sign in to Access</body></html>');
  });
  const run = await runCli(['conform', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY, ...QUICK]);
  t.equal(run.code, 2);
  t.match(run.stderr, /^petstore: [^\n]*\n$/, 'one line');
  t.ok(
    run.stderr.includes('answered 401 (text/html): "<html><body>Sign in to Access</body></html>", which is not'),
    `the first line of the body that is not blank: ${run.stderr}`,
  );
  t.match(run.stderr, /--header 'Name: value'.*check --api-key\n$/, 'a 401 may be about the API key too');
});

t.test('with --header the gateway lets the run through: sent on every request, never shown, written as $GW', async (t) => {
  const { base, seen } = await gateway(t);
  const dir = mkdtempSync(join(tmpdir(), 'petstore-staging-'));
  const files = { json: join(dir, 'report.json'), tap: join(dir, 'report.tap'), junit: join(dir, 'report.xml'), html: join(dir, 'report.html') };
  const run = await runCli(
    [
      'conform',
      '--base-url',
      base,
      '--api-key',
      KEY,
      ...QUICK,
      '--header',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the option's own syntax, read from the environment by the suite.
      'X-Gateway-Key: ${GW}',
      '--reporter',
      'human',
      ...Object.entries(files).flatMap(([reporter, file]) => ['--reporter', `${reporter}:${file}`]),
    ],
    { GW: GATEWAY_SECRET },
  );
  t.equal(run.stderr, '', 'no usage error: the diagnosis is gone');
  t.equal(run.code, 1, 'the checks ran, and the broken auth fails');
  t.notMatch(run.stderr + run.stdout, /Forbidden by gateway|not the interface's Error body/);
  t.equal(seen.withoutKey, 0, 'every request carried the gateway field');
  t.ok(seen.withKey > 5, `the checks ran through the gateway (${seen.withKey} requests)`);

  const reports: Record<string, string> = {
    human: run.stdout,
    ...Object.fromEntries(Object.entries(files).map(([reporter, file]) => [reporter, readFileSync(file, 'utf8')])),
  };
  for (const [reporter, text] of Object.entries(reports)) {
    t.notOk(text.includes(GATEWAY_SECRET), `the ${reporter} report never holds the gateway key`);
    t.notOk(text.includes(KEY), `the ${reporter} report never holds the API key`);
    if (reporter !== 'json') t.match(text, /X-Gateway-Key \(--header\)/, `the ${reporter} report says which field was added to every request`);
  }
  const connection = JSON.parse(reports['json'] ?? '{}').connection;
  t.same(connection.headers, ['X-Gateway-Key'], 'the JSON report names the added field');
  t.same(connection.rerunOptions, ['--header', `'X-Gateway-Key: $\{GW}'`], 'and the option that adds it again, its value still from the environment');
  t.ok(run.stdout.includes(`-H 'x-gateway-key: '"$GW"`), 'the replay of a failure sends the field, its value read from $GW');
  const failures = (
    JSON.parse(reports['json'] ?? '{}') as {
      failures: Array<{ request?: { headers: Record<string, unknown> }; response?: { headers: Record<string, unknown> } }>;
    }
  ).failures;
  t.ok(failures.length > 0, 'the JSON report has failures');
  t.ok(
    failures.every((f) => f.request?.headers['x-gateway-key'] === '$GW'),
    'each failing request in the JSON report shows the field as $GW',
  );
  t.ok(
    failures.some((f) => f.response?.headers['x-gateway-echo'] === '$GW'),
    'and the value where an answer echoes it, too',
  );
});

t.test('a literal --header value is hidden as $PETSTORE_HEADER_<NAME>', async (t) => {
  const { base, seen } = await gateway(t);
  const run = await runCli(['conform', '--base-url', base, '--api-key', KEY, ...QUICK, '--header', `X-Gateway-Key: ${GATEWAY_SECRET}`]);
  t.equal(run.stderr, '', 'no usage error');
  t.equal(run.code, 1);
  t.equal(seen.withoutKey, 0, 'every request carried the field');
  t.notOk(run.stdout.includes(GATEWAY_SECRET), 'the report never holds the value');
  t.ok(run.stdout.includes(`-H 'x-gateway-key: '"$PETSTORE_HEADER_X_GATEWAY_KEY"`), 'the replay reads it from $PETSTORE_HEADER_X_GATEWAY_KEY');
});

// Known gap (reported, not fixed here): the rerun line of a failure (reporters/replay.ts
// rerunCommand) has only --base-url, --api-key, --checks and --seed, so against a gateway
// that needs the field it ends in the exit-2 diagnosis instead of replaying the failure.
t.test('the rerun line of a run with --header passes the field again', async (t) => {
  const { base } = await gateway(t);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the option's own syntax, read from the environment by the suite.
  const run = await runCli(['conform', '--base-url', base, '--api-key', KEY, ...QUICK, '--header', 'X-Gateway-Key: ${GW}'], { GW: GATEWAY_SECRET });
  const reruns = run.stdout.split('\n').filter((line) => line.trim().startsWith('rerun:'));
  t.ok(reruns.length > 0, 'failures have rerun lines');
  for (const line of reruns) t.match(line, /--header 'X-Gateway-Key: \$\{GW\}'|--header "X-Gateway-Key: \$GW"/, line.trim());
});

// Reported, not fixed here: in the working tree's preflight (runner.ts, `foreign =
// response.json === undefined`) any JSON 401/403 counts as the interface's own refusal,
// so the JSON refusals of common gateways (AWS API Gateway's 403 {"message":"Forbidden"},
// Kong's 401 {"message":"No API key found in request"}) are told to check --api-key.
t.test("a gateway's JSON refusal that is not the interface's Error body {code, message, status} still suggests --header", async (t) => {
  const { port } = await listen(t, (req, res) => {
    req.resume();
    res.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': 'ForbiddenException' }).end('{"message":"Forbidden"}');
  });
  const run = await runCli(['conform', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY, ...QUICK]);
  t.equal(run.code, 2);
  t.ok(run.stderr.includes('403 (application/json): "{\\"message\\":\\"Forbidden\\"}"'), `the answer is shown: ${run.stderr}`);
  t.ok(run.stderr.includes("--header 'Name: value'"), 'and --header suggested');
  t.notMatch(run.stderr, /the target refuses the API key/, 'it is not the interface refusing the key');
});

// Reported, not fixed here: the ProxyAgent of conformance/transport.ts gets the agent's
// headersTimeout and connectTimeout, but undici builds its client to the proxy (CONNECT
// for https, the forward client for http) without them, so a proxy that accepts the
// connection and never answers holds every request for undici's default 300 s, and the
// run then says "no answer within 1000 ms".
t.test('--timeout bounds a request through a proxy that never answers', async (t) => {
  for (const [scheme, variable] of [
    ['https', 'https_proxy'],
    ['http', 'http_proxy'],
  ] as const) {
    const sockets = new Set<Socket>();
    const silent = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    // Stops accepting and drops what it holds, so a run still waiting ends (connection refused).
    const shutDown = () => {
      for (const socket of sockets) socket.destroy();
      return silent.listening ? new Promise<void>((resolve) => silent.close(() => resolve())) : Promise.resolve();
    };
    t.teardown(shutDown);
    const started = performance.now();
    const running = runCli(['conform', '--base-url', `${scheme}://staging.example.test/v1`, '--api-key', KEY, ...QUICK, '--timeout', '1000'], {
      [variable]: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
    });
    const ended = await Promise.race([running.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 6000))]);
    t.ok(ended, `${scheme}: the run ends within a few seconds of --timeout 1000 (${Math.round(performance.now() - started)} ms)`);
    await shutDown();
    const run = await running;
    t.equal(run.code, 2, `${scheme}: exit 2`);
  }
});

// Reported, not fixed here: the preflight's "cannot reach" line (runner.ts) does not say
// the run went through a proxy, so a proxy that refuses connections reads as the target
// refusing ("is the port right?" of --base-url).
t.test('a socks proxy from the environment is a usage error, before any request', async (t) => {
  const run = await runCli(['conform', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', KEY], { http_proxy: 'socks5://alice:proxy-pw-31@127.0.0.1:1080' });
  t.equal(run.code, 2, run.stderr);
  t.match(run.stderr, /the proxy socks5:\/\/127\.0\.0\.1:1080 is not an http: or https: proxy \(from the environment\)/);
  t.notOk(run.stderr.includes('proxy-pw-31'), 'the proxy password is not shown');
});

t.test('a proxy that refuses the connection is named in the exit-2 line', async (t) => {
  const closed = createNetServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const run = await runCli(['conform', '--base-url', 'http://staging.example.test/v1', '--api-key', KEY, ...QUICK, '--timeout', '1000'], {
    http_proxy: `http://alice:proxy-pw-31@127.0.0.1:${port}`,
  });
  t.equal(run.code, 2);
  t.ok(run.stderr.includes(`http://127.0.0.1:${port}`), `the proxy is named: ${run.stderr}`);
  t.notOk(run.stderr.includes('proxy-pw-31'), 'without its password');
});

// Reported, not fixed here: the exit-2 line quotes the first line of the gateway's body
// as it came (runner.ts, describeAnswer), unredacted; a gateway that echoes what it was
// sent puts the --header value and the API key on stderr, into the CI log.
t.test('the exit-2 line never shows a secret the gateway echoes in its body', async (t) => {
  const { port } = await listen(t, (req, res) => {
    req.resume();
    res.writeHead(403, { 'content-type': 'text/plain' }).end(`Invalid gateway key ${req.headers['x-gateway-key']} for ${req.headers.authorization}\n`);
  });
  const run = await runCli(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the option's own syntax, read from the environment by the suite.
    ['conform', '--base-url', `http://127.0.0.1:${port}/v1`, '--api-key', KEY, ...QUICK, '--header', 'X-Gateway-Key: ${GW}'],
    { GW: 'wrong-secret-456' },
  );
  t.equal(run.code, 2);
  t.match(run.stderr, /answered 403 \(text\/plain\)/, 'the diagnosis is given');
  t.notOk(run.stderr.includes('wrong-secret-456'), `the --header value is not shown: ${run.stderr}`);
  t.notOk(run.stderr.includes(KEY), 'nor the API key');
  t.ok(run.stderr.includes('$GW'), 'the value is written as $GW');
});
