import { readFileSync } from 'node:fs';
import t from 'tap';
import { createProgram } from '../../src/cli/main.js';
import { errorCatalog } from '../../src/server/errors.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

t.test('the README lists every error code of the catalogue with its status and meaning', async (t) => {
  for (const [code, { status, meaning }] of Object.entries(errorCatalog)) {
    t.ok(readme.includes(`| \`${code}\` | ${status} | ${meaning} |`), `README row for ${code}`);
  }
  const rows = readme.match(/^\| `[a-z_]+` \| \d{3} \| /gm) ?? [];
  t.equal(rows.length, Object.keys(errorCatalog).length, 'no README row for a code the catalogue does not have');
});

t.test('the README documents every option of every subcommand', async (t) => {
  const program = createProgram();
  for (const command of program.commands) {
    for (const option of command.options) {
      t.ok(readme.includes(`\`${option.flags}\``), `${command.name()} ${option.flags} is in the README`);
    }
  }
});

t.test("the README's set-up commands are the project's scripts", async (t) => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
  t.match(readme, /npm ci/);
  t.match(readme, /npm test/);
  t.ok(pkg.scripts['test'], 'npm test exists');
  t.ok(pkg.scripts['prepare']?.includes('tsc'), 'npm ci compiles through the prepare script');
  const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
  t.match(ci, /npm ci/, '.ci/run installs from the lockfile');
  t.match(ci, /npm test/, '.ci/run runs the README test command');
});
