/**
 * The suite's judge of traffic it did not send: the proxy hands it every
 * exchange between a real client and a real implementation, and it judges
 * the answer with the suite's own rules, reused as they are, so an answer
 * means to the proxy what it means to a run:
 * - the rules over every answer (responses.no-server-error, responses.error-body,
 *   with the tolerance table), http.*, the validators, json.*, leaks.internals,
 *   invariants.served-pets and invariants.readable;
 * - the responses judge's verdict on an operation as the spec spells it
 *   (declared status, application/json, the body by the exact int64 validator);
 * - the deprecation family's verdict on the headers of each answer, and the
 *   validation family's on a 201 (the created Pet echoes the NewPet sent);
 * - the API key in an answer (leaks.<operation>.key);
 * - and, across exchanges, the ledger of pets (ledger-of-pets.ts).
 *
 * Left out, because one exchange that passed by cannot show them: every check
 * that sends requests of its own (auth, validation, limits, not-found, routes,
 * media-types, concurrency, the http and json probes, the no-credential and
 * near-miss probes, references), the state accounting's read-back, and the
 * oracle (a second implementation asked the same). Prism's validator is left
 * out too: it answers later, in a worker, and the judge answers at once; the
 * exact validator judges the same schemas, int64 digits included.
 */
import { defaultParseLimits, parseJson, type JsonObject } from '../../spec/json/index.js';
import { isObject } from '../../spec/json/is-object.js';
import { openapi } from '../../spec/openapi.js';
import { compileSchema, type Validator } from '../../spec/schema/validate.js';
import { operations as specOperations, type OperationDescriptor } from '../../spec/operations.js';
import { errorBodyProblem } from '../check.js';
import { deprecationSignals, notDeprecatedMeta, signalsMeta, undeclaredDeprecation } from '../checks/deprecation.js';
import { createOperation, getOperation, listOperation } from '../checks/family-requests.js';
import { HTTP_RULES } from '../checks/http-rules.js';
import { readable, servedPets } from '../checks/invariants.js';
import { encoding, uniqueNames } from '../checks/json.js';
import { echoVerdicts, validBodyMeta } from '../checks/validation.js';
import { internals } from '../checks/leaks.js';
import { problemsOf, RESPONSES_REQUIREMENT, RESPONSES_SECTION } from '../checks/responses.js';
import { problemKind, type AnswerRule, type RuleFinding } from '../checks/rules.js';
import { universalRules } from '../checks/universal.js';
import { validatorRules } from '../checks/validators.js';
import { fieldOf, type Client, type Exchange, type WireRequest, type WireResponse } from '../client.js';
import { defaultRunOptions } from '../defaults.js';
import { parseHttpDate } from '../http-date.js';
import { createExactValidator, type ExactValidator } from '../response-validator.js';
import { Knowledge } from '../knowledge.js';
import { readBody, type ReadBody } from '../response-body.js';
import { operationPathOf, TOLERANCES } from '../tolerances.js';
import type { CheckContext, RunOptions } from '../vocabulary.js';
import type { PassedExchange, PassiveFinding } from './passive-vocabulary.js';
import { createLedgerOfPets, DEFAULT_MAX_REMEMBERED } from './ledger-of-pets.js';
import { keyFindings } from './leaked-keys.js';

export type { PassedExchange, PassiveFinding } from './passive-vocabulary.js';

export interface PassiveJudge {
  /** Judges one exchange that passed through the proxy, in the order they were answered. Synchronous. */
  judge(exchange: PassedExchange): PassiveFinding[];
}

export interface PassiveJudgeOptions {
  /** The operations judged by; the spec's by default. */
  readonly operations?: readonly OperationDescriptor[];
  /** Pets (and, for the strong-validator rule, answers) remembered across exchanges at most; 10,000 by default. */
  readonly maxRemembered?: number;
  /** The upstream's base path, which a Location names pets under; the spec's (`/v1`) by default. */
  readonly basePath?: string;
}

export function createPassiveJudge(options: PassiveJudgeOptions = {}): PassiveJudge {
  const operations = options.operations ?? specOperations;
  const maxRemembered = options.maxRemembered ?? DEFAULT_MAX_REMEMBERED;
  const context = passiveContext(operations, `http://upstream.invalid${options.basePath ?? specBasePath()}`);
  const ledger = createLedgerOfPets({ create: createOperation(context.ctx), get: getOperation(context.ctx), list: listOperation(context.ctx) }, maxRemembered);
  const exact = createExactValidator(operations);
  const newPets = new Map(operations.flatMap((op) => (op.requestBody ? [[op.operationId, compileSchema(op.requestBody.schema)] as const] : [])));
  const acceptedKeys: string[] = [];
  const [noServerError, errorBody] = universalRules(TOLERANCES, new Map()) as [AnswerRule, AnswerRule];
  // The rules that read an answer's content, left out when the proxy could not hold it (too large to judge).
  const content = new Set<AnswerRule>([
    errorBody,
    encoding,
    uniqueNames,
    internals,
    servedPets,
    readable,
    ...HTTP_RULES.filter((r) => r.id === 'http.partial-content'),
  ]);
  const steady = [noServerError, errorBody, ...HTTP_RULES, encoding, uniqueNames, internals, servedPets, readable];
  // The strong-validator rule remembers every tag it saw: made afresh every maxRemembered answers, it forgets them.
  let rules = [...steady, ...validatorRules()];
  // The rules for an answer too large to hold, made with `rules`: the same order, less those reading its content.
  let unreadRules = rules.filter((rule) => !content.has(rule));
  let judged = 0;
  return {
    judge(passed) {
      if (++judged % maxRemembered === 0) {
        rules = [...steady, ...validatorRules()];
        unreadRules = rules.filter((rule) => !content.has(rule));
      }
      const exchange = toExchange(passed, operations);
      const read = passed.responseBody !== undefined;
      context.authorization = fieldOf(exchange.request, 'authorization');
      return [
        ...ruleFindings(read ? rules : unreadRules, exchange, context.ctx),
        ...responseFindings(exchange, operations, read ? exact : () => []),
        ...echoFindings(exchange, operations, newPets),
        ...deprecationFindings(exchange, operations),
        ...keyFindings(exchange, acceptedKeys),
        ...(read ? ledger.judge(exchange) : []),
      ];
    },
  };
}

/** The path of the spec's first server (`https://petstore.example.com/v1`): where the interface's paths start. */
function specBasePath(): string {
  const server = openapi.servers[0] as { url: string; variables?: Record<string, { default: string }> };
  const url = server.url.replace(/\{([^}]+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  return new URL(url, 'http://upstream.invalid').pathname.replace(/\/+$/, '');
}

function ruleFindings(rules: readonly AnswerRule[], exchange: Exchange, ctx: CheckContext): PassiveFinding[] {
  const found: PassiveFinding[] = [];
  for (const rule of rules) {
    if (!rule.applies(exchange, ctx)) continue;
    const finding = rule.judge(exchange, ctx);
    if (finding) found.push(fromRule(rule, finding, exchange));
  }
  return found;
}

/** A problem is what the run reports as a failure; an open finding, what it reports as an advisory. */
function fromRule(rule: AnswerRule, finding: RuleFinding, exchange: Exchange): PassiveFinding {
  const base = { rule: rule.id, requirement: rule.requirement, section: rule.section, ...operationOf(exchange) };
  return 'problem' in finding
    ? { ...base, severity: 'error', problem: finding.problem, kind: problemKind(finding) }
    : { ...base, severity: 'warning', problem: finding.open, kind: finding.decision };
}

const operationOf = (exchange: Exchange): { operationId?: string } =>
  exchange.request.operationId === '' ? {} : { operationId: exchange.request.operationId };

/** The responses judge's verdict without Prism: an operation as the spec spells it, its status, media type and body. */
function responseFindings(exchange: Exchange, operations: readonly OperationDescriptor[], exact: ExactValidator): PassiveFinding[] {
  const op = operations.find((o) => o.operationId === exchange.request.operationId);
  if (!op || exchange.request.offSpec) return [];
  const { response } = exchange;
  const messages = problemsOf(op, exchange);
  // An error answer without the Error body is the universal rule's to report, once.
  const declared = op.responses.some((r) => r.status === response.status);
  if (declared && !(response.status >= 400 && errorBodyProblem(response) !== undefined)) messages.push(...exact(op, response));
  return [...new Set(messages)].map((message) => ({
    rule: `responses.${op.operationId}`,
    severity: 'error',
    requirement: RESPONSES_REQUIREMENT,
    section: RESPONSES_SECTION,
    operationId: op.operationId,
    problem: message,
    // As the run's judge groups them: per operation, status and wording without its numbers.
    kind: `${op.operationId} ${response.status} ${message.replace(/-?\d+/g, 'N')}`,
  }));
}

/**
 * The validation family's verdict on a 201: the created Pet echoes the NewPet sent, int64 digit for digit. Only a body
 * that is one valid NewPet in every reading is compared: a text RFC 8259 lets parsers read otherwise (a repeated name,
 * a byte order mark, an escaped surrogate) may be created as any of its readings (json.ts's edge texts).
 */
function echoFindings(exchange: Exchange, operations: readonly OperationDescriptor[], newPets: ReadonlyMap<string, Validator>): PassiveFinding[] {
  const { request, response } = exchange;
  const op = operations.find((o) => o.operationId === request.operationId);
  const valid = newPets.get(request.operationId);
  if (!op || !valid || request.offSpec || response.status !== 201 || !isObject(response.json) || request.body === undefined) return [];
  if (request.body.charCodeAt(0) === 0xfeff || /\\u[dD][89a-fA-F]/.test(request.body)) return [];
  let repeated = false;
  const parsed = parseJson(request.body, { ...defaultParseLimits, onDuplicateKey: () => void (repeated = true) });
  if (!parsed.ok || repeated || !isObject(parsed.value) || valid(parsed.value) !== undefined) return [];
  const meta = validBodyMeta(op);
  return echoVerdicts(op, parsed.value, response.json as JsonObject).map((verdict) =>
    'problem' in verdict
      ? checkFinding(meta, 'error', verdict.problem, verdict.problem.replace(/-?\d+/g, 'N'))
      : checkFinding(meta, 'warning', verdict.advisory.observed, verdict.advisory.decision),
  );
}

/**
 * The deprecation family's verdict on one answer's headers. A deprecated operation's are judged on the answers its
 * check judges (200, and 404 or 410, to the operation as the spec spells it); another operation's, on every answer
 * to it, by the answer's own clock (its Date, else the local one).
 */
function deprecationFindings(exchange: Exchange, operations: readonly OperationDescriptor[]): PassiveFinding[] {
  const { request, response } = exchange;
  const op = operations.find((o) => o.operationId === request.operationId);
  if (!op || request.offSpec) return [];
  if (!op.deprecated) {
    const date = parseHttpDate(response.headers['date'] ?? '');
    const problem = undeclaredDeprecation(op, response.headers, Number.isNaN(date) ? Date.now() : date);
    return problem ? [checkFinding(notDeprecatedMeta(op), 'error', problem, problem.replace(/-?\d+/g, 'N'))] : [];
  }
  if (![200, 404, 410].includes(response.status) || !op.parameters.some((p) => p.in === 'path')) return [];
  const successor = operations.find((o) => o.operationId === op.replacement)?.path;
  const early = goneEarly(op, exchange);
  return [...early, ...deprecationSignals(op, successor, response.headers)].flatMap((signal) => {
    if ('gone' in signal) return [checkFinding(signalsMeta(op), 'error', signal.gone, `${op.operationId} gone before its removal date`)];
    if ('problem' in signal) return [checkFinding(signalsMeta(op), 'error', signal.problem, signal.problem.replace(/-?\d+/g, 'N'))];
    return signal.conforms ? [] : [checkFinding(signalsMeta(op), 'warning', signal.advisory.observed, signal.advisory.decision)];
  });
}

/**
 * A 410 before the operation's removal date, by the answer's own clock (its Date, else the local one): until then
 * the operation is served (seed §4.3, §9), as the deprecation check expects 200 (or 404 for an id it has not).
 */
function goneEarly(op: OperationDescriptor, { request, response }: Exchange): { gone: string }[] {
  if (response.status !== 410 || op.sunset === undefined) return [];
  const date = parseHttpDate(response.headers['date'] ?? '');
  const now = Number.isNaN(date) ? Date.now() : date;
  if (now >= op.sunset.getTime()) return [];
  return [
    {
      gone: `${request.method} ${request.path} was answered 410 Gone on ${new Date(now).toUTCString()}, before ${op.operationId}'s removal date ${op.sunset.toUTCString()}`,
    },
  ];
}

/** A finding of a check of the suite (its id, requirement and section), from one answer. */
function checkFinding(
  meta: { id: string; operationId: string; requirement: string; seedSection: string },
  severity: PassiveFinding['severity'],
  problem: string,
  kind: string,
): PassiveFinding {
  return { rule: meta.id, severity, requirement: meta.requirement, section: meta.seedSection, operationId: meta.operationId, problem, kind };
}

/** What the judge tells the rules of the exchange being judged: the request's own credential. */
interface PassiveContext {
  readonly ctx: CheckContext;
  authorization: string | undefined;
}

/**
 * The context the rules judge one exchange in. Real: `operations`; `client.baseUrl`, the upstream's base path (where
 * http.location resolves a Location and finds the pets it names); `client.authorization`, the judged request's own
 * Authorization: a passive judge is told no key, so http.not-modified fails a 304 only to a request that carried none,
 * and http.strong-validator compares the answers to requests that carried one; `options`, the run's defaults. Inert,
 * as no rule judged here reads them and a passive judge has none to give: `send`, `sendRaw` and `readAfterWrite`
 * (they throw: it sends nothing), `knowledge` (empty: it created nothing), `cover` and `unspecified` (advisories are
 * findings here), `targetNow` (the local clock), `timeLeft` (0).
 */
function passiveContext(operations: readonly OperationDescriptor[], baseUrl: string): PassiveContext {
  const sends = (): never => {
    throw new Error('a passive judge sends no request of its own');
  };
  let authorization: string | undefined;
  const client: Client = {
    baseUrl,
    // No field equals it, so a request without Authorization never counts as carrying the key.
    get authorization() {
      return authorization ?? '(no credential)';
    },
    extraHeaders: {},
    send: sends,
    sendRaw: sends,
    writesLeft: () => 0,
    observe: () => {},
    stats: () => ({ requests: 0, writes: 0, rateLimited: 0 }),
    close: async () => {},
  };
  const options: RunOptions = { ...defaultRunOptions, baseUrl, apiKey: '', seed: 0 };
  const ctx: CheckContext = {
    client,
    knowledge: new Knowledge(),
    options,
    operations,
    send: sends,
    cover: () => {},
    unspecified: () => {},
    targetNow: () => Date.now(),
    timeLeft: () => 0,
    readAfterWrite: sends,
  };
  return {
    ctx,
    get authorization() {
      return authorization;
    },
    set authorization(value) {
      authorization = value;
    },
  };
}

/**
 * The exchange as the suite records one it sent: the operation its method and path name, marked off the spec as the
 * suite marks its own requests that are not the operation as the spec spells it, and the answer's bytes read as
 * client.ts reads them (content codings undone, integers exact).
 */
export function toExchange(passed: PassedExchange, operations: readonly OperationDescriptor[]): Exchange {
  const template = operationPathOf(passed.path, operations);
  const onPath = operations.filter((o) => o.path === template);
  const op = onPath.find((o) => o.method === passed.method) ?? onPath[0];
  const offSpec = op === undefined || op.method !== passed.method || otherSpelling(passed, op);
  const request: WireRequest = {
    method: passed.method,
    path: passed.path,
    headers: passed.requestHeaders,
    ...(passed.requestBody !== undefined && passed.requestBody.length > 0 ? { body: passed.requestBody.toString('utf8') } : {}),
    operationId: op?.operationId ?? '',
    ...(offSpec ? { offSpec: true } : {}),
  };
  const response: WireResponse = {
    status: passed.status,
    headers: passed.responseHeaders,
    ...(passed.read ?? readPassedBody(passed.responseBody ?? Buffer.alloc(0), passed.responseHeaders['content-encoding'])),
    durationMs: passed.durationMs,
  };
  return { request, response, family: 'passive' };
}

/** An answer's body as the judge reads it (content codings undone, integers exact), for PassedExchange's `read`. */
export function readPassedBody(responseBody: Buffer, contentEncoding: string | undefined): ReadBody {
  return readBody(responseBody, contentEncoding, defaultRunOptions.maxResponseBytes);
}

/** Fields that make an answer other than the operation's own: a 304, 206, 412 or 416 (RFC 9110 §13, §14). */
const CONDITIONAL_FIELDS = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range'];
/** Fields frameworks and gateways read as another method or another target (catalogues/request-fields.ts). */
const REWRITING_FIELDS = ['x-http-method-override', 'x-http-method', 'x-method-override', 'x-original-url', 'x-rewrite-url', 'x-original-method'];
const OTHER_SPELLING_FIELDS = new Set([...CONDITIONAL_FIELDS, ...REWRITING_FIELDS]);

/**
 * Whether a request on an operation's path and method is still not the operation as the spec spells it, as the suite
 * marks its own: a path parameter spelled otherwise (percent-encoded, a matrix parameter, a format suffix) or an
 * empty query (routes.ts), a precondition or a range (http.ts), a field that rewrites the method or the target or
 * an Accept that allows no JSON (invariants.ts), two Authorization fields (auth.ts). What such a request gets is
 * open, so the responses judge leaves it to the rules over every answer, which judge it whatever it is.
 */
function otherSpelling(passed: PassedExchange, op: OperationDescriptor): boolean {
  const [bare = '', query] = splitTarget(passed.path);
  const segments = bare.split('/');
  const spelled = op.path.split('/').every((part, i) => !part.startsWith('{') || /^[A-Za-z0-9_~-]+$/.test(segments[i] ?? ''));
  const headers = passed.requestHeaders;
  const accept = fieldOf({ headers }, 'accept');
  return (
    !spelled ||
    query === '' ||
    // The request's few fields looked up in the dozen names, not the dozen in its fields: lookups of absent names cost more.
    Object.keys(headers).some((name) => OTHER_SPELLING_FIELDS.has(name) && headers[name] !== undefined) ||
    (Array.isArray(headers['authorization']) && headers['authorization'].length > 1) ||
    (accept !== undefined && !allowsJson(accept))
  );
}

/** The path and the query (undefined without a `?`, '' for an empty one). */
function splitTarget(target: string): [string, string | undefined] {
  const at = target.indexOf('?');
  return at === -1 ? [target, undefined] : [target.slice(0, at), target.slice(at + 1)];
}

/** Whether an Accept field allows application/json (RFC 9110 §12.5.1), a range with q=0 excluded. */
function allowsJson(accept: string): boolean {
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const excluded = params.some((p) => /^q=0(\.0{0,3})?$/.test(p));
    return !excluded && (type === '*/*' || type === 'application/*' || type === 'application/json');
  });
}
