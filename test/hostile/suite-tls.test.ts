// The conformance suite against a target whose TLS is wrong: an https://
// base URL on a plain-HTTP server, a certificate nobody trusts, and plain
// HTTP to a TLS port. Each is reported as one clear line with exit 2 (or as
// failures with exit 1), never a crash or a stack trace, within the time
// budget, and the API key is never printed. (test/conformance/client/safety.test.ts
// covers redirects, hangs, resets, non-JSON and wrong lengths.)
import https from 'node:https';
import t, { type Test } from 'tap';
import { createServer } from '../../src/server/index.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'suite-tls-key-5e0c2b9d41';

// A throwaway self-signed certificate for the test only (CN petstore-test.invalid).
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgjWaWq/EoL4rXCFQx
MOMZm0rUxunzy7LNXhxcRSX2x6KhRANCAARJtPOEiv/Md8JA5VOMjZzTYhsuZCiQ
E2JOxXlqtaq5b3/B0+9fPnjGtDT6NXNmJq/3TnEpUZWp3L9fRZNpHf0X
-----END PRIVATE KEY-----`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBlzCCAT2gAwIBAgIUb0ltZj75lWZEpi4BfIGa08q1UYEwCgYIKoZIzj0EAwIw
IDEeMBwGA1UEAwwVcGV0c3RvcmUtdGVzdC5pbnZhbGlkMCAXDTI2MTEyMjE3NDAy
MVoYDzIxMjYxMDI5MTc0MDIxWjAgMR4wHAYDVQQDDBVwZXRzdG9yZS10ZXN0Lmlu
dmFsaWQwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAARJtPOEiv/Md8JA5VOMjZzT
YhsuZCiQE2JOxXlqtaq5b3/B0+9fPnjGtDT6NXNmJq/3TnEpUZWp3L9fRZNpHf0X
o1MwUTAdBgNVHQ4EFgQUu4WXOWN5qDnQj71XJ1q95xsIN/owHwYDVR0jBBgwFoAU
u4WXOWN5qDnQj71XJ1q95xsIN/owDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQD
AgNIADBFAiEA0CHNB7YSiU2a17mDfG/5ZWZRj2ixw0F9/284d/dyvVsCIA5/6SVQ
oEdMYa4U2w3R/644uUpLCUls1JSnWP5uA7rX
-----END CERTIFICATE-----`;

async function conform(t: Test, baseUrl: string) {
  const started = Date.now();
  const r = await runCli(t, ['conform', '--base-url', baseUrl, '--timeout', '2000', '--time-budget', '20', '--quiet'], { PETSTORE_API_KEY: KEY });
  return { ...r, took: Date.now() - started };
}

function checkClearFailure(t: Test, r: { code: number | null; stdout: string; stderr: string; took: number }, what: RegExp) {
  t.ok(r.code === 2 || r.code === 1, `exit ${r.code}: a failure, not a crash`);
  t.notMatch(r.stdout + r.stderr, /\n\s+at .+:\d+:\d+\)?\n/, 'no stack trace');
  t.notMatch(r.stdout + r.stderr, /unexpected error|TypeError|ReferenceError/, 'no unexpected error');
  t.notOk((r.stdout + r.stderr).includes(KEY), 'the key is not printed');
  t.match(r.stdout + r.stderr, what, 'it says what went wrong');
  if (r.code === 2) t.ok(r.stderr.trim().split('\n').length <= 2, `a short message on stderr: ${r.stderr.trim()}`);
  t.ok(r.took < 25_000, `within the time budget (${r.took} ms)`);
}

t.test('https:// to a plain-HTTP server: a clear TLS failure, no stack trace', async (t) => {
  const server = createServer({ apiKeys: [KEY] });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close(100));
  const r = await conform(t, url.replace(/^http:/, 'https:'));
  checkClearFailure(t, r, /TLS|SSL|certificate|https/i);
});

t.test('a TLS server with a certificate nobody trusts: a clear TLS failure, and no request reaches it', async (t) => {
  let requests = 0;
  const server = https.createServer({ key: TLS_KEY, cert: TLS_CERT }, (_req, res) => {
    requests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as { port: number }).port;
  const r = await conform(t, `https://127.0.0.1:${port}/v1`);
  checkClearFailure(t, r, /TLS|SSL|certificate/i);
  t.equal(requests, 0, 'no request (and so no key) reached a server it could not verify');
});

t.test('http:// to a TLS port: a clear failure, no stack trace', async (t) => {
  const server = https.createServer({ key: TLS_KEY, cert: TLS_CERT }, (_req, res) => res.end('[]'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as { port: number }).port;
  const r = await conform(t, `http://127.0.0.1:${port}/v1`);
  checkClearFailure(t, r, /cannot reach|closed|reset|not HTTP|fail/i);
});
