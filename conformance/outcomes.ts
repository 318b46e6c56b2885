/**
 * The outcomes of a run counted and said in one way for every reporter and
 * the CLI's exit code: a check that exercised nothing is never counted as
 * passed, and a run that exercised nothing does not pass.
 */
import { CHECK_STATUSES, type CheckOutcome, type CheckStatus, type ConformanceResult } from './vocabulary.js';

export function countOutcomes(checks: readonly CheckOutcome[]): Record<CheckStatus, number> {
  return Object.fromEntries(CHECK_STATUSES.map((status) => [status, checks.filter((c) => c.status === status).length])) as Record<CheckStatus, number>;
}

/** `12 passed, 0 failed, 9 skipped`: passed and failed always, the other outcomes when there are any. */
export function describeCounts(counts: Readonly<Record<CheckStatus, number>>): string {
  return CHECK_STATUSES.filter((status) => status === 'passed' || status === 'failed' || counts[status] > 0)
    .map((status) => `${counts[status]} ${status}`)
    .join(', ');
}

/** PASS needs no failure and at least one requirement exercised. */
export function verdictOf(result: ConformanceResult): 'PASS' | 'FAIL' | 'NOTHING TESTED' {
  if (!result.ok) return 'FAIL';
  return result.exercised > 0 ? 'PASS' : 'NOTHING TESTED';
}
