/**
 * responses (seed §4, §7): every answer to an operation as the spec spells
 * it, whatever family asked, is judged here: a status the spec declares for
 * the operation (or a 4xx error), `application/json`, and a body that
 * matches the spec (Prism and the exact int64 validator). The server errors
 * and the Error body of every 4xx are the universal rules' (universal.ts),
 * which judge every answer of the run. Problems are grouped per operation and
 * kind, with the first exchange kept.
 */
import type { OperationDescriptor } from '../../spec/operations.js';
import { errorBodyProblem } from '../check.js';
import type { Exchange } from '../client.js';
import type { ResponseValidator } from '../response-validator.js';
import type { CheckOutcome, Failure } from '../vocabulary.js';

/** What every answer of an operation as the spec spells it must be: said once, for the run's judge and the proxy's. */
export const RESPONSES_REQUIREMENT =
  'All bodies are application/json (§4); every error response carries the Error body {code, message, status} (§7); the statuses are those of §4.';
export const RESPONSES_SECTION = '§4 Endpoints, §7 Errors';

export interface ResponseJudge {
  observe(exchange: Exchange): void;
  /** The verdicts, once every response observed so far has been judged. */
  outcomes(): Promise<CheckOutcome[]>;
}

export function createResponseJudge(operations: readonly OperationDescriptor[], validator: ResponseValidator): ResponseJudge {
  const seen = new Map<string, number>();
  const problems = new Map<string, { failure: Failure; count: number }>();
  const byId = new Map(operations.map((op) => [op.operationId, op]));

  const judging: Promise<void>[] = [];

  function record(op: OperationDescriptor, exchange: Exchange, message: string): void {
    // Group by operation, status and the problem's wording without its numbers.
    const key = `${op.operationId} ${exchange.response.status} ${message.replace(/-?\d+/g, 'N')}`;
    const entry = problems.get(key);
    if (entry) entry.count++;
    else {
      problems.set(key, {
        count: 1,
        failure: {
          checkId: `responses.${op.operationId}`,
          family: 'responses',
          operationId: op.operationId,
          requirement: RESPONSES_REQUIREMENT,
          seedSection: RESPONSES_SECTION,
          message,
          request: exchange.request,
          response: exchange.response,
        },
      });
    }
  }

  return {
    observe(exchange) {
      const op = byId.get(exchange.request.operationId);
      if (!op || exchange.request.offSpec) return;
      seen.set(op.operationId, (seen.get(op.operationId) ?? 0) + 1);
      const found = problemsOf(op, exchange);
      for (const message of found) record(op, exchange, message);
      if (!op.responses.some((r) => r.status === exchange.response.status)) return;
      // An error answer without the Error body is the universal rule's to report, once, not again in Prism's words.
      if (exchange.response.status >= 400 && errorBodyProblem(exchange.response) !== undefined) return;
      const contentTypeReported = found.some((o) => o.startsWith('Content-Type'));
      judging.push(
        validator.judge(op, exchange.response).then((verdicts) => {
          for (const message of verdicts) {
            // A wrong media type is reported once, in our words, not again in Prism's.
            if (contentTypeReported && /media type|content-type/i.test(message)) continue;
            record(op, exchange, message);
          }
        }),
      );
    },
    async outcomes() {
      await Promise.all(judging);
      return operations.map((op) => {
        const failures = [...problems.values()].filter((p) => p.failure.operationId === op.operationId);
        const base = {
          id: `responses.${op.operationId}`,
          family: 'responses' as const,
          operationId: op.operationId,
          title: `every answer of ${op.operationId} conforms to the spec (status, Content-Type, body)`,
          runs: seen.get(op.operationId) ?? 0,
          requests: seen.get(op.operationId) ?? 0,
          durationMs: 0,
        };
        if (base.runs === 0) return { ...base, status: 'not run' as const, note: `no answer of ${op.operationId} was seen (no check sent it a request)` };
        if (failures.length === 0) return { ...base, status: 'passed' as const };
        const first = failures[0]!;
        const more = failures.length > 1 ? ` (and ${failures.length - 1} other kind${failures.length > 2 ? 's' : ''} of problem)` : '';
        return {
          ...base,
          status: 'failed' as const,
          failure: { ...first.failure, message: first.failure.message + more, occurrences: first.count },
          extraFailures: failures.slice(1).map((f) => ({ ...f.failure, occurrences: f.count })),
        };
      });
    },
  };
}

/** What is wrong with one answer by itself: a redirect, an undeclared success, the media type. */
export function problemsOf(op: OperationDescriptor, exchange: Exchange): string[] {
  const { response } = exchange;
  const out: string[] = [];
  const declared = op.responses.find((r) => r.status === response.status);
  if (response.status >= 300 && response.status < 400) {
    out.push(
      `a ${response.status} redirect${response.headers['location'] ? ` to ${response.headers['location']}` : ''}: the spec declares none, and the suite never follows one (the API key would travel with it)`,
    );
  } else if (!declared && response.status < 400) {
    out.push(`status ${response.status} is not one the spec declares for ${op.operationId} (${op.responses.map((r) => r.status).join(', ')})`);
  }
  const hasBody = response.text.length > 0;
  const type = response.headers['content-type'];
  if (hasBody && (!type || type.split(';')[0]!.trim().toLowerCase() !== 'application/json')) {
    out.push(`Content-Type is ${type ?? '(absent)'}, not application/json`);
  }
  return out;
}
