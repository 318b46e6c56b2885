/**
 * The control API under `/__control` (spec/control-openapi.ts): reset, load
 * pets, read the state, move the clock, inject faults, read the journal. It is
 * guarded by the interface's own API keys: a stand-in reachable on a network
 * must not be reset by anyone who finds it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { controlOpenapi } from '../../../spec/control-openapi.js';
import { derefAll, type Schema } from '../../../spec/operations.js';
import { stringifyJson, type JsonObject, type JsonValue } from '../../json/index.js';
import { compileSchema } from '../../schema/validate.js';
import { readNewPet, type PetStore } from '../../store/index.js';
import { challenge, type AuthOutcome } from '../auth.js';
import { readJsonBody } from '../body.js';
import type { Clock } from '../clock.js';
import { corsHeaders } from '../cors.js';
import type { Limits } from '../decisions.js';
import type { Exchange, Responder } from '../respond.js';
import { readInstant } from '../instant.js';
import type { FaultTable } from './faults.js';
import type { Journal } from './journal.js';

export const CONTROL_PREFIX = '/__control';

export interface ControlDeps {
  readonly store: PetStore;
  readonly reset: () => void;
  readonly clock: Clock;
  readonly faults: FaultTable;
  readonly journal: Journal;
  readonly respond: Responder;
  readonly authenticate: (header: string | undefined) => AuthOutcome;
  readonly limits: Limits;
  /** The interface's operationIds: the ones a fault can target. */
  readonly operationIds: readonly string[];
}

const schemaOf = (name: keyof typeof controlOpenapi.components.schemas): Schema =>
  derefAll(controlOpenapi, controlOpenapi.components.schemas[name]) as Schema;
const validateFault = compileSchema(schemaOf('Fault'));
const validateClock = compileSchema(schemaOf('ClockSetting'));
const validatePets = compileSchema(
  derefAll(controlOpenapi, controlOpenapi.paths['/pets'].post.requestBody.content['application/json'].schema) as Schema,
);

type Handler = (x: Exchange, params: { operationId?: string; query: URLSearchParams }) => void | Promise<void>;

export function createControlHandler(deps: ControlDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { store, clock, faults, journal, respond, limits } = deps;
  const summary = () => stringifyJson({ pets: BigInt(store.size), clock: new Date(clock.now()).toISOString() });

  const bodyRules = { maxBytes: limits.maxControlBodyBytes, parse: { maxDepth: 8, maxMembers: 1_000_000 }, expected: 'JSON' };

  /** The body as validated JSON, or undefined once an error has been answered. */
  async function body(x: Exchange, validate: ReturnType<typeof compileSchema>): Promise<JsonValue | undefined> {
    const value = await readJsonBody(x, respond, bodyRules);
    if (value === undefined) return undefined;
    const issue = validate(value);
    if (issue) return void respond.sendError(x, 'invalid_body', issue.message.replace('the value', 'the body'));
    return value;
  }

  const routes: Record<string, Handler> = {
    'GET /openapi.json': (x) => respond.send(x, 200, JSON.stringify(controlOpenapi)),
    'GET /state': (x) => {
      const pets = store.toJsonArray().toString('utf8');
      respond.send(x, 200, `{"clock":${JSON.stringify(new Date(clock.now()).toISOString())},"faults":${JSON.stringify(faults.entries())},"journal":${journal.size},"pets":${pets}}`);
    },
    'POST /reset': (x) => {
      // The clock is left as it is: PUT /clock moves it.
      deps.reset();
      faults.clear();
      journal.clear();
      respond.send(x, 200, summary());
    },
    'POST /pets': async (x) => {
      const value = await body(x, validatePets);
      if (value === undefined) return;
      const entries = value as JsonValue[];
      if (store.size + entries.length > store.capacity) {
        return respond.sendError(x, 'storage_full', `${entries.length} pets would put the store over its capacity of ${store.capacity}; nothing was created`);
      }
      const firstId = store.size + 1;
      for (const entry of entries) {
        const pet = readNewPet(entry);
        if (pet.ok) store.create(pet.pet);
      }
      respond.send(x, 201, stringifyJson({ created: BigInt(entries.length), ...(entries.length ? { firstId: BigInt(firstId), lastId: BigInt(store.size) } : {}), pets: BigInt(store.size) }));
    },
    'PUT /clock': async (x) => {
      const value = (await body(x, validateClock)) as JsonObject | undefined;
      if (value === undefined) return;
      const now = value['now'];
      if (now === null) clock.set(new Date());
      else {
        const instant = typeof now === 'string' ? readInstant(now) : undefined;
        if (!instant) return respond.sendError(x, 'invalid_body', 'now must be an ISO 8601 instant such as 2030-12-05T00:00:00Z, or null');
        clock.set(instant);
      }
      respond.send(x, 200, summary());
    },
    'GET /faults': (x) => respond.send(x, 200, JSON.stringify(faults.entries())),
    'DELETE /faults': (x) => {
      faults.clear();
      respond.send(x, 204, undefined);
    },
    'PUT /faults/{operationId}': async (x, { operationId }) => {
      if (!operationId || !deps.operationIds.includes(operationId)) {
        return respond.sendError(x, 'route_not_found', `no operation ${operationId}; faults apply to ${deps.operationIds.join(', ')}`);
      }
      const value = (await body(x, validateFault)) as JsonObject | undefined;
      if (value === undefined) return;
      // An errorRate without a status fails with 503, as the error catalogue says.
      const status = value['status'] !== undefined ? Number(value['status']) : Number(value['errorRate'] ?? 0) > 0 ? 503 : undefined;
      const fault = {
        latencyMs: Number(value['latencyMs'] ?? 0),
        ...(status !== undefined ? { status } : {}),
        errorRate: Number(value['errorRate'] ?? (status !== undefined ? 1 : 0)),
        dropRate: Number(value['dropRate'] ?? 0),
      };
      faults.set(operationId, fault);
      respond.send(x, 200, JSON.stringify(fault));
    },
    'DELETE /faults/{operationId}': (x, { operationId }) => {
      if (!operationId || !faults.delete(operationId)) return respond.sendError(x, 'route_not_found', `no fault on ${operationId}`);
      respond.send(x, 204, undefined);
    },
    'GET /journal': (x, { query }) => {
      const text = query.get('limit');
      // Without a limit, every entry (none with --journal-size 0, which is no reason for a 400).
      const limit = text === null ? undefined : Number(text);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) return respond.sendError(x, 'invalid_parameter', 'limit must be a positive integer');
      respond.send(x, 200, JSON.stringify(journal.latest(limit)));
    },
    'DELETE /journal': (x) => {
      journal.clear();
      respond.send(x, 204, undefined);
    },
  };
  const paths = [...new Set(Object.keys(routes).map((key) => key.split(' ')[1] as string))];

  return (req, res) => {
    const x: Exchange = { req, res, headers: req.headers.origin === undefined ? undefined : corsHeaders };
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q === -1 ? url : url.slice(0, q)).slice(CONTROL_PREFIX.length) || '/';
    const template = paths.find((p) => p === path) ?? (path.startsWith('/faults/') && path.split('/').length === 3 ? '/faults/{operationId}' : undefined);
    if (!template) return respond.sendError(x, 'route_not_found', `no control operation at ${CONTROL_PREFIX}${path}; see ${CONTROL_PREFIX}/openapi.json`);
    const methods = Object.keys(routes).filter((key) => key.endsWith(` ${template}`)).map((key) => key.split(' ')[0] as string);
    const allow = [...methods, 'OPTIONS'].join(', ');
    if (req.method === 'OPTIONS') {
      return respond.send(x, 204, undefined, { allow, 'access-control-allow-methods': allow, 'access-control-allow-headers': 'Authorization, Content-Type' });
    }
    const auth = deps.authenticate(req.headers.authorization);
    if (auth !== 'ok') return respond.sendError(x, 'unauthorized', 'the control API needs the same API key as the interface', { 'www-authenticate': challenge(auth) });
    const handler = routes[`${req.method} ${template}`];
    if (!handler) return respond.sendError(x, 'method_not_allowed', `${req.method} is not allowed on ${CONTROL_PREFIX}${template}; allowed: ${allow}`, { allow });
    let operationId: string | undefined;
    if (template === '/faults/{operationId}') {
      try {
        operationId = decodeURIComponent(path.slice('/faults/'.length));
      } catch {
        return respond.sendError(x, 'invalid_parameter', 'the operationId is not valid percent-encoding');
      }
    }
    const done = handler(x, { ...(operationId !== undefined ? { operationId } : {}), query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)) });
    if (done) done.catch(() => (res.headersSent ? res.destroy() : respond.sendError(x, 'internal_error', 'the control API failed')));
  };
}
