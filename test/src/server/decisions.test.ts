// What the seed leaves open, decided once for the reference server
// (src/server/decisions.ts, explained in docs/decisions.md): defaults, the
// development key, getPet's deprecation date (RFC 9745) and the limits.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { operationById } from '../../../spec/operations.js';
import {
  AUTH_REALM,
  DEFAULT_BASE_PATH,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEVELOPMENT_API_KEY,
  defaultLimits,
  GET_PET_DEPRECATED_SINCE,
} from '../../../src/server/decisions.js';

t.test('by default the server listens on the loopback interface only, port 4010, under /v1', async (t) => {
  t.equal(DEFAULT_HOST, '127.0.0.1', 'not 0.0.0.0: a development key must not be reachable from the network');
  t.equal(DEFAULT_PORT, 4010);
  t.equal(DEFAULT_BASE_PATH, '/v1');
});

t.test('the development key is fixed and is a valid Bearer token', async (t) => {
  t.equal(DEVELOPMENT_API_KEY, 'petstore-dev-key', 'the README tells it');
  t.match(DEVELOPMENT_API_KEY, /^[A-Za-z0-9\-._~+/]+=*$/, 'RFC 6750 §2.1 b64token');
  t.equal(AUTH_REALM, 'petstore');
});

t.test('getPet is deprecated since 1 January 2025, before its sunset in the spec', async (t) => {
  t.equal(GET_PET_DEPRECATED_SINCE.toISOString(), '2025-01-01T00:00:00.000Z');
  const sunset = operationById('getPet').sunset;
  t.ok(sunset, 'getPet has a sunset');
  t.ok(GET_PET_DEPRECATED_SINCE.getTime() < (sunset?.getTime() ?? 0), 'deprecated before it is removed');
  t.equal(GET_PET_DEPRECATED_SINCE.getTime() % 1000, 0, 'whole seconds, as the Deprecation header (@seconds) carries it');
});

/** The limits as docs/decisions.md states them to users: each value here must be the one that page gives. */
const DOCUMENTED: readonly [keyof typeof defaultLimits, number, string][] = [
  ['maxBodyBytes', 1_048_576, 'over 1 MiB → 413'],
  ['maxJsonDepth', 32, 'nesting over 32 levels'],
  ['maxJsonMembers', 10_000, 'over 10,000 members'],
  ['maxHeaderBytes', 16_384, 'headers over 16 KiB → 431'],
  ['maxUrlBytes', 8_192, 'a request target over 8 KiB → 414'],
  ['headersTimeoutMs', 10_000, 'headers must arrive within 10 s'],
  ['requestTimeoutMs', 30_000, 'the whole request within 30 s'],
  ['keepAliveTimeoutMs', 5_000, 'idle keep-alive connections close after 5 s'],
  ['maxConnections', 10_000, 'at most 10,000 connections'],
  ['journalSize', 100, 'the latest 100 requests by default'],
  ['journalBodyBytes', 16_384, 'a body over 16 KiB (`journalBodyBytes`) is cut'],
];

t.test('each limit docs/decisions.md states is the one the server enforces', async (t) => {
  const page = readFileSync(new URL('../../../docs/decisions.md', import.meta.url), 'utf8');
  for (const [name, value, words] of DOCUMENTED) {
    t.equal(defaultLimits[name], value, `${name}: ${words}`);
    t.ok(page.includes(words), `docs/decisions.md says "${words}"`);
  }
});

t.test('the limits the docs leave to the CLI and the code: a bulk load, the store, a shutdown', async (t) => {
  t.equal(defaultLimits.maxControlBodyBytes, 67_108_864, 'a bulk load up to 64 MiB');
  t.equal(defaultLimits.maxPets, 1_000_000, 'the default of --max-pets (docs/cli.md)');
  t.ok(readFileSync(new URL('../../../docs/cli.md', import.meta.url), 'utf8').includes('| `--max-pets <n>` | `1000000` |'), 'docs/cli.md gives that default');
  t.equal(defaultLimits.shutdownGraceMs, 5_000);
  t.ok(defaultLimits.headersTimeoutMs <= defaultLimits.requestTimeoutMs, 'Node.js requires headersTimeout <= requestTimeout');
});

t.test('the limits hang together', async (t) => {
  t.ok(defaultLimits.maxBodyBytes < defaultLimits.maxControlBodyBytes, 'a bulk load may be larger than one request of the interface');
  t.ok(defaultLimits.journalBodyBytes < defaultLimits.maxBodyBytes, 'the journal cuts bodies the server accepts');
  t.ok(defaultLimits.maxUrlBytes <= defaultLimits.maxHeaderBytes, 'a target that passes 414 can pass 431');
  for (const [name, value] of Object.entries(defaultLimits)) t.ok(Number.isSafeInteger(value) && value > 0, `${name} is a positive whole number`);
});
