import { readFileSync } from 'node:fs';
import t from 'tap';
import { createProgram } from '../../cli/main.js';
import { errorCatalog } from '../../src/server/errors.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const errors = read('docs/errors.md');
const cli = read('docs/cli.md');

t.test('docs/errors.md lists every error code of the catalogue with its status and meaning', async (t) => {
  for (const [code, { status, meaning }] of Object.entries(errorCatalog)) {
    t.ok(errors.includes(`| \`${code}\` | ${status} | ${meaning} |`), `row for ${code}`);
  }
  const rows = errors.match(/^\| `[a-z_]+` \| \d{3} \| /gm) ?? [];
  t.equal(rows.length, Object.keys(errorCatalog).length, 'no row for a code the catalogue does not have');
});

t.test('docs/cli.md documents every option of every subcommand', async (t) => {
  const program = createProgram();
  for (const command of program.commands) {
    for (const option of command.options) {
      t.ok(cli.includes(`\`${option.flags}\``), `${command.name()} ${option.flags} is in docs/cli.md`);
    }
  }
});

t.test('the README is a first ten minutes: at most 300 lines, every reference one link away', async (t) => {
  t.ok(readme.split('\n').length <= 300, `${readme.split('\n').length} lines`);
  for (const doc of [
    'docs/stand-in.md',
    'docs/conformance.md',
    'docs/traceability.md',
    'docs/cli.md',
    'docs/errors.md',
    'docs/decisions.md',
    'docs/staging.md',
    'docs/proxy.md',
  ])
    t.ok(readme.includes(`](${doc}`), `the README links ${doc}`);
});

t.test("the README's set-up commands are the project's scripts", async (t) => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
  t.match(readme, /npm ci/);
  t.match(readme, /npm test/);
  t.ok(pkg.scripts['test'], 'npm test exists');
  t.ok(pkg.scripts['build']?.includes('tsc'), 'npm run build compiles');
  // npm ci on a clean clone builds, so npx petstore works with no other step; npm does not run prepare on a tarball install.
  t.ok(pkg.scripts['prepare']?.includes('npm run build'), 'npm ci compiles through the prepare script');
  // The published manifest names no script npm runs on a user's install (docs/package.md).
  for (const script of ['preinstall', 'install', 'postinstall']) t.notOk(pkg.scripts[script], `no ${script} script`);
  const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
  t.match(ci, /npm ci/, '.ci/run installs from the lockfile');
  t.match(ci, /npm test/, '.ci/run runs the README test command');
});

t.test('docs/package.md names what CI tests and what every Node gets', async (t) => {
  const doc = read('docs/package.md');
  const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; overrides: Record<string, string> };
  t.ok(doc.includes(`\`${pkg.engines.node}\``), `the engines range ${pkg.engines.node}`);
  const nodes = /PETSTORE_CI_NODES-([^}]+)\}/.exec(read('.ci/run'))?.[1]?.split(/\s+/) ?? [];
  t.ok(nodes.length >= 2, '.ci/run names the other Node versions');
  for (const version of nodes) t.ok(doc.includes(version), `Node ${version}, which .ci/run tests`);
  // The versions the table says every Node gets are the lockfile's.
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version: string }> };
  for (const path of ['@stoplight/prism-http', 'undici', 'commander', 'fastify/node_modules/cookie', 'fastify/node_modules/light-my-request']) {
    const version = lock.packages[`node_modules/${path}`]?.version;
    t.ok(version && doc.includes(version), `${path} ${version}, as the lockfile has it`);
  }
  const { dependencies } = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
  t.notOk('swagger-ui-dist' in dependencies, 'swagger-ui-dist (and its @scarf/scarf postinstall) is not a runtime dependency');
});
