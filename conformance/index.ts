/**
 * The conformance suite as a library: `runConformance(options)` returns a
 * ConformanceResult; the CLI and the reporters only render it.
 */
export { runConformance, defaultRunOptions } from './runner.js';
export type { ConformanceOptions } from './runner.js';
export { FAMILIES, FAMILY_DESCRIPTIONS } from './vocabulary.js';
export type { Advisory, CheckOutcome, ConformanceResult, Failure, Family, ProgressEvent, RunOptions } from './vocabulary.js';
export { TargetUnreachableError } from './client.js';

// What a front end needs around a run (the CLI is one): its defaults, how to
// reach a staging, how to say the outcome, and the reports, each a function of
// a ConformanceResult. The API key is never printed: every reporter and
// `redact` take the secrets to hide.
export { describeCounts, verdictOf } from './outcomes.js';
export { createTransport, proxyFor, proxyProblem } from './transport.js';
export type { TlsOptions } from './transport.js';
export type { Secret, Secrets } from './key-forms.js';
export { redact } from './reporters/replay.js';
export { shellArgument } from './shell.js';
export { renderHuman } from './reporters/human.js';
export { renderJson, renderJunit, renderTap } from './reporters/machine.js';
export { renderHtml } from './reporters/html.js';
export type { OracleTarget } from './differential/mirror.js';
export type { CompareAllowance } from './tolerances.js';
// The suite's judge of traffic it did not send (`petstore proxy`): every answer that passed through, by the suite's rules.
export { createPassiveJudge, readPassedBody } from './passive/judge.js';
export type { PassiveJudge, PassiveJudgeOptions, PassedExchange, PassiveFinding } from './passive/judge.js';
export type { ReadBody } from './response-body.js';
