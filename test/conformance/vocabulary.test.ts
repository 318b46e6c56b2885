// A family of checks is declared once (FAMILY_TABLE in conformance/vocabulary.ts)
// and the runner, the reporters, the fixtures and the README find it there.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { FAMILIES as FIXTURE_FAMILIES } from '../../fixtures/implementations/index.mjs';
import { CHECK_BUILDERS } from '../../conformance/checks/index.js';
import { FAMILIES, FAMILY_DESCRIPTIONS } from '../../conformance/vocabulary.js';
import { startServer } from '../../src/index.js';
import { conformJson } from '../helpers/run-conform.js';

const KEY = 'families-key-1';

t.test('every declared family has checks in a default run against the reference server', async (t) => {
  const server = await startServer({ apiKeys: [KEY] });
  t.teardown(() => server.close());
  const { result } = await conformJson(server.url, KEY, ['--runs', '5']);
  for (const family of FAMILIES)
    t.ok(
      result.checks.some((c) => c.family === family),
      `${family} has at least one check`,
    );
  t.strictSame([...new Set(result.checks.map((c) => c.family))].sort(), [...FAMILIES].sort(), 'and no check belongs to an undeclared family');
});

t.test('every family has a builder and a description; the fixtures name the same families', async (t) => {
  t.strictSame(Object.keys(CHECK_BUILDERS).sort(), [...FAMILIES].sort());
  for (const family of FAMILIES) t.match(FAMILY_DESCRIPTIONS[family], /\S/, `${family}: described`);
  t.strictSame(FIXTURE_FAMILIES, FAMILIES);
});

t.test('the tables of what the suite checks (README and docs/conformance.md) have one row per family, no more', async (t) => {
  for (const path of ['README.md', 'docs/conformance.md']) {
    const text = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
    const rows = [...text.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    t.strictSame([...rows].sort(), [...FAMILIES].sort(), path);
  }
});
