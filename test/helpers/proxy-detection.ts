/**
 * Detection behind the proxy (issue 48, "Measured → Detection"): `petstore
 * conform` run once straight at a server and once through `startProxy` in
 * front of a fresh copy of it, with the same seed and options, and the server
 * findings the proxy recorded on the way. Used by
 * test/long/proxy-detection-*.test.ts.
 */
import type { Test } from 'tap';
import type { ConformanceResult } from '../../conformance/index.js';
import { HTTP_RULES } from '../../conformance/checks/http-rules.js';
import { readable, servedPets } from '../../conformance/checks/invariants.js';
import { encoding, uniqueNames } from '../../conformance/checks/json.js';
import { internals } from '../../conformance/checks/leaks.js';
import { notDeprecatedMeta, signalsMeta } from '../../conformance/checks/deprecation.js';
import { universalRules } from '../../conformance/checks/universal.js';
import { validatorRules } from '../../conformance/checks/validators.js';
import { validBodyMeta } from '../../conformance/checks/validation.js';
import { TOLERANCES } from '../../conformance/tolerances.js';
import { implementations, type ImplementationEntry } from '../../fixtures/implementations/index.mjs';
import { startProxy } from '../../proxy/index.js';
import { operations } from '../../spec/operations.js';
import type { Finding } from '../../src/server/findings/finding.js';
import { FAST_RUNS } from '../fixtures/variants.js';
import { conformJson, describeFailures, type ConformRun } from './run-conform.js';

/** The key every server under test accepts: long enough for the leaks rules to look for it (MIN_KEY_LENGTH). */
export const DETECTION_KEY = 'test-key-detection';

/**
 * Generated cases per property, the same for the run direct and the run through the proxy: the fast tier's (25, not
 * the default 100). Each server is run twice; a broken fixture is run, as the fast tier runs it, with the families it
 * breaks only, where the fast tier's daily sample holds that every one of them fails at 25 (at 10, trims-name passes).
 */
export const DETECTION_RUNS = FAST_RUNS;

/**
 * The suite's check ids whose verdict the passive judge (conformance/passive/judge.ts) reaches on one exchange,
 * built from the same modules the judge composes, as its header lists them. The judge exports no list of its
 * rule ids, so this mirrors createPassiveJudge by hand; keep the two in step:
 * - the rules over every answer: responses.no-server-error and responses.error-body (universalRules), http.*
 *   (HTTP_RULES and validatorRules), json.encoding and json.unique-names, leaks.internals, invariants.served-pets
 *   and invariants.readable;
 * - the responses judge's verdict on each operation (responses.<operationId>);
 * - the deprecation family's verdict on headers (deprecation.<op>.not-deprecated, deprecation.<op>.signals on a
 *   deprecated one) and the validation family's on a 201 (validation.<op>.valid-body, for an operation with a body);
 * - the API key in an answer (leaks.<operationId>.key).
 * The judge's ledger of pets (state.created-unchanged, state.id-reused, state.page-size) spans exchanges and
 * names no check of the suite: it is not here.
 */
export const JUDGED_CHECK_IDS: ReadonlySet<string> = new Set([
  ...universalRules(TOLERANCES, new Map()).map((rule) => rule.id),
  ...HTTP_RULES.map((rule) => rule.id),
  ...validatorRules().map((rule) => rule.id),
  ...[encoding, uniqueNames, internals, servedPets, readable].map((rule) => rule.id),
  ...operations.flatMap((op) => [
    `responses.${op.operationId}`,
    `leaks.${op.operationId}.key`,
    op.deprecated ? signalsMeta(op).id : notDeprecatedMeta(op).id,
    ...(op.requestBody ? [validBodyMeta(op).id] : []),
  ]),
]);

export interface Started {
  readonly url: string;
  readonly apiKey: string;
  close(): Promise<void>;
}

export type Run = ConformRun & { result: ConformanceResult };

export interface BothWays {
  readonly direct: Run;
  readonly proxied: Run;
  /** The proxy's server findings, after the proxied run. */
  readonly server: readonly Finding[];
}

/**
 * `petstore conform` with `extra` straight at a server from `start`, then through a proxy (defaults, 127.0.0.1, an
 * ephemeral port) in front of a second server from `start`, so both runs begin from the same state. Everything
 * started is closed before it resolves, whatever happened.
 */
export async function bothWays(start: () => Promise<Started>, extra: readonly string[]): Promise<BothWays> {
  const first = await start();
  let direct: Run;
  try {
    direct = await conformJson(first.url, first.apiKey, extra);
  } finally {
    await first.close();
  }
  const second = await start();
  try {
    const proxy = await startProxy({ upstream: second.url });
    try {
      const proxied = await conformJson(proxy.url, second.apiKey, extra);
      return { direct, proxied, server: proxy.findings().filter((f) => f.side === 'server') };
    } finally {
      await proxy.close();
    }
  } finally {
    await second.close();
  }
}

/** Server findings one line each, for assertion messages. */
export function describeServerFindings(findings: readonly Finding[]): string {
  return findings.map((f) => `[${f.severity}] ${f.code} ×${f.count}: ${f.sent}`).join('\n') || '(no server findings)';
}

const verdict = (run: Run) => `exit ${run.code}, ${run.result.failures.length} failure(s)`;

/** A correct fixture or a framework server: passes both ways, and the proxy holds no server error (warnings counted). */
export function testConforming(t: Test, label: string, start: () => Promise<Started>, extra: readonly string[]): void {
  t.test(`${label}: conform ${extra.join(' ')} passes direct and through the proxy, with no server error`, async (t) => {
    const { direct, proxied, server } = await bothWays(start, extra);
    t.equal(direct.code, 0, `direct: ${verdict(direct)}\n${describeFailures(direct.result)}${direct.stderr ? `\nstderr: ${direct.stderr}` : ''}`);
    t.strictSame(direct.result.failures, [], 'direct: no failure');
    t.equal(
      proxied.code,
      0,
      `through the proxy: ${verdict(proxied)}\n${describeFailures(proxied.result)}${proxied.stderr ? `\nstderr: ${proxied.stderr}` : ''}`,
    );
    t.strictSame(proxied.result.failures, [], 'through the proxy: no failure');
    const errors = server.filter((f) => f.severity === 'error');
    const warnings = server.filter((f) => f.severity === 'warning');
    t.strictSame(
      errors.map((f) => f.code),
      [],
      `no server finding of severity error (${warnings.length} warning(s): ${warnings.map((f) => `${f.code} ×${f.count}`).join(', ') || 'none'})\n${describeServerFindings(errors)}`,
    );
  });
}

/** What a broken fixture's pair of runs showed, for the file's tally. */
export interface BrokenTally {
  fixtures: number;
  sameVerdict: number;
  excepted: number;
  singleExchange: string[];
  caught: string[];
}

export const newTally = (): BrokenTally => ({ fixtures: 0, sameVerdict: 0, excepted: 0, singleExchange: [], caught: [] });

/**
 * A broken fixture: it fails direct and through the proxy alike, unless `exception` names why the proxy cannot pass
 * the suite's request on unchanged (then the proxied run passes: the entry is asserted, so a stale one shows); and
 * when a failure of the direct run is one a single exchange shows (JUDGED_CHECK_IDS), the proxy holds a server error.
 */
export function testBroken(
  t: Test,
  fixture: { name: string; description: string },
  start: () => Promise<Started>,
  extra: readonly string[],
  exception: string | undefined,
  tally: BrokenTally,
): void {
  t.test(
    `${fixture.name} (${fixture.description}): conform ${extra.join(' ')} gives the same verdict through the proxy, and the proxy sees what one exchange shows`,
    async (t) => {
      const { direct, proxied, server } = await bothWays(start, extra);
      tally.fixtures++;
      t.equal(direct.code, 1, `direct: the fixture fails (${verdict(direct)})${direct.stderr ? `\nstderr: ${direct.stderr}` : ''}`);
      t.not(direct.result.failures.length, 0, 'direct: with a failure');
      if (exception === undefined) {
        t.equal(
          proxied.code,
          direct.code,
          `the same verdict through the proxy (direct ${verdict(direct)}; proxied ${verdict(proxied)})\ndirect failures:\n${describeFailures(direct.result)}\nproxied failures:\n${describeFailures(proxied.result)}${proxied.stderr ? `\nstderr: ${proxied.stderr}` : ''}`,
        );
        if (proxied.code === direct.code) tally.sameVerdict++;
      } else {
        t.equal(
          proxied.code,
          0,
          `listed as unreachable through the proxy (${exception}): the proxied run passes; if it fails now, take the fixture off the list\n${describeFailures(proxied.result)}`,
        );
        tally.excepted++;
      }
      const judged = direct.result.failures.filter((f) => JUDGED_CHECK_IDS.has(f.checkId));
      if (judged.length === 0 || exception !== undefined) return;
      const across = NOT_SINGLE_EXCHANGE[fixture.name];
      if (across !== undefined) {
        t.comment(`not in the single-exchange set: ${across}`);
        return;
      }
      tally.singleExchange.push(fixture.name);
      const errors = server.filter((f) => f.severity === 'error');
      if (errors.length > 0) tally.caught.push(fixture.name);
      t.not(
        errors.length,
        0,
        `a single exchange shows the defect (${[...new Set(judged.map((f) => f.checkId))].join(', ')}): the proxy holds a server error\ndirect failures:\n${describeFailures(direct.result)}\nserver findings:\n${describeServerFindings(server)}`,
      );
    },
  );
}

/** The file's tally, as a comment from a last test (tap runs a file's tests in order, so it runs after them). */
export function reportTally(t: Test, tally: BrokenTally): void {
  t.test('the tally of this file', async (t) => {
    const missed = tally.singleExchange.filter((name) => !tally.caught.includes(name));
    t.comment(
      `broken fixtures: ${tally.fixtures}; same verdict: ${tally.sameVerdict}; excepted: ${tally.excepted}; ` +
        `single-exchange set: ${tally.singleExchange.length}, caught: ${tally.caught.length}${missed.length ? ` (missed: ${missed.join(', ')})` : ''}`,
    );
    t.pass('tallied');
  });
}

/** Half `part` (1 or 2) of the broken fixtures, sorted by name: together they hold them all. */
export function brokenHalf(part: 1 | 2): readonly ImplementationEntry[] {
  const all = implementations.filter((i) => i.kind === 'broken');
  const size = Math.ceil(all.length / 2);
  return all.slice((part - 1) * size, part * size);
}

/**
 * Broken fixtures whose defect the suite cannot reach through the proxy, each with why: the proxy answers
 * `/__control/*`, `/docs` and `/` itself, and its own HTTP parser (Node's) refuses or frames anew a message written
 * by hand before the upstream sees it. Derived by running both ways; nothing else belongs here (any other change of
 * verdict is a bug of the proxy).
 */
export const UNREACHABLE_THROUGH_PROXY: Readonly<Record<string, string>> = {
  'control-reset-unguarded': 'its defect is POST /__control/reset, which the proxy answers itself (its own control API)',
  'crashes-without-host': "its 500 is to an HTTP/1.1 request without Host, which the proxy's parser (Node's) refuses with 400 itself (RFC 9112 §3.2)",
  'reads-length-before-chunked':
    "its defect needs a request with both Transfer-Encoding: chunked and Content-Length, which the proxy's parser (Node's) refuses with 400 itself (RFC 9112 §6.3)",
  'no-date-header':
    'its answers carry no Date: the proxy adds one, as RFC 9110 §6.6.1 requires of a recipient with a clock that forwards a response without it (the http.date finding is still noted)',
  'no-date-on-success':
    'its 2xx answers carry no Date: the proxy adds one, as RFC 9110 §6.6.1 requires of a recipient with a clock that forwards a response without it (the http.date finding is still noted)',
  'head-with-content':
    "its defect is content after a HEAD answer: framing is hop-by-hop (RFC 9112 §6), and the proxy's own HTTP stack frames the answer to the client",
  'head-with-content-judged-read-only':
    "its defect is content after a HEAD answer: framing is hop-by-hop (RFC 9112 §6), and the proxy's own HTTP stack frames the answer to the client",
  'keeps-connection-open':
    "its defect is keeping the connection open after Connection: close: connection handling is hop-by-hop (RFC 9110 §7.6.1), and the proxy's own HTTP stack closes the client's connection",
};

/**
 * Broken fixtures whose direct run fails a check of JUDGED_CHECK_IDS only on a verdict that needs more than one
 * exchange, each with why: the check id is one the judge reaches, the failure is not one it could see.
 */
export const NOT_SINGLE_EXCHANGE: Readonly<Record<string, string>> = {
  'get-pet-misses-listed-pets':
    'deprecation.getPet.signals fails it on "expected 200, got 404" for a pet the run created: a 404 is declared for getPet, and only the earlier 201 shows the pet exists',
};
