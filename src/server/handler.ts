/**
 * The request pipeline: route → CORS/preflight → authenticate → method →
 * sunset → parameters → operation. Every step that refuses answers with an
 * Error body from the catalogue; nothing a client sends reaches a 5xx.
 */
import { performance } from 'node:perf_hooks';
import type { OperationDescriptor } from '../../spec/operations.js';
import { challenge, hasRepeatedAuthorization, type AuthOutcome } from './authenticator.js';
import type { Clock } from './clock.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { deprecationHeaders } from './deprecation-headers.js';
import { errorJson, statusOf } from './errors.js';
import { GET_PET_DEPRECATED_SINCE, type Limits } from './decisions.js';
import { FAULT_HEADER, type FaultDecision, type FaultTable } from './control/faults.js';
import type { FindingDetector } from './findings/detect.js';
import type { OperationHandler } from './operation-handlers.js';
import { compileParamsReader, type ParamsReader, type UnknownParameter } from './params.js';
import type { HeaderList } from './headers.js';
import type { Exchange, Responder } from './respond.js';
import { buildRoutes, matchRoute, type RouteMatch } from './router.js';

export interface HandlerDeps {
  readonly operations: readonly OperationDescriptor[];
  readonly handlers: Record<string, OperationHandler>;
  readonly authenticate: (header: string | undefined) => AuthOutcome;
  readonly basePath: string;
  readonly clock: Clock;
  readonly limits: Limits;
  readonly respond: Responder;
  /** Faults injected through the control API. */
  readonly faults?: FaultTable;
  /** Checks of each request against the spec (findings); none for the control API, which is not the interface. */
  readonly findings?: FindingDetector;
  /** In front of another implementation (relay.ts): OPTIONS is its to answer, CORS and all. */
  readonly forward?: (x: Exchange) => void;
}

const NO_FAULT: FaultDecision = { kind: 'none' };

interface Prepared {
  readonly operation: OperationDescriptor;
  readonly handler: OperationHandler;
  readonly readParams: ParamsReader;
  /** The headers every answer of the operation carries (deprecation), without and with CORS. */
  readonly headers: HeaderList | undefined;
  readonly corsHeaders: HeaderList;
  /** When the operation is removed (ms since the epoch), if it is deprecated with a sunset. */
  readonly sunset: number | undefined;
  /** Hears of the query parameters the operation does not have (a finding each); the context is the Exchange. */
  readonly unknownParameter: UnknownParameter;
}

type Found = Extract<RouteMatch, { found: true }>;

/** Answers one request; serve() (serve.ts) makes the Exchange. */
export type RequestHandler = (x: Exchange) => void;

export function createRequestHandler(deps: HandlerDeps): RequestHandler {
  const { operations, basePath, clock, limits, respond, authenticate } = deps;
  const routes = buildRoutes(operations);

  const prepared = prepareOperations(operations, deps.handlers, basePath, deps.findings);
  const prefix = `${basePath}/`;
  const refusals = REFUSALS;
  const findings = deps.findings;

  const operate = createOperate(clock, respond, findings);
  const suffer = createSuffer(respond, operate);

  return function handle(x) {
    const { req } = x;
    const url = req.url ?? '/';
    if (req.headers.origin !== undefined) x.headers = corsHeaders;
    try {
      if (url.length > limits.maxUrlBytes) return respond.sendError(x, 'uri_too_long', `the request target is longer than ${limits.maxUrlBytes} bytes`);
      const q = url.indexOf('?');
      const path = q === -1 ? url : url.slice(0, q);
      if (!path.startsWith(prefix)) return respond.sendError(x, 'route_not_found', `no operation at ${path}`);
      const match = matchRoute(routes, path, basePath.length);
      if (!match.found) return respond.sendError(x, 'route_not_found', `no operation at ${path}`);
      const { route } = match;
      const method = req.method ?? 'GET';

      // OPTIONS answers what the path allows, without authentication: a
      // browser's preflight never carries credentials.
      if (method === 'OPTIONS') {
        if (deps.forward) return deps.forward(x);
        const preflight = req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
        return respond.send(x, 204, undefined, preflight ? ['allow', route.allow, ...preflightHeaders(route.allow)] : ['allow', route.allow]);
      }

      const operation = route.operations.get(method);
      const p = operation && prepared.get(operation);
      if (p) {
        x.headers = req.headers.origin !== undefined ? p.corsHeaders : p.headers;
        x.operation = p.operation;
      }

      // Authentication comes first on every route of the interface, before
      // the method, the parameters or the store are looked at.
      const authorization = req.headers.authorization;
      let auth = authenticate(authorization);
      if (auth === 'ok' && hasRepeatedAuthorization(req.rawHeaders)) auth = 'invalid';
      if (auth !== 'ok') {
        const refusal = refusals[auth];
        return respond.send(x, statusOf('unauthorized'), refusal.body, refusal.headers, 'unauthorized');
      }
      if (!p) {
        x.culprit = { name: route.template };
        return respond.sendError(x, 'method_not_allowed', `${method} is not allowed on ${route.template}; allowed: ${route.allow}`, ['allow', route.allow]);
      }
      if (findings) {
        findings.keyForm(x, authorization as string);
        if (p.operation.deprecated) findings.deprecated(x, p.operation);
      }

      const query = q === -1 ? undefined : url.slice(q + 1);
      // Faults come after authentication: the request was accepted, then the backend "failed".
      const fault = deps.faults?.active ? deps.faults.decide(p.operation.operationId) : NO_FAULT;
      if (fault.kind === 'none') operate(x, p, match, query);
      else suffer(x, p, match, query, fault);
    } catch (error) {
      respond.fail(x, error);
    }
  };
}

/** The accepted request, from the sunset on: parameters, then the operation. */
type Operate = (x: Exchange, p: Prepared, match: Found, query: string | undefined) => void;

function createOperate(clock: Clock, respond: Responder, findings: FindingDetector | undefined): Operate {
  return function operate(x, p, match, query) {
    if (p.sunset !== undefined && clock.now() >= p.sunset) {
      return respond.sendError(x, 'gone', `${p.operation.operationId} was removed on ${p.operation.sunset?.toUTCString()}`);
    }
    if (match.badEncoding !== undefined) {
      x.culprit = { name: match.badEncoding, sent: `${match.badEncoding} that is not valid percent-encoding` };
      return respond.sendError(x, 'invalid_parameter', `path parameter ${match.badEncoding} is not valid percent-encoding`);
    }
    const params = p.readParams(match.params, query, findings && p.unknownParameter, x);
    if (!params.ok) {
      x.culprit = { name: params.name, sent: params.sent };
      return respond.sendError(x, 'invalid_parameter', params.message);
    }
    p.handler(x, params.values);
  };
}

/** A request that a fault injected through the control API takes over. */
type Suffer = (x: Exchange, p: Prepared, match: Found, query: string | undefined, fault: Exclude<FaultDecision, { kind: 'none' }>) => void;

function createSuffer(respond: Responder, operate: Operate): Suffer {
  return function suffer(x, p, match, query, fault) {
    x.headers = [...(x.headers ?? []), FAULT_HEADER, fault.header];
    x.fault = fault.header;
    const act = () => {
      try {
        if (fault.kind === 'drop') return respond.drop(x);
        if (fault.kind === 'error') {
          return respond.sendError(x, 'fault_injected', `a fault injected through the control API (status ${fault.status})`, undefined, fault.status);
        }
        operate(x, p, match, query);
      } catch (error) {
        respond.fail(x, error);
      }
    };
    if (fault.latencyMs > 0) delayUntil(x.arrived + fault.latencyMs, act);
    else act();
  };
}

/** Everything that depends only on the operation, computed once at start-up. */
function prepareOperations(
  operations: readonly OperationDescriptor[],
  handlers: HandlerDeps['handlers'],
  basePath: string,
  findings: FindingDetector | undefined,
): Map<OperationDescriptor, Prepared> {
  const prepared = new Map<OperationDescriptor, Prepared>();
  for (const operation of operations) {
    const handler = handlers[operation.operationId];
    if (!handler) throw new Error(`no handler for operation ${operation.operationId} of the spec`);
    const headers = deprecationHeaders(operation, operations, basePath, GET_PET_DEPRECATED_SINCE);
    prepared.set(operation, {
      operation,
      handler,
      readParams: compileParamsReader(operation),
      headers,
      corsHeaders: headers ? [...corsHeaders, ...headers] : corsHeaders,
      sunset: operation.sunset?.getTime(),
      unknownParameter: (name, value, x) => findings?.unknownQuery(x as Exchange, operation, name, value),
    });
  }
  return prepared;
}

/**
 * The two 401 answers never vary: built once, not per refused request, each
 * in memory of its own (not a slice of Node's pool), so that the journal
 * keeps them by reference rather than copying one per refused request.
 */
const refusal = (outcome: 'missing' | 'invalid', message: string) => ({
  body: Buffer.from(new TextEncoder().encode(errorJson('unauthorized', message)).buffer),
  headers: ['www-authenticate', challenge(outcome)],
});
const REFUSALS = {
  missing: refusal('missing', 'an API key is required: send Authorization: Bearer <API_KEY>'),
  invalid: refusal('invalid', 'the API key is not accepted'),
};

/**
 * Runs `act` once performance.now() has reached `due`: an injected latency is at least what was asked, counted from
 * the request's arrival. A timer alone may fire a fraction of a millisecond early by that clock (it counts from the
 * event loop's cached time, taken before the request was read).
 */
function delayUntil(due: number, act: () => void): void {
  const left = due - performance.now();
  if (left <= 0) return act();
  setTimeout(() => delayUntil(due, act), Math.ceil(left));
}
