/**
 * Findings as a developer reads them in a failed test or a terminal, and the
 * check a client's test suite runs after each test.
 */
import type { Finding, Severity } from './finding.js';

/** Findings a test suite accepts: by code (`deprecated_operation`), by rule (a JSON pointer), or by a predicate. */
export type AllowedFinding = string | ((finding: Finding) => boolean);

export interface AssertOptions {
  /** Findings that do not fail the check. */
  readonly allow?: readonly AllowedFinding[];
}

/** Thrown by assertNoFindings: its message lists every finding; `findings` holds them. */
export class FindingsError extends Error {
  readonly code = 'petstore_findings';
  constructor(readonly findings: readonly Finding[]) {
    super(describeFindings(findings));
    this.name = 'FindingsError';
  }
}

export function isAllowed(finding: Finding, allow: readonly AllowedFinding[]): boolean {
  return allow.some((a) => (typeof a === 'function' ? a(finding) : a === finding.code || a === finding.rule));
}

/** The findings not allowed; throws a FindingsError listing them when there are any. */
export function assertNoFindings(findings: readonly Finding[], options: AssertOptions = {}): void {
  const left = findings.filter((f) => !isAllowed(f, options.allow ?? []));
  if (left.length > 0) throw new FindingsError(left);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Every finding, one paragraph each, errors first; a heading counts them. */
export function describeFindings(findings: readonly Finding[]): string {
  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  const ordered = [...findings].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  const heading = `the stand-in saw ${plural(findings.length, 'finding')} in what the client sent (${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}):`;
  return [heading, ...ordered.map(describeFinding)].join('\n');
}

export function describeFinding(f: Finding): string {
  const times = f.count === 1 ? 'once' : `${f.count} times`;
  const requests = f.count === 1 ? `request ${f.first.request}` : `requests ${f.first.request} (first) to ${f.last.request} (last)`;
  return [
    `- ${f.severity} ${f.code}${f.status ? ` (answered ${f.status})` : ''}: ${f.message}`,
    `    sent:     ${f.sent}`,
    `    expected: ${f.expected}`,
    `    where:    ${f.first.method} ${f.first.target}, ${times}: ${requests} in the journal`,
    `    rule:     ${f.rule} in spec/openapi.json (seed ${f.seed})`,
  ].join('\n');
}
