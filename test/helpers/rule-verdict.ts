/**
 * What a rule over every answer (conformance/checks/rules.ts) makes of one
 * exchange, as a text a test can compare.
 */
import type { AnswerRule } from '../../conformance/checks/rules.js';
import type { Exchange } from '../../conformance/client.js';
import type { CheckContext } from '../../conformance/vocabulary.js';

/** undefined when the rule does not speak about the exchange, 'ok' when it finds nothing, else its problem (or `open: …`). */
export function ruleVerdict(rule: AnswerRule, exchange: Exchange, ctx: CheckContext): string | undefined {
  if (!rule.applies(exchange, ctx)) return undefined;
  const finding = rule.judge(exchange, ctx);
  if (finding === undefined) return 'ok';
  return 'problem' in finding ? finding.problem : `open: ${finding.open}`;
}
