// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in --header values is the syntax under test, read by resolveHeaders.
// What `petstore conform` needs to reach a real staging (cli/reach.ts):
// --header 'Name: value' fields, with `${VAR}` read from the environment and
// `@FILE` from a file, each value a secret of the run that reports hide; and
// the TLS files of --ca, --cert, --key and --insecure. Every bad value is a
// usage error (exit 2) that names the option, before any request is sent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { UsageError } from '../../cli/io.js';
import { readTlsFiles, resolveHeaders } from '../../cli/reach.js';

/** Asserts that `fn` throws a UsageError (exit 2) whose message matches `message`. */
function throwsUsage(t: Test, fn: () => unknown, message: RegExp | string, what?: string) {
  try {
    fn();
  } catch (error) {
    t.ok(error instanceof UsageError, `${what ?? 'it'}: a UsageError`);
    t.equal((error as UsageError).exitCode, 2, 'exit code 2');
    if (typeof message === 'string') t.equal((error as Error).message, message, what ?? 'the message');
    else t.match((error as Error).message, message, what ?? 'the message');
    return;
  }
  t.fail(`${what ?? 'it'}: expected a UsageError, nothing was thrown`);
}

const dir = mkdtempSync(join(tmpdir(), 'petstore-reach-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

t.test('resolveHeaders: a literal value is sent as given, and is a secret shown as $PETSTORE_HEADER_<NAME>', async (t) => {
  const { fields, secrets } = resolveHeaders(['X-Gateway-Key: literal-secret-42'], {});
  t.same(fields, { 'X-Gateway-Key': 'literal-secret-42' });
  t.same(secrets, [{ text: 'literal-secret-42', variable: 'PETSTORE_HEADER_X_GATEWAY_KEY' }]);
  t.same(resolveHeaders(['X-Env:   staging-eu   '], {}).fields, { 'X-Env': 'staging-eu' }, 'blanks around the value are dropped');
  t.same(resolveHeaders(['X-Trace: a:b:c'], {}).fields, { 'X-Trace': 'a:b:c' }, 'the name ends at the first colon');
  t.same(
    resolveHeaders(['x-tenant.id: acme'], {}).secrets,
    [{ text: 'acme', variable: 'PETSTORE_HEADER_X_TENANT_ID' }],
    'the name upper-cased, other characters as _',
  );
  t.same(resolveHeaders([], {}), { fields: {}, secrets: [], rerun: [] }, 'no --header: nothing');
  const several = resolveHeaders(['X-One: first-value', 'X-Two: second-value'], {});
  t.same(several.fields, { 'X-One': 'first-value', 'X-Two': 'second-value' }, 'several fields, each kept');
  t.same(
    several.secrets.map((s) => s.variable),
    ['PETSTORE_HEADER_X_ONE', 'PETSTORE_HEADER_X_TWO'],
  );
});

t.test('resolveHeaders: ${VAR} is replaced by the environment; the secret is its value, shown as $VAR', async (t) => {
  const env = { GW_KEY: 'gw-secret-123' };
  const plain = resolveHeaders(['X-Gateway-Key: ${GW_KEY}'], env);
  t.same(plain.fields, { 'X-Gateway-Key': 'gw-secret-123' });
  t.same(plain.secrets, [{ text: 'gw-secret-123', variable: 'GW_KEY' }], 'the variable name is kept for the replay');

  const bearer = resolveHeaders(['X-Upstream-Auth: Bearer ${TOKEN}'], { TOKEN: 'tok-9f8e7d6c' });
  t.same(bearer.fields, { 'X-Upstream-Auth': 'Bearer tok-9f8e7d6c' }, 'text around the variable is sent');
  t.same(bearer.secrets, [{ text: 'tok-9f8e7d6c', variable: 'TOKEN' }], "only the environment's part is a secret: 'Bearer ' is shown");

  const two = resolveHeaders(['X-Pair: ${USER_ID}:${USER_PW}'], { USER_ID: 'svc-account', USER_PW: 'pw-5566778' });
  t.same(two.fields, { 'X-Pair': 'svc-account:pw-5566778' });
  t.same(two.secrets, [
    { text: 'svc-account', variable: 'USER_ID' },
    { text: 'pw-5566778', variable: 'USER_PW' },
  ]);

  t.same(resolveHeaders(['X-Cost: $5 or ${}'], {}).fields, { 'X-Cost': '$5 or ${}' }, 'what is not ${NAME} is literal text');
});

t.test('resolveHeaders: a ${VAR} the environment does not hold is a usage error naming it', async (t) => {
  throwsUsage(t, () => resolveHeaders(['X-Gateway-Key: ${GW_KEY}'], {}), '--header X-Gateway-Key: the environment has no GW_KEY');
  throwsUsage(
    t,
    () => resolveHeaders(['X-Pair: ${A_SET}-${B_UNSET}'], { A_SET: 'present-value' }),
    /the environment has no B_UNSET$/,
    'the missing one of two',
  );
});

t.test('resolveHeaders: @FILE reads the value from a file, its last line break dropped', async (t) => {
  const lf = file('key-lf.txt', 'file-secret-77\n');
  const read = resolveHeaders([`X-Gateway-Key: @${lf}`], {});
  t.same(read.fields, { 'X-Gateway-Key': 'file-secret-77' });
  t.same(read.secrets, [{ text: 'file-secret-77', variable: 'PETSTORE_HEADER_X_GATEWAY_KEY' }]);
  const crlf = file('key-crlf.txt', 'file-secret-88\r\n');
  t.same(resolveHeaders([`X-Gateway-Key: @${crlf}`], {}).fields, { 'X-Gateway-Key': 'file-secret-88' }, 'a CRLF too');
  const bare = file('key-bare.txt', 'file-secret-99');
  t.same(resolveHeaders([`X-Gateway-Key: @${bare}`], {}).fields, { 'X-Gateway-Key': 'file-secret-99' }, 'a file without a line break');
  const twoLines = file('key-two-lines.txt', 'line-one\nline-two\n');
  throwsUsage(t, () => resolveHeaders([`X-Gateway-Key: @${twoLines}`], {}), /line break/, 'a file of two lines is not one value');
  const missing = join(dir, 'absent.txt');
  throwsUsage(t, () => resolveHeaders([`X-Gateway-Key: @${missing}`], {}), `--header X-Gateway-Key: cannot read ${missing} (ENOENT)`, 'a missing file');
});

t.test('resolveHeaders: fields the suite sets itself are refused, each with why', async (t) => {
  const refused: ReadonlyArray<readonly [string, RegExp]> = [
    ['Authorization', /--api-key.*a field of its own/],
    ['Host', /--base-url/],
    ['Content-Length', /frames the message/],
    ['Transfer-Encoding', /frames the message/],
    ['Connection', /hop-by-hop/],
    ['TE', /hop-by-hop/],
    ['Upgrade', /hop-by-hop/],
    ['Content-Type', /the checks set it per request/],
    ['Accept', /the checks set it per request/],
  ];
  for (const [name, why] of refused) {
    throwsUsage(
      t,
      () => resolveHeaders([`${name}: some-value`], {}),
      new RegExp(`^--header ${name}: the suite cannot send it as given \\(.*${why.source}`),
      name,
    );
  }
  throwsUsage(t, () => resolveHeaders(['authorization: Bearer x'], {}), /^--header authorization: the suite cannot send it as given/, 'in any letter case');
  throwsUsage(t, () => resolveHeaders(['ACCEPT: text/plain'], {}), /^--header ACCEPT: the suite cannot send it/);
  t.same(resolveHeaders(['Accept-Language: en'], {}).fields, { 'Accept-Language': 'en' }, 'a name that only starts like one is sent');
  t.same(resolveHeaders(['X-Authorization: some-value'], {}).fields, { 'X-Authorization': 'some-value' });
});

t.test("resolveHeaders: what is not 'Name: value' is a usage error that shows the expected form", async (t) => {
  for (const spec of ['X-Gateway-Key gw-secret', 'X-Gateway-Key=gw-secret', ': no-name', 'X Gateway: value', 'X-Gäteway: value', '']) {
    throwsUsage(
      t,
      () => resolveHeaders([spec], {}),
      `--header ${JSON.stringify(spec)}: expected 'Name: value' with a field name such as X-Gateway-Key`,
      JSON.stringify(spec),
    );
  }
});

t.test('resolveHeaders: a name given twice, in any letter case, is a usage error', async (t) => {
  throwsUsage(t, () => resolveHeaders(['X-Gateway-Key: one-value', 'X-Gateway-Key: two-value'], {}), '--header X-Gateway-Key: given twice');
  throwsUsage(t, () => resolveHeaders(['X-Gateway-Key: one-value', 'x-gateway-key: two-value'], {}), '--header x-gateway-key: given twice', 'another case');
});

t.test('resolveHeaders: a value holding CR, LF or NUL is refused, whatever it came from', async (t) => {
  const message = '--header X-Key: a field value cannot hold a line break or NUL';
  throwsUsage(t, () => resolveHeaders(['X-Key: abc\r\nX-Injected: yes'], {}), message, 'CRLF in the literal');
  throwsUsage(t, () => resolveHeaders(['X-Key: abc\ndef'], {}), message, 'LF');
  throwsUsage(t, () => resolveHeaders(['X-Key: abc\rdef'], {}), message, 'CR');
  throwsUsage(t, () => resolveHeaders(['X-Key: abc\0def'], {}), message, 'NUL');
  throwsUsage(t, () => resolveHeaders(['X-Key: ${SMUGGLE}'], { SMUGGLE: 'value\r\nX-Injected: yes' }), message, 'from the environment');
  const path = file('key-crlf-inside.txt', 'one\r\ntwo');
  throwsUsage(t, () => resolveHeaders([`X-Key: @${path}`], {}), message, 'from a file');
});

t.test('resolveHeaders: values shorter than 4 characters are sent and shown, not secrets', async (t) => {
  const short = resolveHeaders(['X-Region: eu1', 'X-Flag: 1', 'X-Empty:'], {});
  t.same(short.fields, { 'X-Region': 'eu1', 'X-Flag': '1', 'X-Empty': '' }, 'all sent');
  t.same(short.secrets, [], 'none hidden');
  t.same(resolveHeaders(['X-Code: abcd'], {}).secrets, [{ text: 'abcd', variable: 'PETSTORE_HEADER_X_CODE' }], '4 characters is a secret');
  const env = resolveHeaders(['X-Upstream-Auth: Token ${SHORT} ${LONG}'], { SHORT: 'ab', LONG: 'long-enough' });
  t.same(env.fields, { 'X-Upstream-Auth': 'Token ab long-enough' });
  t.same(env.secrets, [{ text: 'long-enough', variable: 'LONG' }], 'a short environment value is not a secret either');
});

const CERT = '-----BEGIN CERTIFICATE-----\nMIIBlzCCAT2gAwIBAgIUb0ltZj75lWZEpi4BfIGa08q1UYEw\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----\n';
const EC_KEY = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1a\n-----END EC PRIVATE KEY-----\n';

t.test('readTlsFiles: nothing given is no TLS options; each file is read as PEM text', async (t) => {
  t.equal(readTlsFiles({}), undefined);
  t.equal(readTlsFiles({ insecure: false }), undefined);
  const ca = file('ca.pem', CERT);
  t.same(readTlsFiles({ ca }), { ca: CERT });
  const cert = file('client.pem', CERT);
  const key = file('client.key', KEY);
  t.same(readTlsFiles({ cert, key }), { cert: CERT, key: KEY });
  t.same(readTlsFiles({ cert, key: file('client-ec.key', EC_KEY) }), { cert: CERT, key: EC_KEY }, 'any kind of private key');
  t.same(readTlsFiles({ ca, cert, key, insecure: true }), { ca: CERT, cert: CERT, key: KEY, insecure: true });
});

t.test('readTlsFiles: --insecure alone is a TLS option of its own', async (t) => {
  t.same(readTlsFiles({ insecure: true }), { insecure: true });
});

t.test('readTlsFiles: a file that cannot be read is a usage error naming the option and the file', async (t) => {
  const missing = join(dir, 'nowhere.pem');
  throwsUsage(t, () => readTlsFiles({ ca: missing }), `--ca: cannot read ${missing} (ENOENT)`);
  throwsUsage(t, () => readTlsFiles({ cert: missing, key: file('k1.key', KEY) }), `--cert: cannot read ${missing} (ENOENT)`);
  throwsUsage(t, () => readTlsFiles({ cert: file('c1.pem', CERT), key: missing }), `--key: cannot read ${missing} (ENOENT)`);
  throwsUsage(t, () => readTlsFiles({ ca: dir }), `--ca: cannot read ${dir} (EISDIR)`, 'a directory');
});

t.test('readTlsFiles: a file that is not PEM of the right kind is a usage error', async (t) => {
  const der = file('ca.der', '0\x82\x01\x970\x82\x01=');
  throwsUsage(t, () => readTlsFiles({ ca: der }), `--ca ${der}: not a PEM certificate (-----BEGIN CERTIFICATE-----)`);
  throwsUsage(t, () => readTlsFiles({ ca: file('ca-is-key.pem', KEY) }), /^--ca .*: not a PEM certificate/, 'a key given as the CA');
  const notCert = file('not-cert.pem', 'hello\n');
  throwsUsage(t, () => readTlsFiles({ cert: notCert, key: file('k2.key', KEY) }), `--cert ${notCert}: not a PEM certificate`);
  const notKey = file('not-key.pem', CERT);
  throwsUsage(t, () => readTlsFiles({ cert: file('c2.pem', CERT), key: notKey }), `--key ${notKey}: not a PEM private key`, 'a certificate given as the key');
});

t.test('readTlsFiles: --cert needs --key and --key needs --cert, unless the certificate file holds its key', async (t) => {
  throwsUsage(t, () => readTlsFiles({ cert: file('c3.pem', CERT) }), '--cert needs --key: the private key of the client certificate');
  throwsUsage(t, () => readTlsFiles({ key: file('k3.key', KEY) }), '--key needs --cert: the client certificate it belongs to');
  throwsUsage(t, () => readTlsFiles({ key: file('k4.key', KEY), insecure: true }), /^--key needs --cert/, 'with --insecure too');
  const bundle = file('bundle.pem', CERT + KEY);
  t.same(readTlsFiles({ cert: bundle }), { cert: CERT + KEY, key: CERT + KEY }, 'a bundle of certificate and key serves as both');
});

// Known bug (reported, not fixed here): undici refuses these fields on every request,
// so the run ends in "cannot reach <base URL>: UND_ERR_INVALID_ARG: invalid keep-alive
// header" (or "UND_ERR_NOT_SUPPORTED: expect header not supported") instead of a usage
// error that names --header.
t.test('resolveHeaders: Keep-Alive (hop-by-hop) and Expect are refused like the other fields the suite cannot send', async (t) => {
  throwsUsage(t, () => resolveHeaders(['Keep-Alive: timeout=5'], {}), /^--header Keep-Alive: the suite cannot send it as given/);
  throwsUsage(t, () => resolveHeaders(['Expect: 100-continue'], {}), /^--header Expect: the suite cannot send it as given/);
});

t.test('resolveHeaders: a rerun line repeats each --header without its secret', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-reach-rerun-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'key'), 'from-a-file-123\n');
  const { rerun } = resolveHeaders(
    ['X-Literal: literal-secret-42', 'X-Env: Bearer ${GATEWAY_TOKEN}', `X-File: @${join(dir, 'key')}`, 'X-Odd: a${1X}b-secret'],
    { GATEWAY_TOKEN: 'token-from-env-99' },
  );
  t.same(rerun, [
    'X-Literal: ${PETSTORE_HEADER_X_LITERAL}',
    'X-Env: Bearer ${GATEWAY_TOKEN}',
    `X-File: @${join(dir, 'key')}`,
    // Not a variable reference (a name cannot start with a digit): the whole value is a literal secret.
    'X-Odd: ${PETSTORE_HEADER_X_ODD}',
  ]);
  for (const secret of ['literal-secret-42', 'token-from-env-99', 'from-a-file-123', 'b-secret'])
    t.notOk(rerun.join(' ').includes(secret), `${secret} is not shown`);
});
