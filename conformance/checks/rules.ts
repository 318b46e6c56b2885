/**
 * Rules that hold for every answer, whatever asked for it: each is judged on
 * every exchange of the run (every family's requests, on-spec and off-spec,
 * with the key and without), so it catches what no list of requests
 * foresees. A rule says which exchanges it speaks about and what in one of
 * them breaks it; its verdict is a check of its own, given once every other
 * check has ended. Problems are grouped by their wording (numbers aside),
 * with the first exchange that showed each kept for the report.
 */
import type { Exchange } from '../client.js';
import type { Check, CheckContext, Failure, Family } from '../vocabulary.js';

/** What is wrong with one exchange (a failure), or what the standards leave to the server and this project decided otherwise (an advisory). */
export type RuleFinding =
  | {
      readonly problem: string;
      /** What makes two problems the same (they are reported once, with a count); by default the wording, numbers aside. */
      readonly kind?: string;
    }
  | {
      readonly open: string;
      /** The decision's key in docs/decisions.md or the standard's words that leave it open. */
      readonly decision: string;
      readonly seed: string;
      readonly reference: string;
    };

/** What makes two problems one: the rule's own kind, or the wording with its numbers taken out. */
export function problemKind(finding: Extract<RuleFinding, { problem: string }>): string {
  return finding.kind ?? finding.problem.replace(/-?\d+/g, 'N');
}

export interface AnswerRule {
  /** The check id: `<family>.<name>`. */
  readonly id: string;
  readonly family: Family;
  readonly title: string;
  readonly requirement: string;
  /** The section of the standard (and of the seed) it comes from. */
  readonly section: string;
  /** Whether the exchange is one the rule speaks about. */
  applies(exchange: Exchange, ctx: CheckContext): boolean;
  judge(exchange: Exchange, ctx: CheckContext): RuleFinding | undefined;
}

/** Registers `rule` on the run's client now, and returns the check that reports what it saw. */
export function ruleCheck(rule: AnswerRule, ctx: CheckContext): Check {
  let applied = 0;
  const problems = new Map<string, { exchange: Exchange; message: string; count: number }>();
  const open = new Map<string, { exchange: Exchange; finding: Extract<RuleFinding, { open: string }> }>();
  ctx.client.observe((exchange) => {
    if (!rule.applies(exchange, ctx)) return;
    applied++;
    const finding = rule.judge(exchange, ctx);
    if (finding === undefined) return;
    if ('problem' in finding) {
      const key = problemKind(finding);
      const seen = problems.get(key);
      if (seen) seen.count++;
      else problems.set(key, { exchange, message: finding.problem, count: 1 });
    } else if (!open.has(finding.decision)) open.set(finding.decision, { exchange, finding });
  });
  return {
    id: rule.id,
    family: rule.family,
    operationId: '*',
    title: rule.title,
    requirement: rule.requirement,
    seedSection: rule.section,
    writes: false,
    afterAll: true,
    async run(c) {
      const base = { id: rule.id, family: rule.family, operationId: '*', title: rule.title, runs: applied, requests: applied };
      if (applied === 0) return { ...base, status: 'not run', note: 'no answer of the run was one this rule speaks about' };
      const failures: Failure[] = [...problems.values()].map(({ exchange, message, count }) => ({
        checkId: rule.id,
        family: rule.family,
        operationId: exchange.request.operationId,
        requirement: rule.requirement,
        seedSection: rule.section,
        message,
        request: exchange.request,
        response: exchange.response,
        occurrences: count,
      }));
      for (const { exchange, finding } of open.values()) {
        const advisory = {
          decision: finding.decision,
          family: rule.family,
          operationId: exchange.request.operationId,
          seed: finding.seed,
          observed: finding.open,
          referenceBehaviour: finding.reference,
          request: exchange.request,
          response: exchange.response,
        };
        if (!c.options.strict) c.unspecified(advisory, false);
        else
          failures.push({
            checkId: rule.id,
            family: rule.family,
            operationId: exchange.request.operationId,
            requirement: rule.requirement,
            seedSection: rule.section,
            message: `${finding.open}; --strict requires this project's decision: ${finding.reference} (left open: ${finding.seed})`,
            request: exchange.request,
            response: exchange.response,
          });
      }
      if (failures.length === 0) return { ...base, status: 'passed' };
      const [first, ...rest] = failures as [Failure, ...Failure[]];
      const more = rest.length > 0 ? ` (and ${rest.length} other kind${rest.length > 1 ? 's' : ''} of problem)` : '';
      return { ...base, status: 'failed', failure: { ...first, message: first.message + more }, extraFailures: rest };
    },
  };
}
