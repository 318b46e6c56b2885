// The suite against stagings built the way companies run them (issue 25),
// with real parts on loopback: nginx terminating TLS with an internal CA and
// asking for a gateway field of its own, nginx asking for a client
// certificate, an http:// address that redirects to https://, tinyproxy as
// the only way out, and two reference servers sharing one redis-server behind
// nginx round-robin. Each setup is a recipe in docs/staging.md.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { ConformanceResult } from '../../conformance/index.js';
import { createServer } from '../../src/server/index.js';
import { openRedisStore, type RedisStore } from '../../src/store/index.js';
import { describeFailures, runCli } from '../helpers/run-conform.js';
import { startRedis } from '../helpers/redis.js';
import { makePki, type Pki, startNginx, startTinyproxy } from '../helpers/staging.js';

// Several whole runs of the suite, each through real parts: more than tap's default per file.
t.setTimeout(600_000);

const KEY = 'staging-test-key-0001';
const GATEWAY_SECRET = 'gw-secret-7f3a9c2e51';
/** --header with its value read from the environment: `${GW_KEY}` is the option's syntax, not a template. */
const GATEWAY_FIELD = ['X-Gateway-Key: $', '{GW_KEY}'].join('');

async function reference(t: Test, store?: RedisStore): Promise<string> {
  const server = store ? createServer({ apiKeys: [KEY], store }) : createServer({ apiKeys: [KEY] });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  return new URL(url).origin;
}

/** `petstore conform` with the JSON report on stdout; env replaces the process's (no proxy unless given). */
async function conform(url: string, extra: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const out = await runCli(['conform', '--base-url', url, '--api-key', KEY, '--seed', '1', '--reporter', 'json', '--quiet', ...extra], env);
  let result: ConformanceResult | undefined;
  try {
    result = JSON.parse(out.stdout) as ConformanceResult;
  } catch {
    result = undefined;
  }
  return { ...out, result };
}

const pki: Pki = makePki(mkdtempSync(join(tmpdir(), 'petstore-pki-')));

/** nginx terminating TLS for `upstream`, refusing with its own 403 text/plain page a request without the gateway field. */
function gatewayServer(upstream: string, extra = '') {
  return (port: number) => `
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${pki.serverCert};
    ssl_certificate_key ${pki.serverKey};
    ${extra}
    default_type text/plain;
    location / {
      if ($http_x_gateway_key != "${GATEWAY_SECRET}") { return 403 "forbidden by the gateway\\n"; }
      proxy_pass ${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }`;
}

t.test('behind a TLS gateway with an internal CA and a field of its own', async (t) => {
  const upstream = await reference(t);
  const gateway = await startNginx(t, gatewayServer(upstream));
  const base = `https://127.0.0.1:${gateway.port}/v1`;
  const env = { GW_KEY: GATEWAY_SECRET };

  t.test('with --ca and --header the whole suite passes, and no report shows the gateway secret', async (t) => {
    const run = await conform(base, ['--ca', pki.ca, '--header', GATEWAY_FIELD], env);
    t.equal(run.code, 0, `exit 0; ${run.result ? describeFailures(run.result) : ''} ${run.stderr}`);
    t.match(
      run.result?.connection,
      { extraCa: true, headers: ['X-Gateway-Key'], rerunOptions: ['--header', `'${GATEWAY_FIELD}'`, '--ca', pki.ca] },
      'the report says how the target was reached',
    );
    t.notMatch(run.stdout, GATEWAY_SECRET, 'the JSON report never holds the gateway secret');
    const human = await runCli(
      ['conform', '--base-url', base, '--api-key', KEY, '--checks', 'auth', '--runs', '5', '--ca', pki.ca, '--header', GATEWAY_FIELD],
      env,
    );
    t.equal(human.code, 0, human.stderr);
    t.match(
      human.stdout,
      /reached an extra CA trusted \(--ca\); extra fields on every request: X-Gateway-Key/,
      'the human report says so under its first line',
    );
  });

  t.test("without the field, the gateway's 403 page is named as such in one line, exit 2", async (t) => {
    const run = await conform(base, ['--ca', pki.ca]);
    t.equal(run.code, 2);
    t.match(run.stderr, /answered 403 \(text\/plain\): "forbidden by the gateway", which is not the interface's JSON Error body/);
    t.match(run.stderr, /--header 'Name: value'/);
    t.notMatch(run.stderr, /check --api-key/, 'a 403 page is not the key refused');
    t.equal(run.stderr.trim().split('\n').length, 1, 'one line');
  });

  t.test('without --ca the certificate is refused with what to do', async (t) => {
    const run = await conform(base, ['--header', GATEWAY_FIELD], env);
    t.equal(run.code, 2);
    t.match(run.stderr, /TLS error: .*(CERT|ISSUER|SELF_SIGNED|VERIFY).*--ca FILE \(or NODE_EXTRA_CA_CERTS=FILE\).*--insecure/);
  });

  t.test('NODE_EXTRA_CA_CERTS, read by Node.js at start, works as --ca does', async (t) => {
    const child = spawn(
      process.execPath,
      ['bin/petstore.js', 'conform', '--base-url', base, '--checks', 'auth', '--runs', '5', '--quiet', '--header', GATEWAY_FIELD],
      { env: { PATH: process.env['PATH'], NODE_EXTRA_CA_CERTS: pki.ca, PETSTORE_API_KEY: KEY, GW_KEY: GATEWAY_SECRET }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    t.equal(code, 0, output);
  });

  t.test('--insecure reaches it without the CA, and every report format says certificates were not verified', async (t) => {
    const args = ['--checks', 'auth', '--runs', '5', '--insecure', '--header', GATEWAY_FIELD];
    const dir = mkdtempSync(join(tmpdir(), 'petstore-insecure-'));
    const files = { tap: join(dir, 'r.tap'), junit: join(dir, 'r.xml'), html: join(dir, 'r.html'), json: join(dir, 'r.json'), human: join(dir, 'r.txt') };
    const reporters = Object.entries(files).flatMap(([name, file]) => ['--reporter', `${name}:${file}`]);
    const run = await runCli(['conform', '--base-url', base, '--api-key', KEY, '--quiet', ...args, ...reporters], env);
    t.equal(run.code, 0, run.stderr);
    for (const [name, file] of Object.entries(files)) {
      const text = readFileSync(file, 'utf8');
      t.match(text, name === 'json' ? /"insecure": true/ : /NOT verified \(--insecure\)/, `the ${name} report says so`);
      t.notMatch(text, GATEWAY_SECRET, `the ${name} report does not hold the gateway secret`);
    }
  });
});

t.test('behind nginx asking for a client certificate (mTLS)', async (t) => {
  const upstream = await reference(t);
  const gateway = await startNginx(
    t,
    (port) => `
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${pki.serverCert};
    ssl_certificate_key ${pki.serverKey};
    ssl_client_certificate ${pki.ca};
    ssl_verify_client on;
    location / { proxy_pass ${upstream}; proxy_http_version 1.1; proxy_set_header Connection ""; }`,
  );
  const base = `https://127.0.0.1:${gateway.port}/v1`;
  const ok = await conform(base, ['--ca', pki.ca, '--cert', pki.clientCert, '--key', pki.clientKey, '--runs', '25']);
  t.equal(ok.code, 0, `with --cert and --key the suite passes; ${ok.result ? describeFailures(ok.result) : ''} ${ok.stderr}`);
  t.match(ok.result?.connection, { extraCa: true, clientCertificate: true, rerunOptions: ['--ca', pki.ca, '--cert', pki.clientCert, '--key', pki.clientKey] });
  const refused = await conform(base, ['--ca', pki.ca]);
  t.equal(refused.code, 2, 'without a client certificate: exit 2');
  t.match(refused.stderr, /answered 400 \(text\/html\): .*client certificate: --cert and --key/);
});

t.test('an http:// base URL that redirects to https:// is named in one line with the base URL to use', async (t) => {
  const upstream = await reference(t);
  const gateway = await startNginx(t, gatewayServer(upstream));
  const redirect = await startNginx(t, (port) => `listen 127.0.0.1:${port}; return 301 https://127.0.0.1:${gateway.port}$request_uri;`);
  const run = await conform(`http://127.0.0.1:${redirect.port}/v1`, []);
  t.equal(run.code, 2);
  t.match(
    run.stderr,
    `answered 301 with Location: https://127.0.0.1:${gateway.port}/v1/pets; the suite follows no redirect (the key would travel with it), so give --base-url https://127.0.0.1:${gateway.port}/v1`,
  );
  t.equal(run.stderr.trim().split('\n').length, 1, 'one line');
});

t.test('through a forward proxy (tinyproxy) named by the environment', async (t) => {
  const proxy = await startTinyproxy(t);
  const origin = await reference(t);

  t.test('http_proxy: the suite passes through it, says so, and leaves out the raw-message probes', async (t) => {
    const run = await conform(`${origin}/v1`, ['--runs', '25'], { http_proxy: proxy.url });
    t.equal(run.code, 0, `exit 0; ${run.result ? describeFailures(run.result) : ''} ${run.stderr}`);
    t.equal(run.result?.connection?.proxy, proxy.url);
    const raw = run.result?.checks.filter((c) => /^http\.\w+\.message$/.test(c.id)) ?? [];
    t.ok(raw.length > 0 && raw.every((c) => c.status === 'not run' && /proxy/.test(c.note ?? '')), 'raw messages are not run through a proxy');
    t.match(proxy.log(), `127.0.0.1:${new URL(origin).port}`, "the proxy's log shows the requests it forwarded");
  });

  t.test('NO_PROXY naming the host sends the run directly', async (t) => {
    const run = await conform(`${origin}/v1`, ['--checks', 'auth', '--runs', '5'], { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' });
    t.equal(run.code, 0, run.stderr);
    t.equal(run.result?.connection, undefined, 'no proxy in the report');
  });

  t.test('https_proxy: a CONNECT tunnel to a TLS gateway, with --ca and --header inside it', async (t) => {
    const gateway = await startNginx(t, gatewayServer(origin));
    const run = await conform(`https://127.0.0.1:${gateway.port}/v1`, ['--checks', 'auth,state', '--runs', '10', '--ca', pki.ca, '--header', GATEWAY_FIELD], {
      https_proxy: proxy.url,
      GW_KEY: GATEWAY_SECRET,
    });
    t.equal(run.code, 0, `exit 0; ${run.result ? describeFailures(run.result) : ''} ${run.stderr}`);
    t.equal(run.result?.connection?.proxy, proxy.url);
    t.match(proxy.log(), /CONNECT/, 'the proxy opened a tunnel');
  });

  t.test('a proxy that does not answer is a clear exit 2', async (t) => {
    const run = await conform(`${origin}/v1`, [], { http_proxy: 'http://127.0.0.1:1' });
    t.equal(run.code, 2);
    t.match(run.stderr, /cannot reach/);
  });
});

t.test('two reference servers sharing one redis-server behind nginx round-robin pass like one server', async (t) => {
  const redis = await startRedis(t);
  const origins = await Promise.all([0, 1].map(async () => reference(t, await openRedisStore({ url: redis.url, maxPets: 1_000_000 }))));
  const gateway = await startNginx(
    t,
    (port) => `listen 127.0.0.1:${port}; location / { proxy_pass http://pets; proxy_http_version 1.1; proxy_set_header Connection ""; }`,
    `upstream pets { ${origins.map((o) => `server ${new URL(o).host};`).join(' ')} keepalive 16; }`,
  );
  const run = await conform(`http://127.0.0.1:${gateway.port}/v1`, []);
  t.equal(run.code, 0, `exit 0; ${run.result ? describeFailures(run.result) : ''} ${run.stderr}`);
  t.ok((run.result?.counts.passed ?? 0) > 30, `${run.result?.counts.passed} checks passed`);
});
