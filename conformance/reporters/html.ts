/**
 * The report for people, as one self-contained HTML file: a CI artifact
 * viewer or a browser opens it as it is, with no network access (no script,
 * font or style from elsewhere; the little style it has is inline). The
 * summary, each failure with its requirement, request, response, replay and
 * rerun lines, the advisories, what was skipped or not run and why, every
 * check, and the coverage map. The key is removed as in every report.
 */
import type { Secrets } from '../key-forms.js';
import { describeConnection } from './connection.js';
import type { Coverage } from '../coverage.js';
import { describeCounts, verdictOf } from '../outcomes.js';
import { cut } from '../show.js';
import { CHECK_STATUSES, type CheckOutcome, type ConformanceResult, type Failure } from '../vocabulary.js';
import { curlCommand, redactDeep, rerunCommand } from './replay.js';

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const STYLE = `
:root { color-scheme: light dark; --fail: #c62828; --pass: #2e7d32; --warn: #b26a00; --muted: #666; --line: #ccc8; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 1rem; max-width: 70rem; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; } h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); }
.verdict { display: inline-block; padding: .1rem .6rem; border-radius: .3rem; color: #fff; font-weight: 700; }
.verdict.PASS { background: var(--pass); } .verdict.FAIL { background: var(--fail); } .verdict.NOTHING { background: var(--warn); }
.counts { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; padding: 0; list-style: none; }
.counts li { border: 1px solid var(--line); border-radius: .3rem; padding: .25rem .6rem; }
.counts b { font-size: 1.2rem; }
.meta { color: var(--muted); overflow-wrap: anywhere; }
.connection { border-left: .25rem solid var(--muted); padding-left: .5rem; overflow-wrap: anywhere; } .connection.insecure { border-color: var(--fail); font-weight: 700; }
.failure, .cause { border-left: 4px solid var(--fail); padding: .25rem .75rem; margin: 1rem 0; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #8881; padding: .5rem; border-radius: .3rem; margin: .25rem 0; font-size: .85rem; }
table { border-collapse: collapse; width: 100%; } td, th { text-align: left; vertical-align: top; padding: .3rem .4rem; border-bottom: 1px solid var(--line); }
.status-failed { color: var(--fail); font-weight: 700; } .status-passed { color: var(--pass); } .status-advisory { color: var(--warn); }
.status-skipped, .status-not-run { color: var(--muted); }
.never { color: var(--fail); font-weight: 700; } .undeclared { color: var(--warn); }
.scroll { overflow-x: auto; }
@media (max-width: 40rem) { body { font-size: 14px; padding: .5rem; } td, th { padding: .25rem; } .hide-narrow { display: none; } }
`;

export function renderHtml(original: ConformanceResult, secrets: Secrets): string {
  const result = redactDeep(original, secrets);
  const verdict = verdictOf(result);
  const body = [
    `<h1>petstore conform <span class="verdict ${verdict.split(' ')[0]}">${verdict}</span></h1>`,
    `<p class="meta">${escapeHtml(result.target)} · seed ${result.seed}${result.strict ? ' · --strict' : ''} · ${result.requests} requests (${result.writes} writes) in ${(result.durationMs / 1000).toFixed(1)} s · started ${escapeHtml(result.startedAt)}${result.targetDate ? ` · target clock ${escapeHtml(result.targetDate)}` : ''}</p>`,
    ...(describeConnection(result.connection)
      ? [
          `<p class="connection${result.connection?.insecure ? ' insecure' : ''}" id="connection">Reached ${escapeHtml(describeConnection(result.connection)!)}</p>`,
        ]
      : []),
    `<ul class="counts" id="counts">${CHECK_STATUSES.map((s) => `<li class="status-${s.replace(' ', '-')}" data-status="${s}"><b>${result.counts[s]}</b> ${s}</li>`).join('')}</ul>`,
    `<p>${escapeHtml(describeCounts(result.counts))}</p>`,
    causesSection(result),
    failuresSection(result, original, secrets),
    advisoriesSection(result),
    setAsideSection(result.checks),
    checksSection(result.checks),
    coverageSection(result.coverage),
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>petstore conform: ${verdict}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** The defects that explain several failures each, before the failures themselves. */
function causesSection(result: ConformanceResult): string {
  if (result.causes.length === 0) return '';
  const items = result.causes.map(
    (c) =>
      `<section class="cause" id="${escapeHtml(c.id)}"><h3>${escapeHtml(c.summary)}</h3><p>Explains ${c.failures} failure${c.failures === 1 ? '' : 's'} of ${c.checkIds.map((id) => `<code>${escapeHtml(id)}</code>`).join(', ')}.</p><pre>${escapeHtml(cut(c.evidence, 2000))}</pre></section>`,
  );
  return `<h2 id="causes">Causes (${result.causes.length})</h2>\n${items.join('\n')}`;
}

function failuresSection(result: ConformanceResult, original: ConformanceResult, secrets: Secrets): string {
  if (result.failures.length === 0) return '<h2 id="failures">Failures</h2><p>None.</p>';
  const items = result.failures.map((f, i) => failureBlock(f, original.failures[i] as Failure, i + 1, result, original.target, secrets));
  return `<h2 id="failures">Failures (${result.failures.length})</h2>\n${items.join('\n')}`;
}

/** `failure` is redacted; the replay line is built from the original request, the key read from the environment. */
function failureBlock(failure: Failure, original: Failure, index: number, result: ConformanceResult, target: string, secrets: Secrets): string {
  const parts = [
    `<section class="failure" data-check="${escapeHtml(failure.checkId)}">`,
    `<h3>${index}) [${escapeHtml(failure.family)}] ${escapeHtml(failure.operationId)}: ${escapeHtml(failure.message)}${failure.occurrences && failure.occurrences > 1 ? ` (seen ${failure.occurrences} times)` : ''}${failure.cause ? ` <a href="#${escapeHtml(failure.cause)}">[${escapeHtml(failure.cause)}]</a>` : ''}</h3>`,
    `<p><b>Requirement</b> (${escapeHtml(failure.seedSection)}): ${escapeHtml(failure.requirement)}</p>`,
  ];
  if (failure.counterexample !== undefined) parts.push(`<p><b>Minimal input</b></p><pre>${escapeHtml(cut(failure.counterexample, 2000))}</pre>`);
  if (failure.request) {
    const headers = Object.entries(failure.request.headers).flatMap(([name, values]) => [values].flat().map((v) => `${name}: ${v}`));
    parts.push(
      `<p><b>Request</b></p><pre>${escapeHtml([`${failure.request.method} ${failure.request.path}`, ...headers, ...(failure.request.body !== undefined ? ['', cut(failure.request.body, 4000)] : [])].join('\n'))}</pre>`,
    );
  }
  if (failure.response) {
    const headers = Object.entries(failure.response.headers).map(([name, value]) => `${name}: ${value}`);
    parts.push(
      `<p><b>Response</b></p><pre>${escapeHtml([String(failure.response.status), ...headers, '', failure.response.text === '' ? '(empty body)' : cut(failure.response.text, 4000)].join('\n'))}</pre>`,
    );
  }
  if (original.request) parts.push(`<p><b>Replay</b></p><pre class="replay">${escapeHtml(curlCommand(target, original.request, secrets))}</pre>`);
  if (failure.seed !== undefined)
    parts.push(
      `<p><b>Rerun</b></p><pre class="rerun">${escapeHtml(rerunCommand(result.target, failure.checkId, failure.seed, result.connection?.rerunOptions))}</pre>`,
    );
  parts.push('</section>');
  return parts.join('\n');
}

function advisoriesSection(result: ConformanceResult): string {
  if (result.advisories.length === 0) return '';
  const rows = result.advisories.map(
    (a) =>
      `<li><b>[${escapeHtml(a.family)}] ${escapeHtml(a.operationId)}</b>: ${escapeHtml(a.observed)}. <i>This project:</i> ${escapeHtml(a.referenceBehaviour)}. <i>Seed:</i> ${escapeHtml(a.seed)}</li>`,
  );
  return `<h2 id="advisories">Advisories (${result.advisories.length})</h2>\n<p>The seed leaves these open: not failures${result.strict ? '' : '; --strict makes them requirements'}.</p>\n<ul>${rows.join('\n')}</ul>`;
}

function setAsideSection(checks: readonly CheckOutcome[]): string {
  const aside = checks.filter((c) => c.status === 'skipped' || c.status === 'not run');
  if (aside.length === 0) return '';
  const rows = aside.map(
    (c) => `<tr><td class="status-${c.status.replace(' ', '-')}">${c.status}</td><td>${escapeHtml(c.id)}</td><td>${escapeHtml(c.note ?? '')}</td></tr>`,
  );
  return `<h2 id="set-aside">Skipped and not run (${aside.length})</h2>\n<div class="scroll"><table><thead><tr><th>outcome</th><th>check</th><th>why</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function checksSection(checks: readonly CheckOutcome[]): string {
  const rows = checks.map(
    (c) =>
      `<tr data-check="${escapeHtml(c.id)}"><td class="status-${c.status.replace(' ', '-')}">${c.status}</td><td>${escapeHtml(c.family)}</td><td>${escapeHtml(c.operationId)}: ${escapeHtml(c.title)}${c.note ? ` <span class="meta">(${escapeHtml(c.note)})</span>` : ''}</td><td class="hide-narrow">${c.requests ?? ''}</td></tr>`,
  );
  return `<h2 id="checks">Checks (${checks.length})</h2>\n<div class="scroll"><table><thead><tr><th>outcome</th><th>family</th><th>requirement</th><th class="hide-narrow">requests</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function coverageSection(coverage: Coverage): string {
  const blocks = coverage.operations.map((op) => {
    const statuses =
      op.statuses.map((s) => `<span class="${s.declared ? '' : 'undeclared'}">${s.status}${s.declared ? '' : ' (undeclared)'} ×${s.count}</span>`).join(', ') ||
      'none';
    const never = op.neverObserved.length ? `<span class="never">${op.neverObserved.join(', ')}</span>` : '—';
    const inputs = op.inputs
      .map((i) => `<tr><td>${escapeHtml(i.dimension)}</td><td>${i.classes.map((c) => `${escapeHtml(c.value)} ×${c.count}`).join(', ')}</td></tr>`)
      .join('');
    return [
      `<h3 id="coverage-${escapeHtml(op.operationId)}">${escapeHtml(op.operationId)} <span class="meta">${escapeHtml(op.method)} ${escapeHtml(op.path)}</span></h3>`,
      `<div class="scroll"><table class="coverage" data-operation="${escapeHtml(op.operationId)}"><tbody>`,
      `<tr><th>requests</th><td class="requests">${op.requests}</td></tr>`,
      `<tr><th>statuses seen</th><td>${statuses}</td></tr>`,
      `<tr><th>declared, never seen</th><td>${never}</td></tr>`,
      inputs,
      '</tbody></table></div>',
    ].join('\n');
  });
  return `<h2 id="coverage">Coverage</h2>\n<p>What the run actually sent and saw, per operation.</p>\n${blocks.join('\n')}`;
}
