/**
 * The report for people: a summary by family and operation, then each
 * failure with its requirement, the minimal request, the response seen and
 * the command that replays it; then the advisories.
 */
import { FAMILIES, type ConformanceResult, type Failure } from '../types.js';
import { curlCommand, redactDeep } from './replay.js';

const SHOWN_HEADERS = ['content-type', 'www-authenticate', 'allow', 'deprecation', 'sunset', 'link', 'date', 'location'];

export function renderHuman(original: ConformanceResult, apiKey: string): string {
  const result = redactDeep(original, apiKey);
  const lines: string[] = [];
  const push = (line = '') => lines.push(line);
  push(`petstore conform: ${result.target}`);
  push(`seed ${result.seed}${result.strict ? ', --strict' : ''}; ${result.requests} requests (${result.writes} writes) in ${(result.durationMs / 1000).toFixed(1)} s` + (result.validatorLoadMs > 0 ? ` (${(result.validatorLoadMs / 1000).toFixed(1)} s of it loading Prism)` : '') + (result.targetDate ? `; target clock ${result.targetDate}` : ''));
  push();
  for (const family of FAMILIES) {
    const checks = result.checks.filter((c) => c.family === family);
    if (checks.length === 0) continue;
    const failed = checks.filter((c) => c.status === 'failed').length;
    const skipped = checks.filter((c) => c.status === 'skipped').length;
    push(`${failed ? 'FAIL' : 'ok  '} ${family.padEnd(12)} ${checks.length - failed - skipped}/${checks.length} passed${skipped ? `, ${skipped} skipped` : ''}`);
    for (const check of checks) {
      const mark = check.status === 'passed' ? '  ✓' : check.status === 'failed' ? '  ✗' : '  -';
      push(`${mark} ${check.operationId}: ${check.title}${check.note ? ` (${check.note})` : ''}`);
    }
  }
  if (result.failures.length) {
    push();
    push(`${result.failures.length} failure${result.failures.length === 1 ? '' : 's'}:`);
    result.failures.forEach((failure, index) => lines.push('', ...renderFailure(failure, original.failures[index] as Failure, index + 1, result, original.target, apiKey)));
  }
  if (result.advisories.length) {
    push();
    push(`${result.advisories.length} advisor${result.advisories.length === 1 ? 'y' : 'ies'} (the seed leaves these open; not failures${result.strict ? '' : ', --strict makes them requirements'}):`);
    for (const a of result.advisories) push(`  - [${a.family}] ${a.operationId}: ${a.observed}. This project: ${a.referenceBehaviour}. Seed: ${a.seed}`);
  }
  push();
  const failedChecks = result.checks.filter((c) => c.status === 'failed').length;
  push(result.ok ? `PASS: ${result.checks.length} checks passed` : `FAIL: ${failedChecks} of ${result.checks.length} checks failed`);
  return lines.join('\n') + '\n';
}

/** `failure` and `result` are redacted; the replay line is built from the original request and target, the key read from the environment. */
function renderFailure(failure: Failure, original: Failure, index: number, result: ConformanceResult, target: string, apiKey: string): string[] {
  const out = [`${index}) [${failure.family}] ${failure.operationId}: ${failure.message}${failure.occurrences && failure.occurrences > 1 ? ` (seen ${failure.occurrences} times)` : ''}`];
  out.push(`   requirement (${failure.seedSection}): ${failure.requirement}`);
  if (failure.counterexample !== undefined) out.push(`   minimal input: ${truncate(failure.counterexample, 400)}`);
  if (failure.request) {
    out.push(`   request: ${failure.request.method} ${failure.request.path}`);
    if (failure.request.body !== undefined) out.push(`            body ${truncate(JSON.stringify(failure.request.body), 400)}`);
    const auth = failure.request.headers['authorization'];
    out.push(`            Authorization: ${auth === undefined ? '(none)' : JSON.stringify(auth)}`);
  }
  if (failure.response) {
    out.push(`   response: ${failure.response.status}`);
    for (const name of SHOWN_HEADERS) {
      const value = failure.response.headers[name];
      if (value !== undefined) out.push(`            ${name}: ${value}`);
    }
    out.push(`            body ${failure.response.text === '' ? '(empty)' : truncate(failure.response.text, 600)}`);
  }
  if (original.request) out.push(`   replay: ${curlCommand(target, original.request, apiKey)}`);
  if (failure.seed !== undefined) out.push(`   rerun:  petstore conform --base-url ${result.target} --api-key "$PETSTORE_API_KEY" --checks ${failure.checkId} --seed ${failure.seed}`);
  return out;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
