/**
 * The tolerance table: every answer the rules over every answer would refuse
 * but the seed or an RFC allows, written once, as data, with the words that
 * allow it. It is the single place where the suite's leniency towards a
 * correct target lives for those rules; each row is proved needed by a test
 * (test/conformance/tolerances.test.ts): a correct server fails without it.
 * An answer a row excuses is counted under the row's id, never listed.
 */
import type { OperationDescriptor } from '../spec/operations.js';
import type { Exchange } from './client.js';

/** The rules over every answer that a row may relax (checks/universal.ts). */
export type UniversalRule = 'no-server-error' | 'error-body';

export interface Tolerance {
  /** Stable id: the key of the count in a report. */
  readonly id: string;
  readonly rule: UniversalRule;
  /** What a correct target may answer, in a reader's words. */
  readonly allows: string;
  /** The seed section or RFC that allows it. */
  readonly source: string;
  /** The popular servers seen to need it, or why a correct one may. */
  readonly seenIn: string;
  applies(exchange: Exchange, operations: readonly OperationDescriptor[]): boolean;
}

/**
 * The methods the interface uses on any path (HEAD with GET, RFC 9110 §9.3.2). Worked out on each call: a per-spec
 * cache made its code run once per process, which the mutation run of the checks could not judge.
 */
export function interfaceMethods(operations: readonly OperationDescriptor[]): ReadonlySet<string> {
  const used = new Set(operations.map((op) => op.method.toUpperCase()));
  if (used.has('GET')) used.add('HEAD');
  return used;
}

/** The operation whose path template the request's path (query aside) spells exactly, if any. */
export function operationPathOf(path: string, operations: readonly OperationDescriptor[]): string | undefined {
  const bare = path.split('?')[0]!;
  return operations.find((op) => templatePattern(op.path).test(bare))?.path;
}

function templatePattern(template: string): RegExp {
  const parts = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

/** Statuses an HTTP stack answers to bytes it cannot take before any route is reached. */
const PARSER_REFUSALS = new Set([400, 414, 431]);

export const TOLERANCES: readonly Tolerance[] = [
  {
    id: 'unimplemented-method',
    rule: 'no-server-error',
    allows: 'a 501 to a method the interface uses on no path (PROPFIND, PUT, DELETE…)',
    source: 'RFC 9110 §9.1: a method the origin server does not implement SHOULD get 501 (Not Implemented)',
    seenIn: 'front ends that refuse unknown methods before routing (fixtures/implementations/correct/not-implemented-without-date.mjs)',
    applies: ({ request, response }, operations) => response.status === 501 && !interfaceMethods(operations).has(request.method.toUpperCase()),
  },
  {
    id: 'head-without-content',
    rule: 'error-body',
    allows: 'a 4xx to HEAD without an Error body',
    source: 'RFC 9110 §9.3.2: the server MUST NOT send content in the response to HEAD',
    seenIn: 'every server, the reference too',
    applies: ({ request }) => request.method.toUpperCase() === 'HEAD',
  },
  {
    id: 'parser-refusal',
    rule: 'error-body',
    allows: "a 400, 414 or 431 without an Error body to a message written by hand: the HTTP stack's own answer, before any route",
    source: "RFC 9112 §2.2, §3: a recipient that cannot parse a message answers 400 (the seed's Error body is the service's, which never saw it)",
    seenIn: 'Node.js (Express, Fastify) and uvicorn write a bare status line for a message they refuse',
    applies: ({ request, response }) => request.raw !== undefined && PARSER_REFUSALS.has(response.status),
  },
  {
    id: 'outside-interface',
    rule: 'error-body',
    allows: "a 4xx without an Error body to a path the interface does not have (another spelling of a route, another base path): the router's own not-found",
    source: "seed §7: the Error body is the answer of the interface's operations; §4 names their paths, and what other paths answer is not shown",
    seenIn: 'Express 5 (its HTML "Cannot GET"), Fastify 5 (its own JSON 404)',
    applies: ({ request }, operations) => request.fromOrigin === true || operationPathOf(request.path, operations) === undefined,
  },
  {
    id: 'method-outside-interface',
    rule: 'error-body',
    allows: 'a 4xx without an Error body to a method the interface uses on no path',
    source: 'seed §4: any update or delete is not shown; the Error body is the answer of its operations (§7)',
    seenIn: 'Fastify 5 answers a method its router does not know (PROPFIND) with its own JSON 404',
    applies: ({ request }, operations) => !interfaceMethods(operations).has(request.method.toUpperCase()),
  },
];

/** The first row of `table` for `rule` that excuses `exchange`, if any. */
export function toleranceFor(
  table: readonly Tolerance[],
  rule: UniversalRule,
  exchange: Exchange,
  operations: readonly OperationDescriptor[],
): Tolerance | undefined {
  return table.find((row) => row.rule === rule && row.applies(exchange, operations));
}
