/**
 * The rules that hold for every answer the run receives, whichever family
 * sent the request, on the operation as the spec spells it or off it, with
 * the key or without, through undici or written by hand: never a server
 * error, and an Error body on every 4xx. They are always on (no --families
 * or --checks turns them off), and no family grades what they find as an
 * advisory. What a correct target may answer instead is the tolerance table's
 * (tolerances.ts); an answer it excuses is counted under its row.
 */
import { errorBodyProblem } from '../check.js';
import { toleranceFor, type Tolerance, type UniversalRule } from '../tolerances.js';
import type { Check, CheckContext } from '../vocabulary.js';
import { ruleCheck, type AnswerRule } from './rules.js';

/** How many answers each row of the table excused, by row id. */
export type ToleratedCounts = Map<string, number>;

export function universalRules(table: readonly Tolerance[], tolerated: ToleratedCounts): AnswerRule[] {
  const excused = (rule: UniversalRule, ...[exchange, ctx]: Parameters<AnswerRule['judge']>): boolean => {
    const row = toleranceFor(table, rule, exchange, ctx.operations);
    if (row) tolerated.set(row.id, (tolerated.get(row.id) ?? 0) + 1);
    return row !== undefined;
  };
  return [
    {
      id: 'responses.no-server-error',
      family: 'responses',
      title: 'no answer of the run, to any request however formed, is a server error',
      requirement:
        "A conforming service never fails on what a client sends: every request the run sends, valid or not, with or without a key, gets a 2xx, 3xx or 4xx (seed §7: the 4xx are the client's errors; RFC 9110 §15.6: a 5xx says the server failed). What an RFC lets a server answer with a 5xx is in the tolerance table.",
      section: 'seed §7; RFC 9110 §15.6',
      // Every answer is one it speaks about: a run whose answers held no 5xx passed it.
      applies: () => true,
      judge(exchange, ctx) {
        if (exchange.response.status < 500 || excused('no-server-error', exchange, ctx)) return undefined;
        const { request, response } = exchange;
        return {
          problem: `${request.method} ${request.path} was answered ${response.status}, a server error`,
          kind: `${response.status} ${request.operationId}`,
        };
      },
    },
    {
      id: 'responses.error-body',
      family: 'responses',
      title: 'every 4xx answer of the run carries the Error body {code, message, status}',
      requirement:
        "Every error response carries the Error body {code, message, status}, with status equal to the HTTP status (seed §7), whichever request it refuses: an invalid one, one without a key, one with a precondition or a range. What a correct target may answer without it (HEAD, its HTTP stack's refusal of unparsable bytes, paths the interface does not have) is in the tolerance table.",
      section: 'seed §7',
      applies: () => true,
      judge(exchange, ctx) {
        if (exchange.response.status < 400 || exchange.response.status >= 500) return undefined;
        const problem = errorBodyProblem(exchange.response);
        if (problem === undefined || excused('error-body', exchange, ctx)) return undefined;
        const { request, response } = exchange;
        return {
          problem: `the ${response.status} answer to ${request.method} ${request.path} has no valid Error body: ${problem}`,
          kind: `${response.status} ${problem}`,
        };
      },
    },
  ];
}

/** The rules as checks of a run, registered on its client now. */
export function universalChecks(ctx: CheckContext, table: readonly Tolerance[], tolerated: ToleratedCounts): Check[] {
  return universalRules(table, tolerated).map((rule) => ruleCheck(rule, ctx));
}
