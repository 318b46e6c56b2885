/**
 * The upstream's side of an exchange, judged: each problem the suite's
 * single-exchange rules find (conformance/passive) becomes a server finding
 * in the same ledger as the client's, with the same shape, so it is listed,
 * counted, logged and reported wherever the client's are.
 */
import type { OperationDescriptor } from '../spec/operations.js';
import { type PassedExchange, type PassiveFinding, type PassiveJudge, readPassedBody } from '../conformance/index.js';
import type { Exchange, FindingDraft, FindingLedger } from '../src/index.js';
import type { Passed, ProxyError } from './exchange.js';

export interface VerdictOptions {
  readonly ledger: FindingLedger;
  readonly judge: PassiveJudge;
  readonly operations: readonly OperationDescriptor[];
  readonly basePath: string;
  /** `--errors`: an answer that breaks a rule is replaced by a 502 naming it. */
  readonly errors: boolean;
}

export function createVerdicts({ ledger, judge, operations, basePath, errors }: VerdictOptions) {
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const note = (x: Exchange, status: number, found: PassiveFinding) => ledger.note(x, serverDraft(found, status, byId.get(found.operationId ?? '')));

  /** What the judge is given of an exchange inside the interface, its body read: the proxy takes its JSON too. */
  const passedExchange = (passed: Passed): PassedExchange => {
    const responseHeaders = headerRecord(passed.responseHeaders);
    return {
      method: passed.method,
      path: passed.target.slice(basePath.length) || '/',
      requestHeaders: passed.requestHeaders,
      ...(passed.requestBody === undefined ? {} : { requestBody: passed.requestBody }),
      status: passed.status,
      responseHeaders,
      responseBody: passed.responseBody,
      durationMs: passed.durationMs,
      read: readPassedBody(passed.responseBody, responseHeaders['content-encoding']),
    };
  };

  return {
    passedExchange,

    /** Notes what the judge finds of `passed` (made into `exchange` by passedExchange, unless given). */
    judge(x: Exchange, passed: Passed, exchange?: PassedExchange): ProxyError | undefined {
      if (passed.outside) return undefined;
      const found = judge.judge(exchange ?? passedExchange(passed));
      for (const one of found) note(x, passed.status, one);
      const broken = errors ? found.find((one) => one.severity === 'error') : undefined;
      if (broken === undefined) return undefined;
      return {
        status: 502,
        code: 'nonconforming_upstream',
        message: `the upstream answered ${passed.status}, which breaks ${broken.rule} (${broken.section}): ${broken.problem}`,
      };
    },

    unreachable(x: Exchange, _passed: Pick<Passed, 'method' | 'target'>, error: ProxyError): void {
      note(x, error.status, {
        rule: error.code === 'gateway_timeout' ? 'proxy.upstream-timeout' : 'proxy.upstream-unreachable',
        severity: 'error',
        requirement: 'The upstream answers every request the proxy passes on, in time (--timeout).',
        section: 'RFC 9110 §15.6.3, §15.6.5',
        problem: error.message,
        kind: error.code,
        ...(x.operation ? { operationId: x.operation.operationId } : {}),
      });
    },

    unjudged(x: Exchange, status: number): void {
      note(x, status, {
        rule: 'proxy.unjudged',
        severity: 'warning',
        requirement: 'An answer larger than --max-judged-bytes is passed on as it comes, without being judged.',
        section: 'petstore proxy',
        problem: `the ${status} answer was larger than the proxy judges, and was passed on unjudged`,
        kind: 'too large',
        ...(x.operation ? { operationId: x.operation.operationId } : {}),
      });
    },
  };
}

/** A finding of the suite's rules, as the ledger keeps it: `rule` points at the operation's answers in the spec. */
function serverDraft(found: PassiveFinding, status: number, op: OperationDescriptor | undefined): FindingDraft {
  const rule = op ? `/paths/${pointerToken(op.path)}/${op.method.toLowerCase()}/responses` : '/paths';
  return {
    code: found.rule as FindingDraft['code'],
    side: 'server',
    severity: found.severity,
    rule,
    subject: `${found.rule} ${found.kind}`,
    seed: found.section,
    ...(found.operationId === undefined ? {} : { operationId: found.operationId }),
    sent: `${status}: ${found.problem}`,
    expected: found.requirement,
    message: `The upstream's answer breaks ${found.rule}: ${found.problem}`,
    status,
  };
}

/** RFC 6901: `~` and `/` escaped in a JSON pointer's token. */
function pointerToken(text: string): string {
  return text.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** A header list as a record: lower-case names, a repeated field's values joined with ", " (set-cookie's kept apart by "\n"). */
function headerRecord(list: readonly (string | number)[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i < list.length; i += 2) {
    const name = String(list[i]).toLowerCase();
    const value = String(list[i + 1]);
    const had = record[name];
    record[name] = had === undefined ? value : `${had}${name === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  return record;
}
