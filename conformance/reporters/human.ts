/**
 * The report for people: a summary by family and operation, then each
 * failure with its requirement, the minimal request, the response seen and
 * the command that replays it; then the advisories.
 */
import type { Secrets } from '../key-forms.js';
import { describeConnection } from './connection.js';
import { countOutcomes, describeCounts, verdictOf } from '../outcomes.js';
import { cut } from '../show.js';
import type { Coverage } from '../coverage.js';
import { FAMILIES, type CheckStatus, type ConformanceResult, type Failure } from '../vocabulary.js';
import { curlCommand, redactDeep, rerunCommand } from './replay.js';

const SHOWN_HEADERS = ['content-type', 'www-authenticate', 'allow', 'deprecation', 'sunset', 'link', 'date', 'location'];

export interface RenderOptions {
  /** End the report with the coverage map (a failing run always shows it). */
  readonly coverage?: boolean;
}

export function renderHuman(original: ConformanceResult, secrets: Secrets, options: RenderOptions = {}): string {
  const result = redactDeep(original, secrets);
  const lines: string[] = [];
  const push = (line = '') => lines.push(line);
  push(`petstore conform: ${result.target}`);
  const connection = describeConnection(result.connection);
  if (connection) push(`reached ${connection}`);
  push(
    `seed ${result.seed}${result.strict ? ', --strict' : ''}; ${result.requests} requests (${result.writes} writes) in ${(result.durationMs / 1000).toFixed(1)} s${result.validatorLoadMs > 0 ? ` (${(result.validatorLoadMs / 1000).toFixed(1)} s of it loading Prism)` : ''}${result.targetDate ? `; target clock ${result.targetDate}` : ''}`,
  );
  push();
  for (const family of FAMILIES) {
    const checks = result.checks.filter((c) => c.family === family);
    if (checks.length === 0) continue;
    const counts = countOutcomes(checks);
    push(`${counts.failed ? 'FAIL' : 'ok  '} ${family.padEnd(12)} ${describeCounts(counts)}`);
    for (const check of checks)
      push(
        `  ${MARKS[check.status]} ${check.operationId}: ${check.title}${check.note ? ` (${check.status === 'not run' ? 'not run: ' : ''}${check.note})` : check.status === 'not run' ? ' (not run)' : ''}`,
      );
  }
  if (result.causes.length) {
    push();
    push(`${result.causes.length} cause${result.causes.length === 1 ? '' : 's'} behind several failures:`);
    for (const cause of result.causes) {
      push(`  ${cause.id}: ${cause.summary}`);
      push(`    shown by: ${cut(cause.evidence, 400)}`);
      push(`    explains ${cause.failures} failure${cause.failures === 1 ? '' : 's'} of ${cause.checkIds.join(', ')}`);
    }
  }
  if (result.failures.length) {
    push();
    push(`${result.failures.length} failure${result.failures.length === 1 ? '' : 's'}:`);
    result.failures.forEach((failure, index) => {
      lines.push('', ...renderFailure(failure, original.failures[index] as Failure, index + 1, result, original.target, secrets));
    });
  }
  if (result.advisories.length) {
    push();
    push(
      `${result.advisories.length} advisor${result.advisories.length === 1 ? 'y' : 'ies'} (the seed leaves these open; not failures${result.strict ? '' : ', --strict makes them requirements'}):`,
    );
    for (const a of result.advisories) push(`  - [${a.family}] ${a.operationId}: ${a.observed}. This project: ${a.referenceBehaviour}. Seed: ${a.seed}`);
  }
  if (result.tolerated.length) {
    push();
    const total = result.tolerated.reduce((sum, row) => sum + row.count, 0);
    push(`${total} answer${total === 1 ? '' : 's'} the rules over every answer excused (the tolerance table; allowed, not failures):`);
    for (const row of result.tolerated) push(`  - ${row.id} ×${row.count}: ${row.allows} (${row.source})`);
  }
  if (options.coverage || !result.ok) {
    push();
    lines.push(...renderCoverage(result.coverage));
  }
  push();
  push(`${verdictOf(result)}: ${describeCounts(result.counts)}`);
  return `${lines.join('\n')}\n`;
}

/** ✓ passed, ✗ failed, ! advisory (passed, with behaviour the seed leaves open), - skipped, ∅ not run. */
const MARKS: Record<CheckStatus, string> = { passed: '✓', failed: '✗', advisory: '!', skipped: '-', 'not run': '∅' };

/** `failure` and `result` are redacted; the replay line is built from the original request and target, the key read from the environment. */
function renderFailure(failure: Failure, original: Failure, index: number, result: ConformanceResult, target: string, secrets: Secrets): string[] {
  const out = [
    `${index}) [${failure.family}] ${failure.operationId}: ${failure.message}${failure.occurrences && failure.occurrences > 1 ? ` (seen ${failure.occurrences} times)` : ''}${failure.cause ? ` [${failure.cause}]` : ''}`,
  ];
  out.push(`   requirement (${failure.seedSection}): ${failure.requirement}`);
  if (failure.counterexample !== undefined) out.push(`   minimal input: ${cut(failure.counterexample, 400)}`);
  if (failure.request) {
    out.push(`   request: ${failure.request.method} ${failure.request.path}`);
    if (failure.request.body !== undefined) out.push(`            body ${cut(JSON.stringify(failure.request.body), 400)}`);
    const auth = failure.request.headers['authorization'];
    out.push(`            Authorization: ${auth === undefined ? '(none)' : JSON.stringify(auth)}`);
  }
  if (failure.response) {
    out.push(`   response: ${failure.response.status}`);
    for (const name of SHOWN_HEADERS) {
      const value = failure.response.headers[name];
      if (value !== undefined) out.push(`            ${name}: ${value}`);
    }
    out.push(`            body ${failure.response.text === '' ? '(empty)' : cut(failure.response.text, 600)}`);
  }
  if (original.request) out.push(`   replay: ${curlCommand(target, original.request, secrets)}`);
  if (failure.seed !== undefined) out.push(`   rerun:  ${rerunCommand(result.target, failure.checkId, failure.seed, result.connection?.rerunOptions)}`);
  return out;
}

/** The coverage map as a compact table: one block per operation, its statuses and the classes of input tried. */
function renderCoverage(coverage: Coverage): string[] {
  const out = ['coverage (what the run actually sent and saw):'];
  for (const op of coverage.operations) {
    const statuses = op.statuses.map((s) => `${s.status}${s.declared ? '' : ' (undeclared)'} ×${s.count}`).join(', ') || 'none';
    out.push(
      `  ${op.operationId.padEnd(10)} ${op.method} ${op.path}: ${op.requests} requests; statuses ${statuses}; declared, never seen: ${op.neverObserved.join(', ') || '—'}`,
    );
    for (const input of op.inputs) out.push(`    ${input.dimension}: ${input.classes.map((c) => `${c.value} ×${c.count}`).join(', ')}`);
  }
  return out;
}
