// Where the server's API keys come from (cli/api-keys.ts): `--api-key`
// flags, PETSTORE_API_KEYS (comma-separated) and --api-keys-file (one per
// line, `#` comments) all add up, trimmed and without duplicates; a key with
// white space inside, or a file that cannot be read, is a usage error.
import { join } from 'node:path';
import t from 'tap';
import { resolveApiKeys } from '../../cli/api-keys.js';
import { UsageError } from '../../cli/io.js';

t.test('the keys of all three sources add up, flags first, then the environment, then the file', async (t) => {
  const dir = t.testdir({ keys: 'from-file\n' });
  t.strictSame(resolveApiKeys({ flags: ['from-flag'], env: 'from-env', file: join(dir, 'keys') }), ['from-flag', 'from-env', 'from-file']);
  t.strictSame(resolveApiKeys({ flags: ['a', 'b'] }), ['a', 'b'], 'flags alone');
  t.strictSame(resolveApiKeys({ env: 'a' }), ['a'], 'the environment alone');
  t.strictSame(resolveApiKeys({}), [], 'no source: no key');
});

t.test('PETSTORE_API_KEYS is split at commas; empty entries and surrounding white space are dropped', async (t) => {
  t.strictSame(resolveApiKeys({ env: ' k1 ,k2,, ,k3,' }), ['k1', 'k2', 'k3']);
  t.strictSame(resolveApiKeys({ env: '' }), [], 'an empty variable names no key');
});

t.test('the key file holds one key per line; lines starting with # are comments, CRLF and blank lines are allowed', async (t) => {
  const dir = t.testdir({ keys: '# the staging keys\r\nfirst\r\n\r\n   # an indented comment\n  second  \n\nthird#not-a-comment\n' });
  t.strictSame(resolveApiKeys({ file: join(dir, 'keys') }), ['first', 'second', 'third#not-a-comment']);
});

t.test('a key given by several sources is kept once, where it first appeared', async (t) => {
  const dir = t.testdir({ keys: 'shared\nonly-file\nshared\n' });
  t.strictSame(resolveApiKeys({ flags: ['only-flag', 'shared', 'only-flag'], env: 'shared,only-env', file: join(dir, 'keys') }), [
    'only-flag',
    'shared',
    'only-env',
    'only-file',
  ]);
});

t.test('a key with white space inside is a usage error: it travels as a Bearer token', async (t) => {
  for (const sources of [{ flags: ['two words'] }, { env: 'ok,tab\tinside' }]) {
    t.throws(() => resolveApiKeys(sources), { name: 'Error', code: 'usage', exitCode: 2, message: /white space/ }, JSON.stringify(sources));
  }
  const dir = t.testdir({ keys: 'fine\nnot fine\n' });
  const error = t.throws(() => resolveApiKeys({ file: join(dir, 'keys') }));
  t.ok(error instanceof UsageError, 'a key in the file too');
});

t.test('a key file that cannot be read is a usage error naming the file and the reason', async (t) => {
  const dir = t.testdir({});
  const missing = join(dir, 'no-such-file');
  const error = t.throws(() => resolveApiKeys({ flags: ['k'], file: missing }));
  t.ok(error instanceof UsageError);
  t.equal((error as UsageError).message, `cannot read --api-keys-file ${missing}: ENOENT`);
  t.throws(() => resolveApiKeys({ file: dir }), { message: /: EISDIR$/ }, 'a directory is not a key file');
});
