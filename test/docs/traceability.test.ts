// docs/traceability.md goes through the standards the seed stands on and
// names, for each requirement, the check that covers it: every check id it
// names exists, and every check of a run is named there.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { FAMILIES } from '../../conformance/vocabulary.js';
import { startServer } from '../../src/index.js';
import { conformJson } from '../helpers/run-conform.js';

const matrix = readFileSync(new URL('../../docs/traceability.md', import.meta.url), 'utf8');
const named = new Set(
  [...matrix.matchAll(/`([a-z-]+)\.([A-Za-z.-]+)`/g)].filter((m) => (FAMILIES as readonly string[]).includes(m[1]!)).map((m) => `${m[1]}.${m[2]}`),
);

t.test('every check id the matrix names is a check of the suite, and every check has a row', async (t) => {
  const server = await startServer({ apiKeys: ['traceability-key'] });
  t.teardown(() => server.close());
  const { result } = await conformJson(server.url, 'traceability-key', ['--runs', '3']);
  const ids = new Set(result.checks.map((c) => c.id));
  t.ok(ids.size > 40, `a run has its checks (${ids.size})`);
  t.strictSame(
    [...named].filter((id) => !ids.has(id)),
    [],
    'no row names a check that does not exist',
  );
  t.strictSame(
    [...ids].filter((id) => !named.has(id)),
    [],
    'no check is missing from the matrix',
  );
  for (const check of result.checks) t.match(check.title, /\S/, `${check.id} has a title`);
});

t.test('each document the seed stands on has its section, and OWASP all ten categories', async (t) => {
  for (const heading of [
    '## RFC 9110',
    '## RFC 9111',
    '## RFC 9112',
    '## RFC 6750',
    '## RFC 8259',
    '## RFC 9745 and RFC 8594',
    '## OWASP API Security Top 10 (2023)',
  ])
    t.ok(matrix.includes(heading), heading);
  for (let n = 1; n <= 10; n++) t.match(matrix, new RegExp(`^\\| API${n} `, 'm'), `API${n} has a row`);
});

t.test('every row says how it is checked: a check id, or a dash with the reason', async (t) => {
  const rows = matrix.split('\n').filter((line) => /^\| (§\d|RFC|API\d)/.test(line));
  t.ok(rows.length > 60, `${rows.length} rows`);
  for (const row of rows) {
    const last = row.split(' | ').at(-1)!;
    t.ok(/`[a-z-]+\.[A-Za-z.-]+`/.test(last) || last.trim().startsWith('—') || /\bthe suite\b/.test(last), row.slice(0, 80));
  }
});
