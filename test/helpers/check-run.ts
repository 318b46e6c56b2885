/**
 * One check of the suite run against a base URL: its outcome, the message of
 * its failure, and the run's result.
 */
import { type ConformanceOptions, runConformance } from '../../conformance/index.js';

export async function runCheck(baseUrl: string, apiKey: string, checkId: string, options: Partial<ConformanceOptions> = {}) {
  const family = checkId.slice(0, checkId.indexOf('.'));
  const result = await runConformance({ baseUrl, apiKey, seed: 1, runs: 25, families: [family as never], checkIds: [checkId], ...options });
  const outcome = result.checks.find((c) => c.id === checkId);
  return { outcome, status: outcome?.status, message: outcome?.failure?.message ?? '', result };
}
