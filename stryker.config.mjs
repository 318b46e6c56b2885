// Mutation testing of the server's security-critical modules (issue 27).
// Run through `npm run mutate` (scripts/mutate.mjs), which also reads
// mutation/equivalents.json and fails on any other survivor.
// The tap runner runs each test file with node and tsx (not through tap
// itself, which costs seconds per file), and coverage per test file means a
// mutant runs only the files that reach it, in the order listed here: the
// nearest (and fastest) tests first.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'src/server/auth.ts',
    'src/server/body.ts',
    'src/server/params.ts',
    'src/server/router.ts',
    'src/store/ids.ts',
    // The store's id assignment: create, indexOf, denseId and nextId.
    'src/store/pet-store.ts:164-229',
    // The JSON parser every request body goes through.
    'spec/json/parse.ts',
  ],
  testRunner: 'tap',
  tap: {
    testFiles: [
      // Unit tests of the modules themselves: fast, and first, so that most mutants die here.
      'test/server/authenticator.test.ts',
      'test/server/route-matching.test.ts',
      'test/server/params-reader.test.ts',
      'test/server/body-reader.test.ts',
      'test/server/query.test.ts',
      // The JSON parser's own tests.
      'test/json/parse.test.ts',
      'test/store/id-assignment.test.ts',
      'test/store/pet-store.test.ts',
      // Through a running server: slower, so only the one nearest to authentication.
      'test/server/auth.test.ts',
    ],
    nodeArgs: ['-r', '{{hookFile}}', '--import', 'tsx'],
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
