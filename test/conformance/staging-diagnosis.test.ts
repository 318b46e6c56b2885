// What stands between the suite and a real staging, diagnosed before any check
// runs (conformance/runner.ts, preflight): a base URL that redirects is a usage
// error naming the --base-url to give instead, and a refusal that is not the
// interface's own Error body (a gateway, an access proxy) is a usage error
// that shows the answer and suggests --header. A --header value is sent on
// every request and never shown in a report: it is written as $VARIABLE.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startServer } from '../../src/index.js';
import { runCli } from './run-conform.js';

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
  t.same(JSON.parse(reports['json'] ?? '{}').connection, { headers: ['X-Gateway-Key'] }, 'the JSON report names the added field');
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
t.test('the rerun line of a run with --header passes the field again', { todo: 'bug: rerunCommand leaves out --header' }, async (t) => {
  const { base } = await gateway(t);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the option's own syntax, read from the environment by the suite.
  const run = await runCli(['conform', '--base-url', base, '--api-key', KEY, ...QUICK, '--header', 'X-Gateway-Key: ${GW}'], { GW: GATEWAY_SECRET });
  const reruns = run.stdout.split('\n').filter((line) => line.trim().startsWith('rerun:'));
  t.ok(reruns.length > 0, 'failures have rerun lines');
  for (const line of reruns) t.match(line, /--header 'X-Gateway-Key: \$\{GW\}'|--header "X-Gateway-Key: \$GW"/, line.trim());
});
