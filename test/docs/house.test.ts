// The house rules of docs/architecture.md, kept true: the tests of a module
// are found at the path that mirrors it; no base name means two things; no
// room is too big to see at once.
//
// - The tests of `X/Y.ts` (X one of spec/, src/, conformance/, cli/) are
//   `test/X/Y.test.ts` or the files of `test/X/Y/`; a test slow by nature (a
//   daemon, the binary in a child process) is `….long.test.ts` at the same
//   place, and runs in the long tier (npm run test:long). A module that only
//   re-exports (an index.ts of `export … from` lines) or only declares types
//   has nothing of its own to run; any other module without tests must be
//   listed below, with why.
// - Every test file is at such a mirrored path, or in a folder of the suites
//   that cut across modules: test/fixtures (the suite's verdicts on the
//   implementations), test/long (the long tier), test/hostile (hostile input
//   end to end), test/docs (docs and structure) and test/helpers.
// - No two modules of the layers (or helpers of the tests) share a base name,
//   but the index.ts of a folder.
// - No function over 100 lines, no module over 400 (the catalogues' data
//   tables aside).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';

const root = normalize(join(dirname(fileURLToPath(import.meta.url)), '../..'));
const LAYERS = ['spec', 'src', 'conformance', 'proxy', 'cli'] as const;
const CROSS_CUTTING = ['test/fixtures', 'test/long', 'test/hostile', 'test/docs', 'test/helpers', 'test/types'];

/** Modules without tests of their own, each with the reason. Keep it short: a module worth having is worth a test. */
const WITHOUT_TESTS: Readonly<Record<string, string>> = {};

const MAX_FUNCTION_LINES = 100;
const MAX_MODULE_LINES = 400;
/** Modules that are data tables (one entry a line), which may run longer than a module of code. */
const DATA_TABLES = /^conformance\/catalogues\//;

function files(folder: string, suffix: string): string[] {
  if (!existsSync(join(root, folder))) return [];
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

const modules = LAYERS.flatMap((layer) => files(layer, '.ts')).filter((file) => !file.endsWith('.d.ts'));
const tests = files('test', '.test.ts');

/**
 * Whether a module has nothing of its own to run: it only re-exports others,
 * or declares only types (which the compiler checks wherever they are used).
 */
function nothingToRun(file: string): boolean {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements.every(
    (s) =>
      (ts.isExportDeclaration(s) && (s.moduleSpecifier !== undefined || s.isTypeOnly)) ||
      (ts.isImportDeclaration(s) && s.importClause?.isTypeOnly === true) ||
      ts.isInterfaceDeclaration(s) ||
      ts.isTypeAliasDeclaration(s),
  );
}

function testsOf(file: string): string[] {
  const stem = `test/${file.replace(/\.ts$/, '')}`;
  return tests.filter((test) => test === `${stem}.test.ts` || test === `${stem}.long.test.ts` || test.startsWith(`${stem}/`));
}

t.test('every module has its tests at the mirrored path, or is listed with its reason', async (t) => {
  t.ok(modules.length > 100, `${modules.length} modules read`);
  const missing = modules.filter((file) => testsOf(file).length === 0 && !nothingToRun(file) && !(file in WITHOUT_TESTS));
  t.strictSame(missing, [], 'no module without tests');
  const stale = Object.keys(WITHOUT_TESTS).filter((file) => !modules.includes(file) || testsOf(file).length > 0);
  t.strictSame(stale, [], 'the list names only modules that exist and have no tests');
  t.ok(Object.keys(WITHOUT_TESTS).length <= 5, 'the list stays short');
});

t.test('every test file mirrors a module, or is in a folder of the cross-cutting suites', async (t) => {
  const stray = tests.filter((test) => {
    if (CROSS_CUTTING.some((folder) => test.startsWith(`${folder}/`))) return false;
    const path = test.slice('test/'.length).replace(/(\.long)?\.test\.ts$/, '');
    // test/X/Y.test.ts for X/Y.ts, or test/X/Y/<topic>.test.ts for X/Y.ts
    return !existsSync(join(root, `${path}.ts`)) && !existsSync(join(root, `${dirname(path)}.ts`));
  });
  t.strictSame(stray, [], 'no test file named after a module that does not exist');
  for (const folder of CROSS_CUTTING) t.ok(statSync(join(root, folder)).isDirectory(), `${folder} exists`);
});

t.test('no two modules share a base name but index.ts', async (t) => {
  const byName = new Map<string, string[]>();
  for (const file of [...modules, ...files('test/helpers', '.ts').filter((f) => !f.endsWith('.test.ts'))]) {
    const name = basename(file);
    if (name === 'index.ts') continue;
    byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  t.strictSame(
    [...byName.values()].filter((paths) => paths.length > 1),
    [],
    'each base name is one module',
  );
});

t.test(`no function over ${MAX_FUNCTION_LINES} lines, no module over ${MAX_MODULE_LINES} (data tables aside)`, async (t) => {
  const tooLong: string[] = [];
  for (const file of modules) {
    const text = readFileSync(join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0); // as wc -l counts them
    if (lines > MAX_MODULE_LINES && !DATA_TABLES.test(file)) tooLong.push(`${file}: ${lines} lines`);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        if (last - first + 1 > MAX_FUNCTION_LINES) tooLong.push(`${file}:${first + 1}: a function of ${last - first + 1} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  t.strictSame(tooLong, []);
});
