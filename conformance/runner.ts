/**
 * Runs the selected families against one target and returns a structured
 * result; it prints nothing (reporters render the result). Checks run a few
 * at a time, bounded by the client's concurrency; each property's own runs
 * are sequential so that its shrinking is deterministic for a given seed.
 */
import { operations as specOperations, type OperationDescriptor } from '../spec/operations.js';
import { authChecks } from './checks/auth.js';
import { concurrencyChecks } from './checks/concurrency.js';
import { deprecationChecks } from './checks/deprecation.js';
import { leaksChecks } from './checks/leaks.js';
import { limitsChecks } from './checks/limits.js';
import { mediaTypeChecks } from './checks/media-types.js';
import { notFoundChecks } from './checks/not-found.js';
import { createResponseJudge } from './checks/responses.js';
import { routesChecks } from './checks/routes.js';
import { listOperation } from './checks/shared.js';
import { stateChecks } from './checks/state.js';
import { validationChecks } from './checks/validation.js';
import { createClient, TargetUnreachableError, TransportError } from './client.js';
import { Knowledge } from './knowledge.js';
import { runPool } from './pool.js';
import { createOracle } from './oracle.js';
import { defaultRunOptions } from './defaults.js';
import { Violation, type Advisory, type Check, type CheckContext, type CheckOutcome, type ConformanceResult, type Failure, type RunOptions } from './types.js';

export { defaultRunOptions };

export type ConformanceOptions = Partial<RunOptions> & Pick<RunOptions, 'baseUrl' | 'apiKey'> & {
  /** Operations to check; the spec's by default. */
  operations?: readonly OperationDescriptor[];
};

const FAMILY_BUILDERS = [authChecks, validationChecks, limitsChecks, notFoundChecks, deprecationChecks, stateChecks, routesChecks, mediaTypeChecks, concurrencyChecks, leaksChecks];

export async function runConformance(input: ConformanceOptions): Promise<ConformanceResult> {
  const options: RunOptions = {
    ...defaultRunOptions,
    seed: Date.now() % 2 ** 31,
    ...input,
  };
  const operations = input.operations ?? specOperations;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const deadline = started + options.timeBudgetMs;
  const knowledge = new Knowledge();
  const client = createClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    rate: options.rate,
    maxWrites: options.readOnly ? 0 : options.maxWrites,
    maxResponseBytes: options.maxResponseBytes,
  });
  // Prism (the oracle) is started only when the responses family will use it.
  const judging = options.families.includes('responses') && (options.checkIds.length === 0 || options.checkIds.some((id) => id.startsWith('responses')));
  const judge = judging ? createResponseJudge(operations, await createOracle(operations)) : undefined;
  const validatorLoadMs = performance.now() - started;
  client.observe((exchange) => knowledge.noteDate(exchange.response.headers['date']));
  if (judge) client.observe(judge.observe);

  const advisories = new Map<string, Advisory>();
  const ctx: CheckContext = {
    client,
    knowledge,
    options,
    operations,
    async send(family, { auth, headers, ...rest }) {
      const all: Record<string, string> = { accept: 'application/json' };
      const credential = auth === undefined ? client.authorization : auth;
      if (credential !== null) all['authorization'] = credential;
      if (rest.body !== undefined) all['content-type'] = 'application/json';
      Object.assign(all, headers);
      const request = { ...rest, headers: all };
      const response = await client.send(family, request);
      return { request, response };
    },
    unspecified(advisory, conforms) {
      if (conforms) return;
      if (options.strict) {
        throw new Violation(`${advisory.observed}; --strict requires this project's decision: ${advisory.referenceBehaviour} (the seed leaves it open: ${advisory.seed})`, advisory.request ? { request: advisory.request, ...(advisory.response ? { response: advisory.response } : {}) } : undefined);
      }
      const key = `${advisory.decision} ${advisory.operationId}`;
      if (!advisories.has(key)) advisories.set(key, advisory);
    },
    targetNow: () => knowledge.targetNow(),
    timeLeft: () => Math.max(0, deadline - performance.now()),
  };

  try {
    await preflight(ctx);
    const checks = FAMILY_BUILDERS.flatMap((build) => build(ctx)).filter((check) => options.families.includes(check.family))
      .filter((check) => options.checkIds.length === 0 || options.checkIds.some((id) => check.id.startsWith(id)));
    const outcomes = await runPool(checks, Math.max(1, Math.min(options.concurrency, 8)), async (check) => {
      options.onProgress?.({ type: 'check-start', check: check.id, family: check.family });
      const outcome = await runOne(ctx, check);
      options.onProgress?.({ type: 'check-end', outcome, requests: client.stats().requests });
      return outcome;
    });
    const all: (CheckOutcome & { extraFailures?: Failure[] })[] = [...outcomes, ...(judge ? await judge.outcomes() : [])];
    const failures = all.flatMap((o) => (o.failure ? [o.failure, ...(o.extraFailures ?? [])] : []));
    const stats = client.stats();
    if (stats.rateLimited > 0) {
      advisories.set('rate-limited', {
        decision: 'rate-limits',
        family: 'responses',
        operationId: '*',
        seed: '§8 "Rate limits ... not shown"',
        observed: `the target answered 429 Too Many Requests ${stats.rateLimited} times; each request was sent again after its Retry-After`,
        referenceBehaviour: 'no rate limit; lower --rate or --concurrency to stay under the target\'s',
      });
    }
    const targetDate = knowledge.targetDate();
    return {
      ok: failures.length === 0,
      target: options.baseUrl,
      seed: options.seed,
      strict: options.strict,
      startedAt,
      durationMs: performance.now() - started,
      validatorLoadMs: judge ? validatorLoadMs : 0,
      requests: stats.requests,
      writes: stats.writes,
      checks: all.map(({ extraFailures: _extra, ...outcome }) => outcome),
      failures,
      advisories: [...advisories.values()],
      ...(targetDate ? { targetDate } : {}),
    };
  } finally {
    await client.close();
  }
}

/** One request before anything else: an unreachable target or a refused key is a usage problem (exit 2), not a finding. */
async function preflight(ctx: CheckContext): Promise<void> {
  const list = listOperation(ctx) ?? ctx.operations[0];
  if (!list) return;
  try {
    const { response } = await ctx.send('responses', { method: list.method, path: list.path, operationId: list.operationId });
    if (response.status === 401 || response.status === 403) {
      throw new TargetUnreachableError(`the target refuses the API key (${response.status} on ${list.method} ${list.path}); check --api-key`);
    }
  } catch (error) {
    if (error instanceof TransportError) throw new TargetUnreachableError(`cannot reach ${ctx.options.baseUrl}: ${error.message}`);
    throw error;
  }
}

async function runOne(ctx: CheckContext, check: Check): Promise<CheckOutcome> {
  const started = performance.now();
  const base = { id: check.id, family: check.family, operationId: check.operationId, title: check.title, runs: 0 };
  if (check.writes && ctx.options.readOnly) return { ...base, status: 'skipped', note: 'writes; --read-only', durationMs: 0 };
  if (ctx.timeLeft() <= 0) return { ...base, status: 'skipped', note: 'time budget used up', durationMs: 0 };
  const outcome = await check.run(ctx);
  return { ...outcome, durationMs: performance.now() - started };
}
