/**
 * The tolerance table: every answer the rules over every answer would refuse
 * but the seed or an RFC allows, written once, as data, with the words that
 * allow it. It is the single place where the suite's leniency towards a
 * correct target lives for those rules; each row is proved needed by a test
 * (test/conformance/tolerances.test.ts): a correct server fails without it.
 * An answer a row excuses is counted under the row's id, never listed.
 */
import type { OperationDescriptor } from '../spec/operations.js';
import { fieldOf, type Exchange, type WireResponse } from './client.js';
import type { CompareAllowance, DifferenceKind } from './vocabulary.js';

export type { CompareAllowance, DifferenceKind };
import { parseHttpDate } from './http-date.js';
import { parseJson, type JsonValue } from '../spec/json/index.js';
import { isObject } from '../spec/json/is-object.js';
import { GENERATED_NAME_CODE_POINTS } from './arbitraries/requests.js';
import { unknownNames } from './differential/outcome.js';

/**
 * The rules over every answer that a row may relax (checks/universal.ts), and the oracle's comparison
 * (differential/compare.ts): `same-outcome` rows excuse a difference between the target's answer and the
 * oracle's to the same request.
 */
export type UniversalRule = 'no-server-error' | 'error-body' | 'same-outcome';

/** What a same-outcome row may look at beyond the exchange: the difference, the oracle's answer, the operation. */
export interface Pair {
  readonly kind: DifferenceKind;
  readonly oracle: Pick<WireResponse, 'status' | 'headers'>;
  readonly op: OperationDescriptor | undefined;
  /** The request names a pet this run created less than the settle window before it was answered. */
  readonly lagging: boolean;
}

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
  applies(exchange: Exchange, operations: readonly OperationDescriptor[], pair?: Pair): boolean;
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

/** Each template's pattern, made once: the proxy's judge asks for the operation of every exchange it passes on. */
const patterns = new Map<string, RegExp>();

function templatePattern(template: string): RegExp {
  let pattern = patterns.get(template);
  if (pattern === undefined) {
    const parts = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    pattern = new RegExp(`^${parts.join('[^/]+')}$`);
    patterns.set(template, pattern);
  }
  return pattern;
}

/** The most code points of any string in a JSON body (0 for a body that is not JSON). */
function longestString(body: string | undefined): number {
  const parsed = body === undefined ? undefined : parseJson(body);
  if (!parsed?.ok) return 0;
  const walk = (value: JsonValue): number =>
    typeof value === 'string'
      ? [...value].length
      : Array.isArray(value)
        ? Math.max(0, ...value.map(walk))
        : isObject(value)
          ? Math.max(0, ...Object.values(value).map(walk))
          : 0;
  return walk(parsed.value);
}

/** Fields that are not lists (RFC 9110 §5.3, §11.6.2, §8.3, §8.6, §7.2): sent twice, the message is malformed. */
const SINGLETONS = new Set(['authorization', 'host', 'content-type', 'content-length']);

/** Whether the request sends one of them more than once (as repeated lines, or under names that differ in case only). */
function repeatsASingleton(request: Exchange['request']): boolean {
  const counts = new Map<string, number>();
  for (const [name, value] of Object.entries(request.headers)) {
    const key = name.toLowerCase();
    counts.set(key, (counts.get(key) ?? 0) + (Array.isArray(value) ? value.length : 1));
  }
  return [...SINGLETONS].some((name) => (counts.get(name) ?? 0) > 1);
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
    id: 'repeated-field-refusal',
    rule: 'error-body',
    allows:
      'a 400 without an Error body to a request that repeats a field that is not a list (two Authorization fields): a refusal of the message by the HTTP stack or a gateway in front, before the service',
    source: 'RFC 9110 §5.3: a sender MUST NOT generate multiple field lines with the same name unless the field is a list; such a message may be refused',
    seenIn: 'nginx in front of any server ("client sent duplicate header line", its own HTML page)',
    applies: ({ request, response }) => response.status === 400 && repeatsASingleton(request),
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
  {
    id: 'open-reading',
    rule: 'same-outcome',
    allows:
      "another outcome than the oracle's to a request its family marks as open (another spelling of a route, a JSON text the RFC lets parsers read differently, a precondition or a range)",
    source: 'seed §4, §8 and the RFCs behind each family: what such a request gets is not shown; the family that sent it judges the answer',
    seenIn: 'routers that fold spellings (normalizes-routes), parsers that keep the first of two names (first-member-wins)',
    applies: ({ request }, _operations, pair) => pair?.kind !== 'served-without-key' && request.offSpec === true,
  },
  {
    id: 'media-type-reading',
    rule: 'same-outcome',
    allows: 'a body sent as another media type than application/json taken as JSON, or refused',
    source: 'seed §4: all bodies are application/json; what another media type gets is not shown',
    seenIn: 'frameworks that parse any body as JSON (lenient-media-types)',
    applies: ({ request }, _operations, pair) =>
      (pair?.kind === 'refused-accepted' || pair?.kind === 'accepted-refused') &&
      request.body !== undefined &&
      !/^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i.test(fieldOf(request, 'content-type') ?? ''),
  },
  {
    id: 'unknown-names',
    rule: 'same-outcome',
    allows: 'a request with a query parameter or a body member the spec does not name refused',
    source: 'seed §2, §4: other parameters and properties are not discussed (the reference ignores them: D3, D4)',
    seenIn: 'spec-driven validators that refuse what the spec does not declare (express-openapi-validator, refuses-unknown-query)',
    applies: ({ request }, _operations, pair) => pair?.kind === 'accepted-refused' && unknownNames(request, pair.op).length > 0,
  },
  {
    id: 'length-limit',
    rule: 'same-outcome',
    allows: "a body refused for a string longer than the longest the run generates (a name of 10,000 characters): a maximum of the target's own",
    source: 'seed §8: the maximum length of name is not shown (D16)',
    seenIn: 'a name column of limited size (name-max-length)',
    applies: ({ request }, _operations, pair) => pair?.kind === 'accepted-refused' && longestString(request.body) > GENERATED_NAME_CODE_POINTS,
  },
  {
    id: 'read-after-write',
    rule: 'same-outcome',
    allows: 'a 404 for a pet this run created, within the settle window after its 201',
    source: 'seed §4: when a created pet becomes visible to reads is not shown (--settle)',
    seenIn: 'a getPet read from a replica (lagging-get-pet), a list served from a search index (lagging-list)',
    applies: ({ response }, _operations, pair) => pair?.kind === 'accepted-refused' && response.status === 404 && pair.lagging,
  },
  {
    id: 'past-sunset',
    rule: 'same-outcome',
    allows: "a 410 or 404 from an operation with a removal date, by the target's own clock",
    source: "seed §4.3, §9: getPet is removed on 5 December 2030 (the deprecation family judges the target's clock)",
    seenIn: 'targets whose clock is past the removal date',
    applies: ({ response }, _operations, pair) =>
      pair?.kind === 'accepted-refused' &&
      pair.op?.sunset !== undefined &&
      [404, 410].includes(response.status) &&
      parseHttpDate(response.headers['date'] ?? '') >= pair.op.sunset.getTime(),
  },
];

/** The allowances as rows of the table, after its own. */
export function allowanceRows(allowances: readonly CompareAllowance[]): Tolerance[] {
  return allowances.map((allowance, index) => ({
    id: `compare-allow-${index + 1}`,
    rule: 'same-outcome',
    allows: allowance.reason,
    source: '--compare-allow',
    seenIn: 'the release this run compares',
    applies: ({ request, response }, _operations, pair) =>
      pair?.kind === allowance.difference &&
      (allowance.operationId === undefined || request.operationId === allowance.operationId) &&
      (allowance.status === undefined || response.status === allowance.status),
  }));
}

/** The first row of `table` for `rule` that excuses `exchange`, if any. */
export function toleranceFor(
  table: readonly Tolerance[],
  rule: UniversalRule,
  exchange: Exchange,
  operations: readonly OperationDescriptor[],
  pair?: Pair,
): Tolerance | undefined {
  return table.find((row) => row.rule === rule && row.applies(exchange, operations, pair));
}
