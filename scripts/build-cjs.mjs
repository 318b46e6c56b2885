#!/usr/bin/env node
/**
 * The CommonJS entries of the package, beside the ESM ones `tsc` writes: a
 * test runner that loads tests as CommonJS (Jest's default configuration)
 * cannot import an ES module, so `require('petstore-harness')` gets
 * dist/cjs/index.cjs, one file per entry bundled from the compiled ESM (the
 * one source), with every dependency left to `require`. Their declarations
 * are emitted again as CommonJS under dist/cjs/types (a package.json there
 * says so), so TypeScript sees each condition's own module format.
 *
 * `import.meta.url` has no CommonJS form; two modules use it, both to find
 * files beside them in the package, so it is defined as the URL of docs.js
 * (whose swagger-ui/ path is the one relative lookup). A new use elsewhere
 * fails the build rather than resolving against the wrong file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const USES_OF_IMPORT_META = ['dist/src/server/docs.js', 'dist/conformance/response-validator.js'];

const found = execFileSync('grep', ['-rl', 'import.meta', 'dist/src', 'dist/conformance', 'dist/proxy', 'dist/spec'], { cwd: root, encoding: 'utf8' })
  .trim()
  .split('\n')
  .filter(Boolean)
  .sort();
if (JSON.stringify(found) !== JSON.stringify([...USES_OF_IMPORT_META].sort())) {
  process.stderr.write(`build-cjs: import.meta is used in ${found.join(', ')}; only ${USES_OF_IMPORT_META.join(', ')} have a CommonJS stand-in\n`);
  process.exit(1);
}

await build({
  absWorkingDir: root,
  entryPoints: { index: 'dist/src/index.js', conformance: 'dist/conformance/index.js', proxy: 'dist/proxy/index.js' },
  outdir: 'dist/cjs',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  define: { 'import.meta.url': '__petstoreModuleUrl' },
  banner: { js: "const __petstoreModuleUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, '../src/server/docs.js')).href;" },
  logLevel: 'warning',
});

mkdirSync(`${root}/dist/cjs`, { recursive: true });
writeFileSync(`${root}/dist/cjs/package.json`, `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
execFileSync(
  process.execPath,
  [
    `${root}/node_modules/typescript/bin/tsc`,
    '-p',
    'tsconfig.json',
    '--module',
    'commonjs',
    '--moduleResolution',
    'node10',
    '--emitDeclarationOnly',
    '--noCheck',
    '--incremental',
    'false',
    '--outDir',
    'dist/cjs/types',
  ],
  { cwd: root, stdio: 'inherit' },
);
// Nothing but the entries' declarations (and what they import) is needed; the CLI's are left out of the tarball by "files".
const probe = readFileSync(`${root}/dist/cjs/types/src/index.d.ts`, 'utf8');
if (!probe.includes('export')) throw new Error('build-cjs: the CommonJS declarations are empty');
