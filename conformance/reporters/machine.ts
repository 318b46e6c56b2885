/**
 * Reports for CI: JSON (the result itself), TAP 14 and JUnit XML. Each check
 * is one test; a failure carries the requirement, message and replay line.
 * The API key is removed from every report.
 */
import type { Secrets } from '../key-forms.js';
import { describeConnection } from './connection.js';
import type { CheckOutcome, ConformanceResult } from '../vocabulary.js';
import { describeCounts, verdictOf } from '../outcomes.js';
import { cut } from '../show.js';
import { curlCommand, redactDeep } from './replay.js';

/**
 * The result as JSON, integers with every digit: a bigint (an int64 from a
 * body) is written as a JSON number, never a string and never rounded.
 * JSON.stringify cannot write one, so it writes a marker that is then
 * replaced by the digits.
 */
export function renderJson(result: ConformanceResult, secrets: Secrets): string {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(redactDeep(result, secrets), (_key, value) => (typeof value === 'bigint' ? `${marker}${value}` : value), 2);
  return `${text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1')}\n`;
}

/** `check` is from the redacted result; the replay line is built from `original`'s request, the key read from the environment. */
function failureText(check: CheckOutcome, original: CheckOutcome, result: ConformanceResult, secrets: Secrets): string {
  const f = check.failure;
  const request = original.failure?.request;
  if (!f) return '';
  return [
    `${f.message}`,
    `requirement (${f.seedSection}): ${f.requirement}`,
    f.cause ? `cause (${f.cause}): ${result.causes.find((c) => c.id === f.cause)?.summary ?? ''}` : '',
    f.counterexample !== undefined ? `minimal input: ${f.counterexample}` : '',
    f.response ? `response: ${f.response.status} ${cut(f.response.text, 500)}` : '',
    request ? `replay: ${curlCommand(result.target, request, secrets)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export function renderTap(original: ConformanceResult, secrets: Secrets): string {
  const result = redactDeep(original, secrets);
  const connection = describeConnection(result.connection);
  const lines = [
    'TAP version 14',
    `# petstore conform ${result.target} seed ${result.seed}`,
    ...(connection ? [`# reached ${connection}`] : []),
    `1..${result.checks.length}`,
  ];
  result.checks.forEach((check, i) => {
    const name = `${check.id} - ${check.title}`.replace(/#/g, '\\#');
    if (check.status === 'skipped') lines.push(`ok ${i + 1} - ${name} # SKIP ${check.note ?? ''}`);
    else if (check.status === 'not run') lines.push(`ok ${i + 1} - ${name} # SKIP not run: ${check.note ?? 'nothing to exercise'}`);
    else if (check.status === 'passed') lines.push(`ok ${i + 1} - ${name}`);
    else if (check.status === 'advisory')
      lines.push(`ok ${i + 1} - ${name}`, '# advisory: it passed, and saw behaviour the seed leaves open (see the advisories below)');
    else {
      lines.push(`not ok ${i + 1} - ${name}`, '  ---');
      for (const line of failureText(check, original.checks[i] as CheckOutcome, original, secrets).split('\n')) lines.push(`  # ${line}`);
      lines.push('  ...');
    }
  });
  for (const c of result.causes) lines.push(`# ${c.id}: ${c.summary} (explains ${c.failures} failures of ${c.checkIds.join(', ')})`);
  for (const a of result.advisories) lines.push(`# advisory [${a.family}] ${a.operationId}: ${a.observed}`);
  lines.push(`# ${verdictOf(result)}: ${describeCounts(result.counts)}`);
  return `${lines.join('\n')}\n`;
}

// XML 1.0 §2.2 Char: no C0 controls but tab, LF and CR, no U+FFFE/U+FFFF and no
// lone surrogate; a surrogate pair (an astral character such as 🐢) is kept.
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function xml(text: string): string {
  return text.replace(NOT_XML_CHAR, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function renderJunit(original: ConformanceResult, secrets: Secrets): string {
  const result = redactDeep(original, secrets);
  const families = [...new Set(result.checks.map((c) => c.family))];
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="petstore conform" tests="${result.checks.length}" failures="${result.counts.failed}" skipped="${result.counts.skipped + result.counts['not run']}" time="${(result.durationMs / 1000).toFixed(3)}">`,
  ];
  const connection = describeConnection(result.connection);
  // JUnit has no place for a run's own data but a comment or a suite's properties: every suite below gets it as a property.
  const connectionProperty = connection ? `      <property name="connection" value="${xml(connection)}"/>` : undefined;
  for (const family of families) {
    const checks = result.checks.filter((c) => c.family === family);
    out.push(
      `  <testsuite name="${xml(family)}" tests="${checks.length}" failures="${checks.filter((c) => c.status === 'failed').length}" skipped="${checks.filter((c) => c.status === 'skipped' || c.status === 'not run').length}">`,
    );
    // The coverage of the operations this suite's checks concern, as properties (JUnit's place for data about a run).
    const properties: string[] = [];
    for (const op of result.coverage.operations.filter((o) => checks.some((c) => c.operationId.split('+').includes(o.operationId)))) {
      const property = (name: string, value: string | number) =>
        properties.push(`      <property name="${xml(`coverage.${op.operationId}.${name}`)}" value="${xml(String(value))}"/>`);
      property('requests', op.requests);
      for (const s of op.statuses) property(`status.${s.status}`, `${s.count}${s.declared ? '' : ' (undeclared)'}`);
      property('declared-never-seen', op.neverObserved.join(', ') || 'none');
      for (const input of op.inputs) property(`input.${input.dimension}`, input.classes.map((c) => `${c.value} ×${c.count}`).join('; '));
    }
    if (connectionProperty) properties.unshift(connectionProperty);
    if (properties.length) out.push('    <properties>', ...properties, '    </properties>');
    for (const check of checks) {
      const originalCheck = original.checks[result.checks.indexOf(check)] as CheckOutcome;
      out.push(`    <testcase classname="${xml(`${family}.${check.operationId}`)}" name="${xml(check.title)}" time="${(check.durationMs / 1000).toFixed(3)}">`);
      if (check.status === 'skipped') out.push(`      <skipped message="${xml(check.note ?? '')}"/>`);
      if (check.status === 'not run') out.push(`      <skipped message="${xml(`not run: ${check.note ?? 'nothing to exercise'}`)}"/>`);
      if (check.status === 'advisory')
        out.push('      <system-out>advisory: it passed, and saw behaviour the seed leaves open (see the advisories of the run)</system-out>');
      if (check.failure)
        out.push(`      <failure message="${xml(check.failure.message)}">${xml(failureText(check, originalCheck, original, secrets))}</failure>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
