// Mutation testing of the server's security-critical modules (issue 27).
// Run through `npm run mutate` (scripts/mutate.mjs), which also reads
// mutation/equivalents.json and fails on any other survivor.
// The tap runner runs each test file with node and tsx (not through tap
// itself, which costs seconds per file), and coverage per test file means a
// mutant runs only the files that reach it, in the order listed here: the
// nearest (and fastest) tests first.
import { readFileSync } from 'node:fs';

/**
 * The lines of src/store/pet-store.ts that decide which pet an id reads or
 * gets: from `create(` to the end of `nextId()` (create, has, get and its
 * read cache, indexOf, denseId, nextId). Found by the method names when this
 * file loads, so the range moves with the code; a method renamed or moved
 * out of that order fails the run instead of mutating the wrong lines.
 */
export function petStoreIdLines(source = readFileSync(new URL('./src/store/pet-store.ts', import.meta.url), 'utf8')) {
  const lines = source.split('\n');
  const find = (pattern, from = 0) => {
    const at = lines.findIndex((line, i) => i >= from && pattern.test(line));
    if (at === -1) throw new Error(`stryker.config.mjs: no line of src/store/pet-store.ts matches ${pattern}`);
    return at;
  };
  const first = find(/^ {2}create\(/);
  const last = find(/^ {2}\}$/, find(/^ {2}private nextId\(/, first));
  const inside = (name) => {
    const at = find(new RegExp(`^ {2}(private )?${name}\\(`));
    if (at < first || at > last) throw new Error(`stryker.config.mjs: ${name}() is not between create() and the end of nextId() in src/store/pet-store.ts`);
  };
  for (const name of ['get', 'indexOf', 'denseId']) inside(name);
  return `src/store/pet-store.ts:${first + 1}-${last + 1}`;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'src/server/authenticator.ts',
    'src/server/request-body.ts',
    'src/server/params.ts',
    'src/server/router.ts',
    'src/store/ids.ts',
    // The store's id assignment and lookup: create, get (its read cache), indexOf, denseId and nextId.
    petStoreIdLines(),
    // The JSON parser every request body goes through, and its exact numbers (the int64 ids and limits).
    'spec/json/parse.ts',
    'spec/json/exact-numbers.ts',
  ],
  testRunner: 'tap',
  tap: {
    testFiles: [
      // Unit tests of the modules themselves: fast, and first, so that most mutants die here.
      'test/src/server/authenticator.test.ts',
      'test/src/server/router.test.ts',
      'test/src/server/params.test.ts',
      'test/src/server/request-body.test.ts',
      'test/src/server/params/query.test.ts',
      // The JSON parser's own tests, and its exact numbers'.
      'test/spec/json/parse.test.ts',
      'test/spec/json/exact-numbers.test.ts',
      'test/src/store/ids.test.ts',
      'test/src/store/pet-store.test.ts',
      // Through a running server: slower, so only the one nearest to authentication.
      'test/src/server/authenticator/over-http.test.ts',
    ],
    nodeArgs: ['-r', '{{hookFile}}', '--import', 'tsx', '--import', './test/helpers/fast-check-seed.ts'],
    forceBail: true,
  },
  coverageAnalysis: 'perTest',
  plugins: ['@stryker-mutator/tap-runner'],
  reporters: ['json', 'clear-text', 'progress-append-only'],
  jsonReporter: { fileName: 'reports/mutation/server.json' },
  tempDirName: '.stryker-tmp',
  // Not copied to the sandbox: a second biome configuration below the root breaks `npm run lint` during a run.
  ignorePatterns: ['biome.jsonc', 'docs', 'bench'],
  cleanTempDir: 'always',
  concurrency: 2,
  timeoutMS: 5000,
  incremental: false,
};
