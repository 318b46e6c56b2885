/**
 * The conformance suite as a library: `runConformance(options)` returns a
 * ConformanceResult; the CLI and the reporters only render it.
 */
export { runConformance, defaultRunOptions } from './runner.js';
export type { ConformanceOptions } from './runner.js';
export { FAMILIES, FAMILY_DESCRIPTIONS } from './types.js';
export type { Advisory, CheckOutcome, ConformanceResult, Failure, Family, ProgressEvent, RunOptions } from './types.js';
export { TargetUnreachableError } from './client.js';
