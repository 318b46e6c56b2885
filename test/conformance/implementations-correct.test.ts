// A suite that fails a correct implementation is as wrong as one that passes
// a broken one: `petstore conform` passes every correct variant (each differs
// from the base only where the seed leaves behaviour open) and this project's
// reference server, with and without --strict. Seed 1 throughout. The
// correct variants are in two shards (variants.ts); the second is in
// implementations-correct-2.test.ts.
import t from 'tap';
import { implementations, startVariant } from '../../fixtures/implementations/index.mjs';
import { startServer } from '../../src/index.js';
import { conformJson, describeFailures } from './run-conform.js';
import { shard, testVariant } from './variants.js';

t.test('the reference server conforms: exit 0 with no failure at the default number of runs', async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  const { code, result } = await conformJson(server.url, server.apiKey);
  t.equal(code, 0, `exit code 0; the failures:\n${describeFailures(result)}`);
  t.strictSame(result.failures, [], describeFailures(result));
  t.equal(result.strict, false);
  // It answers no Range with 206 or 416, and no precondition with 304 (both are its choice, RFC 9110 §13, §14):
  // the rules about those answers have nothing to judge.
  const neverAnswered = ['http.partial-content', 'http.not-modified'];
  t.strictSame(
    result.checks.filter((c) => c.status !== 'passed' && !(c.status === 'not run' && neverAnswered.includes(c.id))).map((c) => `${c.id}: ${c.status}`),
    [],
    'every check ran and passed (but the rules about answers it never gives)',
  );
  t.strictSame(
    result.checks.filter((c) => neverAnswered.includes(c.id)).map((c) => c.status),
    ['not run', 'not run'],
    'the rules about 206 and 304 are not run, never passed',
  );
  t.strictSame(result.advisories, [], 'no advisory: where the seed is silent, it does what this project decided');
});

t.test('the reference server also conforms under --strict: it implements every documented decision', async (t) => {
  const server = await startServer();
  t.teardown(() => server.close());
  const { code, result } = await conformJson(server.url, server.apiKey, ['--strict']);
  t.equal(code, 0, `exit code 0; the failures:\n${describeFailures(result)}`);
  t.strictSame(result.failures, [], describeFailures(result));
  t.equal(result.strict, true, 'the run was strict');
});

t.test('--strict turns a documented decision into a requirement: a variant that departs from one fails it', async (t) => {
  // no-deprecation-headers conforms to the seed (without --strict it passes,
  // in implementations-correct-2.test.ts), but this project decided that
  // getPet sends Deprecation, Sunset and Link.
  const server = await startVariant('no-deprecation-headers', { apiKey: 'test-key' });
  t.teardown(() => server.close());
  const { code, result } = await conformJson(server.url, server.apiKey, ['--strict', '--checks', 'deprecation']);
  t.equal(code, 1, 'exit code 1');
  t.ok(
    result.failures.some((f) => f.family === 'deprecation' && /--strict/.test(f.message)),
    describeFailures(result),
  );
});

t.test('a long name refused with 400 is an advisory (§8 leaves the maximum open), and a failure only under --strict', async (t) => {
  const server = await startVariant('name-max-length', { apiKey: 'test-key' });
  t.teardown(() => server.close());
  const checks = ['--checks', 'validation.createPet.long-name'];
  const lenient = await conformJson(server.url, server.apiKey, checks);
  t.equal(lenient.code, 0, describeFailures(lenient.result));
  const advisory = lenient.result.advisories.find((a) => a.decision === 'name-length');
  t.match(advisory?.observed, /refused with 400/, 'the refusal is reported as an advisory');
  const strict = await conformJson(server.url, server.apiKey, ['--strict', ...checks]);
  t.equal(strict.code, 1, 'exit code 1 under --strict');
  t.ok(
    strict.result.failures.some((f) => f.family === 'validation' && /--strict/.test(f.message) && /name/.test(f.message)),
    describeFailures(strict.result),
  );
});

t.test('there are correct variants to run against', async (t) => {
  t.ok(implementations.filter((i) => i.kind === 'correct').length >= 15);
});

for (const variant of shard('correct', 1)) testVariant(t, variant);

t.test('a family run alone passes lagging-get-pet: a pet found in the list is read within the settle window before a check asks for it', async (t) => {
  // media-types alone found pet 1 in the list while its own create was just answered, and asked
  // getPet for it at once: the replica behind answered 404 and the check failed a correct server.
  const server = await startVariant('lagging-get-pet', { apiKey: 'test-key' });
  t.teardown(() => server.close());
  const { code, result } = await conformJson(server.url, server.apiKey, ['--checks', 'media-types']);
  t.equal(code, 0, `exit code 0; the failures:\n${describeFailures(result)}`);
  t.strictSame(result.failures, [], describeFailures(result));
});
