// One command line that replays a failing request exactly, the API key read
// from $PETSTORE_API_KEY so that no report contains it nor any form of it that
// gives it away (key-forms.ts); and the copy of a result every report is
// rendered from, with the key removed from all but the suite's own words.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import type { WireRequest } from '../../../conformance/client.js';
import { basicCredentials, swapCase } from '../../../conformance/key-forms.js';
import { curlCommand, KEY_VARIABLE, redact, redactDeep, rerunCommand } from '../../../conformance/reporters/replay.js';

const KEY = 'secret-key-123';
const BASE = 'http://127.0.0.1:8080/v1';

/** The arguments `line` passes to curl when sh runs it with $PETSTORE_API_KEY set (curl replaced by a function that prints them). */
async function curlArguments(line: string, env: Record<string, string> = {}): Promise<string[]> {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${line}`;
  const { stdout } = await promisify(execFile)('sh', ['-c', script], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', [KEY_VARIABLE]: KEY, ...env } });
  return stdout.split('\0').slice(0, -1);
}

const request = (fields: Partial<WireRequest>): WireRequest => ({ method: 'GET', path: '/pets', operationId: 'listPets', headers: {}, ...fields });

t.test('the replay sends the method, the URL below the base URL, each header line and the body, as they were sent', async (t) => {
  const sent = request({
    method: 'POST',
    path: "/pets?note=it's",
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: ['application/json', 'text/plain'] },
    body: `{"name":"O'Brien $HOME \`id\`","categoryId":1}`,
  });
  const line = curlCommand(`${BASE}/`, sent, KEY);
  t.notOk(line.includes(KEY), 'the line holds no key');
  t.strictSame(await curlArguments(line), [
    '-sS',
    '-i',
    '-X',
    'POST',
    `${BASE}/pets?note=it's`,
    '-H',
    `authorization: Bearer ${KEY}`,
    '-H',
    'content-type: application/json',
    '-H',
    'accept: application/json',
    '-H',
    'accept: text/plain',
    '--data-binary',
    `{"name":"O'Brien $HOME \`id\`","categoryId":1}`,
  ]);
});

t.test('the key is written as $PETSTORE_API_KEY, and each near miss of it as the expression that rebuilds it', async (t) => {
  t.equal(curlCommand(BASE, request({ headers: { authorization: `Bearer ${KEY}` } }), KEY).split(' -H ')[1], `'authorization: Bearer '"$${KEY_VARIABLE}"`);
  for (const near of [`Basic ${basicCredentials(KEY)}`, `Bearer ${swapCase(KEY)}`, `Bearer ${KEY.slice(0, -1)}`]) {
    const line = curlCommand(BASE, request({ headers: { authorization: near } }), KEY);
    t.notOk(line.includes(near.split(' ')[1]!), `${near}: not in the line`);
    t.strictSame((await curlArguments(line)).slice(-2), ['-H', `authorization: ${near}`], `${near}: rebuilt by the shell`);
  }
});

t.test('another secret (a --header value) is read from its own variable', async (t) => {
  const secrets = { apiKey: KEY, others: [{ text: 'gateway-token-9', variable: 'GATEWAY_TOKEN' }] };
  const line = curlCommand(BASE, request({ headers: { 'x-gateway': 'gateway-token-9' } }), secrets);
  t.notOk(line.includes('gateway-token-9'));
  t.match(line, /"\$GATEWAY_TOKEN"/);
  t.strictSame((await curlArguments(line, { GATEWAY_TOKEN: 'gateway-token-9' })).slice(-2), ['-H', 'x-gateway: gateway-token-9']);
});

t.test('a path from the origin replaces the base path; dot segments and doubled slashes are sent as they are (--path-as-is)', async (t) => {
  t.strictSame((await curlArguments(curlCommand(BASE, request({ path: '/v2/pets', fromOrigin: true }), KEY))).slice(0, 5), [
    '-sS',
    '-i',
    '-X',
    'GET',
    'http://127.0.0.1:8080/v2/pets',
  ]);
  t.notMatch(curlCommand(BASE, request({ path: '/pets' }), KEY), /--path-as-is/, 'a plain path needs nothing');
  for (const path of ['/pets/./1', '/pets/../pets', '//pets']) {
    const args = await curlArguments(curlCommand(BASE, request({ path }), KEY));
    t.equal(args[4], `${BASE}${path}`, `${path}: the URL as sent`);
    t.equal(args.at(-1), '--path-as-is', `${path}: curl told not to remove it (RFC 3986 §5.2.4)`);
  }
});

t.test('the rerun command names the check and the seed, the key from the environment, and repeats how the target was reached', async (t) => {
  t.equal(
    rerunCommand(BASE, 'auth.listPets.refused', 42),
    `petstore conform --base-url ${BASE} --api-key "$PETSTORE_API_KEY" --checks auth.listPets.refused --seed 42`,
  );
  t.equal(
    rerunCommand(BASE, 'http.date', 7, ['--ca', 'ca.pem', '--insecure']),
    `petstore conform --base-url ${BASE} --api-key "$PETSTORE_API_KEY" --ca ca.pem --insecure --checks http.date --seed 7`,
  );
});

t.test('redact replaces the key and each form that gives it away, longest first', async (t) => {
  t.equal(redact(`expected ${KEY}, got ${KEY}x`, KEY), 'expected $PETSTORE_API_KEY, got $PETSTORE_API_KEYx');
  t.equal(redact(`Basic ${basicCredentials(KEY)}`, KEY), 'Basic base64($PETSTORE_API_KEY:)');
  t.equal(redact(`Bearer ${swapCase(KEY)}`, KEY), 'Bearer swapcase($PETSTORE_API_KEY)');
  t.equal(redact(`Bearer ${KEY.slice(0, -1)}`, KEY), `Bearer \${${KEY_VARIABLE}%?}`);
  t.equal(redact('nothing secret here', KEY), 'nothing secret here');
});

t.test("redactDeep removes the key from every string and wire name, never from the suite's own words", async (t) => {
  const key = 'pets';
  const failure = {
    checkId: 'limits.listPets.default',
    title: 'listPets returns pets',
    requirement: 'pets: at most 20',
    message: 'got pets twice',
    request: { headers: { 'x-pets': 'Bearer pets' }, path: '/pets' },
    response: { json: { pets: ['pets'] }, status: 200 },
    list: ['pets', 3, null],
  };
  const copy = redactDeep(failure, key);
  t.strictSame(copy, {
    checkId: 'limits.listPets.default',
    title: 'listPets returns pets',
    requirement: 'pets: at most 20',
    message: 'got $PETSTORE_API_KEY twice',
    request: { headers: { 'x-$PETSTORE_API_KEY': 'Bearer $PETSTORE_API_KEY' }, path: '/$PETSTORE_API_KEY' },
    response: { json: { $PETSTORE_API_KEY: ['$PETSTORE_API_KEY'] }, status: 200 },
    list: ['$PETSTORE_API_KEY', 3, null],
  });
  t.equal(failure.message, 'got pets twice', 'the original is left as it was');
});
