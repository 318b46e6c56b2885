/**
 * Two shapes of check. A property check runs a fast-check property (shrunk to
 * a minimal failing request, with seed and path to replay it); an example
 * check runs a fixed scenario once. Both turn a thrown Violation into a
 * Failure value; nothing else escapes as an exception.
 */
import fc from 'fast-check';
import { RateLimited, TransportError, WriteBudgetExhausted, type WireRequest, type WireResponse } from './client.js';
import { showValue } from './show.js';
import { Violation, type Check, type CheckContext, type CheckOutcome, type Failure } from './vocabulary.js';

type Definition = Omit<Check, 'run'>;

/**
 * Thrown by a check that finds nothing to exercise (no pet to read under
 * --read-only, a key too short to look for): the check ends `not run` with
 * this reason, never `passed`.
 */
export class NothingToExercise extends Error {
  readonly code = 'nothing_to_exercise';
}

export interface PropertyDefinition<T> extends Definition {
  arbitrary(ctx: CheckContext): fc.Arbitrary<T>;
  /** Throws a Violation when the target breaks the requirement for `input`. */
  predicate(ctx: CheckContext, input: T): Promise<void>;
  /** Runs per property: the run's --runs by default. */
  runs?(ctx: CheckContext): number;
  /** Inputs always tried before the generated ones (one per class of input), so no class is left to chance. */
  examples?(ctx: CheckContext): T[];
}

export function propertyCheck<T>(definition: PropertyDefinition<T>): Check {
  const { arbitrary, predicate, runs: runsOf, examples, ...meta } = definition;
  return {
    ...meta,
    async run(ctx) {
      let last: Violation | undefined;
      let stop: string | undefined;
      let nothing: string | undefined;
      let limited: string | undefined;
      let runs = 0;
      const exampleList = examples ? examples(ctx).map((example) => [example] as [T]) : [];
      const details = await fc.check(
        fc.asyncProperty(arbitrary(ctx), async (input) => {
          // Once the target stops answering or the budget is spent, the
          // remaining runs (and shrinking) end at once.
          if (stop !== undefined) return true;
          runs++;
          try {
            await predicate(ctx, input);
            return true;
          } catch (error) {
            if (error instanceof WriteBudgetExhausted) {
              stop = `write budget used up after ${runs - 1} runs`;
              return true;
            }
            if (error instanceof RateLimited) {
              limited = error.message;
              stop = `rate limited after ${runs - 1} run${runs === 2 ? '' : 's'}: ${error.message}`;
              return true;
            }
            if (error instanceof NothingToExercise) {
              nothing = error.message;
              stop = error.message;
              return true;
            }
            last = error instanceof TransportError ? new Violation(`no valid HTTP answer: ${error.message}`, { request: error.request }) : toViolation(error);
            if (error instanceof TransportError) stop = 'the target stopped answering';
            throw last;
          }
        }),
        {
          seed: ctx.options.seed,
          // fast-check counts examples among numRuns and stops there: a
          // small --runs must not cut off a class of input.
          numRuns: Math.max(runsOf ? runsOf(ctx) : ctx.options.runs, exampleList.length),
          examples: exampleList,
          interruptAfterTimeLimit: Math.max(1, ctx.timeLeft()),
          markInterruptAsFailure: false,
        },
      );
      const base = { id: meta.id, family: meta.family, operationId: meta.operationId, title: meta.title, runs };
      // fast-check reports a property interrupted before any run succeeded as
      // failed, whatever markInterruptAsFailure says; with no violation seen,
      // the time budget ended it, so it is skipped, not failed.
      if (details.failed && details.interrupted && last === undefined && details.counterexample === null) {
        return { ...base, status: 'skipped', note: 'time budget used up before a run completed' };
      }
      if (!details.failed && nothing !== undefined) return { ...base, status: 'not run', note: nothing };
      // Not one run completed: nothing was checked, so it is not a pass either.
      if (!details.failed && limited !== undefined && runs === 1) return { ...base, status: 'skipped', note: `rate limited: ${limited}` };
      if (!details.failed) {
        const note = details.interrupted ? 'time budget reached' : stop;
        return { ...base, status: 'passed', ...(note ? { note } : {}) };
      }
      const violation = last ?? toViolation(details.errorInstance);
      return {
        ...base,
        status: 'failed',
        failure: failureOf(meta, violation, {
          counterexample: showValue(details.counterexample?.[0]),
          seed: details.seed,
          path: details.counterexamplePath ?? undefined,
        }),
      };
    },
  };
}

export interface ExampleDefinition extends Definition {
  /** Throws a Violation when the target breaks the requirement; may return a note. */
  scenario(ctx: CheckContext): Promise<string | void>;
}

export function exampleCheck(definition: ExampleDefinition): Check {
  const { scenario, ...meta } = definition;
  return {
    ...meta,
    async run(ctx): Promise<Omit<CheckOutcome, 'durationMs'>> {
      const base = { id: meta.id, family: meta.family, operationId: meta.operationId, title: meta.title, runs: 1 };
      try {
        const note = await scenario(ctx);
        return { ...base, status: 'passed', ...(note ? { note } : {}) };
      } catch (error) {
        if (error instanceof WriteBudgetExhausted) return { ...base, status: 'skipped', note: error.message };
        if (error instanceof RateLimited) return { ...base, status: 'skipped', note: `rate limited: ${error.message}` };
        if (error instanceof NothingToExercise) return { ...base, status: 'not run', note: error.message };
        const violation =
          error instanceof TransportError ? new Violation(`no valid HTTP answer: ${error.message}`, { request: error.request }) : toViolation(error);
        return { ...base, status: 'failed', failure: failureOf(meta, violation, {}) };
      }
    },
  };
}

function toViolation(error: unknown): Violation {
  if (error instanceof Violation) return error;
  return new Violation(`the check itself failed: ${(error as Error)?.message ?? String(error)}`);
}

function failureOf(meta: Definition, violation: Violation, extra: { counterexample?: string; seed?: number; path?: string | undefined }): Failure {
  return {
    checkId: meta.id,
    family: meta.family,
    operationId: meta.operationId,
    requirement: meta.requirement,
    seedSection: meta.seedSection,
    message: violation.setup ? `setup: ${violation.message}` : violation.message,
    ...(violation.setup ? { setup: true } : {}),
    ...(violation.exchange?.request ? { request: violation.exchange.request } : {}),
    ...(violation.exchange?.response ? { response: violation.exchange.response } : {}),
    ...(extra.counterexample !== undefined ? { counterexample: extra.counterexample } : {}),
    ...(extra.seed !== undefined ? { seed: extra.seed } : {}),
    ...(extra.path !== undefined ? { path: extra.path } : {}),
  };
}

type Sent = { request: WireRequest; response: WireResponse };

/** Fails unless the status is one of `allowed`; a 5xx is always named as a server error. */
export function expectStatus(sent: Sent, allowed: readonly number[], what: string): void {
  const { status } = sent.response;
  if (allowed.includes(status)) return;
  const server = status >= 500 ? ' (a server error: a conforming service never fails on client input)' : '';
  throw new Violation(`${what}: expected ${allowed.join(' or ')}, got ${status}${server}`, sent);
}

/** Fails unless the body is an Error object `{code, message, status}` with `status` equal to the HTTP status. */
export function expectErrorBody(sent: Sent): void {
  const problem = errorBodyProblem(sent.response);
  if (problem) throw new Violation(`the ${sent.response.status} answer has no valid Error body: ${problem}`, sent);
}

export function errorBodyProblem(response: WireResponse): string | undefined {
  const body = response.json;
  if (body === undefined) return response.text === '' ? 'the body is empty' : 'the body is not JSON';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body is not a JSON object';
  if (typeof body['code'] !== 'string') return '`code` is missing or not a string';
  if (typeof body['message'] !== 'string') return '`message` is missing or not a string';
  if (typeof body['status'] !== 'bigint') return '`status` is missing or not an integer';
  if (body['status'] !== BigInt(response.status)) return `\`status\` is ${body['status']} but the HTTP status is ${response.status}`;
  return undefined;
}
