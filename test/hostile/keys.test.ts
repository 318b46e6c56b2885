// API keys (decision D1, README "petstore serve"): taken from --api-key,
// PETSTORE_API_KEYS and --api-keys-file together; every key compared over its whole length;
// never printed, logged or echoed, whatever a hostile client sends.
// (test/src/server/log.test.ts covers the request log under ordinary traffic.)
import { join } from 'node:path';
import fc from 'fast-check';
import t from 'tap';
import { request as undiciRequest } from 'undici';
import { createAuthenticator, sameBytes } from '../../src/server/authenticator.js';
import { runCli, startServe } from '../helpers/cli.js';
import { startTestServer } from '../helpers/server.js';
import { request, send } from './wire.js';

const FLAG_KEY = 'flag-key-4c1f9e2a7d';
const ENV_KEY = 'env-key-b83d0c5e91';
const FILE_KEY = 'file-key-07a6e4f2c3';
const KEYS = [FLAG_KEY, ENV_KEY, FILE_KEY];

/** Requests a hostile or careless client might send, each carrying a key or something close to it. */
function hostileTraffic(key: string): string[] {
  const auth = `Authorization: Bearer ${key}`;
  return [
    request('GET', '/v1/pets', [auth]),
    request('GET', '/v1/pets', [`Authorization: Bearer ${key}x`]),
    request('GET', '/v1/pets', [`Authorization: Bearer ${key.slice(0, -1)}`]),
    request('GET', '/v1/pets', [`Authorization: Basic ${Buffer.from(`user:${key}`).toString('base64')}`]),
    request('GET', '/v1/pets', [`Authorization: ${key}`]),
    request('GET', '/v1/pets', [`X-Api-Key: ${key}`, `Cookie: key=${key}`]),
    request('POST', '/v1/pets', [auth, 'Content-Type: application/json'], `{"name":"${key}","categoryId":"${key}"}`),
    request('GET', '/v1/pets', [auth, `X-Pad: ${'a'.repeat(20_000)}`]), // 431, refused by the parser
    `GET /v1/pets HTTP/1.1\r\n${auth}\r\nBroken header line\r\n\r\n`, // 400 from the parser
    request('CONNECT', '127.0.0.1:443', [auth]),
    request('GET', '/__control/state', [`Authorization: Bearer ${key}-nope`]),
    request('DELETE', '/v1/pets', [auth]),
  ];
}

t.test('keys from all three sources are accepted together; none is printed on stdout or stderr, whatever arrives', async (t) => {
  const dir = t.testdir({ keys: `# one per line\n${FILE_KEY}\n` });
  const cli = await startServe(t, ['--api-key', FLAG_KEY, '--api-keys-file', join(dir, 'keys')], { PETSTORE_API_KEYS: ENV_KEY });
  t.match(cli.stdout(), /3 configured keys/, 'the banner counts the keys');
  const port = Number(new URL(cli.url).port);
  for (const key of KEYS) {
    const res = await undiciRequest(`${cli.url}/pets`, { headers: { authorization: `Bearer ${key}` } });
    await res.body.text();
    t.equal(res.statusCode, 200, `${key.split('-')[0]} key accepted`);
  }
  const answers: string[] = [];
  for (const key of KEYS) {
    for (const bytes of hostileTraffic(key)) answers.push((await send(port, bytes, { timeoutMs: 3_000 })).data.toString('latin1'));
  }
  cli.child.kill('SIGTERM');
  t.equal((await cli.exited).code, 0);
  const output = cli.stdout() + cli.stderr();
  t.match(output, /401/, 'the refused requests were logged');
  for (const key of KEYS) {
    t.notOk(output.includes(key), `${key.split('-')[0]} key: not on stdout or stderr`);
    t.notOk(output.includes(key.slice(0, -1)), `${key.split('-')[0]} key: not even most of it`);
  }
  // The key a client put in the body as a name is its own data, echoed as such; nothing else may hold a key.
  const echoes = answers.map((a) => a.replace(/"name":"[^"]*"/g, '')).filter((a) => KEYS.some((key) => a.includes(key.slice(0, -1))));
  t.strictSame(echoes, [], 'no answer echoes a key, a near key, or a header holding one');
});

t.test('usage errors about keys do not print the key', async (t) => {
  const dir = t.testdir({ keys: `${FILE_KEY} and more\n` });
  const file = await runCli(t, ['serve', '--port', '0', '--api-keys-file', join(dir, 'keys')]);
  t.equal(file.code, 2, 'a key with white space in the file: exit 2');
  t.notOk(file.stderr.includes(FILE_KEY), 'the message does not quote it');
  const flag = await runCli(t, ['serve', '--port', '0', '--api-key', `${FLAG_KEY} x`]);
  t.equal(flag.code, 2);
  t.notOk((flag.stdout + flag.stderr).includes(FLAG_KEY), 'nor one given with --api-key');
});

t.test('no response of the server echoes the presented credential', async (t) => {
  const { url, key } = await startTestServer(t, { apiKeys: [FLAG_KEY] });
  const port = Number(new URL(url).port);
  for (const bytes of hostileTraffic(key)) {
    const answer = (await send(port, bytes, { timeoutMs: 3_000 })).data.toString('latin1').replace(/"name":"[^"]*"/g, '');
    t.notOk(answer.includes(FLAG_KEY.slice(0, -1)), `${JSON.stringify(bytes.slice(0, 40))}: the answer holds no key`);
  }
});

t.test("sameBytes says whether the text holds exactly the key's bytes, whatever the lengths and contents", (t) => {
  const latin1 = fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 40 });
  // Near misses of a key are the interesting texts: the key itself, a prefix, an extension, one byte changed.
  const case_ = latin1.chain((key) =>
    fc.tuple(
      fc.constant(key),
      fc.oneof(
        fc.constant(key),
        fc.nat(key.length).map((n) => key.slice(0, n)),
        latin1.map((more) => key + more),
        fc
          .tuple(fc.nat(Math.max(0, key.length - 1)), fc.integer({ min: 0, max: 0xff }))
          .map(([i, c]) => key.slice(0, i) + String.fromCharCode(c) + key.slice(i + 1)),
        latin1,
      ),
      latin1, // what comes before `start` (the scheme, in a header)
    ),
  );
  const result = fc.check(
    fc.property(case_, ([key, presented, before]) => sameBytes(before + presented, before.length, Buffer.from(key, 'latin1')) === (presented === key)),
    { numRuns: 2000, seed: 20261122 },
  );
  t.equal(result.failed, false, result.failed ? `counterexample: ${JSON.stringify(result.counterexample)}` : 'agrees with string equality on 2000 cases');
  t.end();
});

t.test('each configured key is accepted, and a near miss of any of them is not', async (t) => {
  const keys = ['a', 'a-much-longer-key-than-the-first', FLAG_KEY, 'ké'];
  const authenticate = createAuthenticator(keys);
  // Node.js hands over header bytes one character per byte: a UTF-8 key arrives as its bytes.
  const onTheWire = (key: string) => Buffer.from(key, 'utf8').toString('latin1');
  for (const key of keys) {
    t.equal(authenticate(`Bearer ${onTheWire(key)}`), 'ok', `${key.slice(0, 12)}: accepted`);
    for (const near of [`${key}x`, key.slice(0, -1), `x${key.slice(1)}`, key.toUpperCase()]) {
      if (keys.includes(near)) continue;
      t.equal(authenticate(`Bearer ${onTheWire(near)}`), near === '' ? 'missing' : 'invalid', `${JSON.stringify(near.slice(0, 12))}: refused`);
    }
  }
  t.equal(authenticate(`Bearer ${'x'.repeat(10_000)}`), 'invalid', 'a very long guess is refused like any other');
});
