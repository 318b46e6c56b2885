/**
 * Default options of a run, apart from the runner so that the CLI can show
 * them in --help without loading the suite (Prism takes seconds to load).
 */
import { FAMILIES, type RunOptions } from './vocabulary.js';

export const defaultRunOptions = {
  runs: 100,
  families: FAMILIES,
  checkIds: [] as readonly string[],
  strict: false,
  readOnly: false,
  maxWrites: 1000,
  rate: 0,
  concurrency: 8,
  timeoutMs: 10_000,
  timeBudgetMs: 600_000,
  namePrefix: 'conform-',
  maxResponseBytes: 8 * 1024 * 1024,
  settleMs: 5000,
} satisfies Partial<RunOptions>;
