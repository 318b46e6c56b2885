#!/usr/bin/env node
/**
 * `npm run mutate`: mutation testing (issue 27), in two parts.
 *
 * 1. The server's security-critical modules (stryker.config.mjs lists them),
 *    with Stryker and the tests nearest to them. Every mutant that survives
 *    must be listed in mutation/equivalents.json with the reason it changes
 *    nothing a request can tell; any other survivor fails the run.
 * 2. The suite's checks and catalogues against the broken fixtures
 *    (scripts/mutate-checks.mjs): a mutant every fixture still fails is a
 *    fixture missing, unless it is listed as equivalent there.
 *
 * `--server` or `--checks` runs one part; further arguments after `--` go to
 * Stryker (`-- --mutate src/server/authenticator.ts`).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMutant, entryKey } from './mutation-entries.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dash = args.indexOf('--');
const own = dash === -1 ? args : args.slice(0, dash);
const passed = dash === -1 ? [] : args.slice(dash + 1);
// `--report` only reads the last Stryker report again.
const reportOnly = own.includes('--report');
const only = own.includes('--server') ? 'server' : own.includes('--checks') ? 'checks' : undefined;

/** A report's location counts lines and columns from 1. */
const fromOne = ({ start, end }) => ({ start: { line: start.line - 1, column: start.column - 1 }, end: { line: end.line - 1, column: end.column - 1 } });

function serverPart() {
  const started = Date.now();
  const run = reportOnly ? { status: 0 } : spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', ...passed], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`stryker exited with ${run.status}`);
    return false;
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  const report = JSON.parse(readFileSync(join(root, 'reports/mutation/server.json'), 'utf8'));
  const equivalents = JSON.parse(readFileSync(join(root, 'mutation/equivalents.json'), 'utf8'));
  const known = new Map(equivalents.map((e) => [entryKey(e), e]));
  const used = new Set();
  const counts = { mutants: 0, killed: 0, timeout: 0, equivalent: 0, survived: 0, errors: 0 };
  const unexplained = [];
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    for (const m of mutants) {
      counts.mutants++;
      if (m.status === 'Killed') counts.killed++;
      else if (m.status === 'Timeout') counts.timeout++;
      else if (m.status === 'Survived' || m.status === 'NoCoverage') {
        const survivor = describeMutant(file, source, fromOne(m.location), m.mutatorName, m.replacement);
        const key = entryKey(survivor);
        if (known.has(key)) {
          counts.equivalent++;
          used.add(key);
        } else {
          counts.survived++;
          unexplained.push({ where: `${file}:${m.location.start.line}:${m.location.start.column} (${m.status})`, ...survivor, reason: '' });
        }
      } else counts.errors++; // RuntimeError, CompileError: the test file crashed on the mutant, so it was noticed
    }
  }
  for (const [key, e] of known) {
    const mutated = Object.keys(report.files).includes(e.file);
    if (mutated && !used.has(key)) console.warn(`equivalent not met (killed now, not mutated this run, or its line changed): ${e.file} ${e.mutator} ${e.line}`);
  }
  console.log(`\nserver: ${counts.mutants} mutants, ${counts.killed} killed, ${counts.timeout} timed out (killed), ${counts.equivalent} equivalent, ${counts.survived} surviving, ${counts.errors} crashed a test file (noticed), ${seconds} s`);
  if (unexplained.length > 0) {
    // Ready to kill with a test, or (with a reason) to add to mutation/equivalents.json.
    console.log('surviving mutants:');
    console.log(JSON.stringify(unexplained, null, 2));
  }
  return counts.survived === 0;
}

function checksPart() {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/mutate-checks.mjs'), ...passed], { cwd: root, stdio: 'inherit' });
  return run.status === 0;
}

let ok = true;
if (only !== 'checks') ok = serverPart() && ok;
if (only !== 'server') ok = checksPart() && ok;
process.exit(ok ? 0 : 1);
