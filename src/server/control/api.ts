/**
 * The control API under `/__control` (spec/control-openapi.ts): reset, load
 * pets, read the state, move the clock, inject faults, read the journal and
 * the findings. It is guarded by the interface's own API keys: a stand-in
 * reachable on a network must not be reset by anyone who finds it.
 */
import { controlOpenapi } from '../../../spec/control-openapi.js';
import { derefAll, describeOperations, type Schema } from '../../../spec/operations.js';
import { stringifyJson, type JsonObject, type JsonValue } from '../../../spec/json/index.js';
import { compileSchema } from '../../../spec/schema/validate.js';
import { readNewPet, type NewPetResult, type Store } from '../../store/index.js';
import type { AuthOutcome } from '../authenticator.js';
import { readJsonBody } from '../request-body.js';
import type { Clock } from '../clock.js';
import type { Limits } from '../decisions.js';
import { statusOf } from '../errors.js';
import { createRequestHandler, type RequestHandler } from '../handler.js';
import type { OperationHandler } from '../operation-handlers.js';
import type { Exchange, Responder } from '../respond.js';
import { withStoreAnswer } from '../store-answer.js';
import { readInstant } from '../instant.js';
import type { Fault, FaultTable } from './faults.js';
import type { Journal } from './journal.js';
import type { FindingLedger } from '../findings/ledger.js';
import { journalHar } from './har.js';
import type { ControlChange, SharedControl } from './shared-settings.js';
import type { StubAnswer, StubTable } from './stubs.js';

export const CONTROL_PREFIX = '/__control';

export interface ControlDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly faults: FaultTable;
  /** Answers set in advance (POST /stubs); this instance's own, not shared. */
  readonly stubs: StubTable;
  readonly journal: Journal;
  /** The id the next request to the interface will get, findings counted from it (POST /mark). */
  readonly mark: () => number;
  /** What clients of the interface got wrong (GET /findings); cleared by a reset. */
  readonly findings: FindingLedger;
  readonly respond: Responder;
  /** With a shared store: tells the other instances of each change, which the answer waits for. */
  readonly shared?: SharedControl;
  readonly authenticate: (header: string | undefined) => AuthOutcome;
  readonly limits: Limits;
  /** The interface's operationIds: the ones a fault can target. */
  readonly operationIds: readonly string[];
  /** What POST /shutdown starts once its answer has left (ServerOptions.onShutdown). */
  readonly shutdown: () => void;
}

const schemaOf = (name: keyof typeof controlOpenapi.components.schemas): Schema => derefAll(controlOpenapi, controlOpenapi.components.schemas[name]) as Schema;
export const validateFault = compileSchema(schemaOf('Fault'));
const validateClock = compileSchema(schemaOf('ClockSetting'));
const validateStub = compileSchema(schemaOf('Stub'));
const controlOperations = describeOperations(controlOpenapi);
const validatePets = compileSchema(derefAll(controlOpenapi, controlOpenapi.paths['/pets'].post.requestBody.content['application/json'].schema) as Schema);

export function createControlHandler(deps: ControlDeps): RequestHandler {
  const { store, clock, faults, journal, respond, limits } = deps;
  /** Answers the number of pets and the clock, once the store has counted. */
  const summarise = (x: Exchange) =>
    withStoreAnswer(x, respond, store.count(), (size) =>
      respond.send(x, 200, stringifyJson({ pets: BigInt(size), clock: new Date(clock.now()).toISOString() })),
    );

  const bodyRules = { maxBytes: limits.maxControlBodyBytes, parse: { maxDepth: 8, maxMembers: 1_000_000 }, expected: 'JSON' };

  /** Hands the body to `then` once it is JSON that `validate` accepts; else the problem is answered. */
  const body: BodyReader = (x, validate, then) => {
    readJsonBody(x, respond, bodyRules, (value) => {
      const issue = validate(value);
      if (issue) return respond.sendError(x, 'invalid_body', issue.message.replace('the value', 'the body'));
      then(value);
    });
  };

  const specJson = JSON.stringify(controlOpenapi);
  // Handlers by the control spec's operationIds; routing, CORS, authentication,
  // methods and parameters are the interface's own pipeline (handler.ts).
  const handlers: Record<string, OperationHandler> = {
    readControlSpec: (x) => respond.send(x, 200, specJson),
    readState: (x) =>
      withStoreAnswer(x, respond, store.snapshot(), (pets) =>
        respond.send(
          x,
          200,
          `{"clock":${JSON.stringify(new Date(clock.now()).toISOString())},"faults":${JSON.stringify(faults.entries())},"journal":${journal.size},"pets":${pets.toString('utf8')}}`,
        ),
      ),
    reset: (x) =>
      withStoreAnswer(x, respond, store.reset(), () => {
        // The clock is left as it is: PUT /clock moves it.
        faults.clear();
        deps.stubs.clear();
        journal.clear();
        deps.findings.clear();
        withStoreAnswer(x, respond, announce(deps, 'reset'), () => summarise(x));
      }),
    loadPets: (x) =>
      body(x, validatePets, (value) => {
        // Every entry is a NewPet (the spec's body schema says so); readNewPet keeps only its fields.
        const pets = (value as JsonValue[]).map((entry) => (readNewPet(entry) as Extract<NewPetResult, { ok: true }>).pet);
        withStoreAnswer(x, respond, store.createMany(pets), (created) => {
          if (!created.ok) {
            return respond.sendError(x, 'storage_full', `${pets.length} pets would put the store over its capacity of ${store.capacity}; nothing was created`);
          }
          const { ids, size } = created;
          respond.send(
            x,
            201,
            stringifyJson({
              created: BigInt(pets.length),
              // With random ids the first and the last do not say which ids lie between: `ids` lists them.
              ...(ids.length ? { firstId: ids[0] as bigint, lastId: ids[ids.length - 1] as bigint } : {}),
              pets: BigInt(size),
              ids,
            }),
          );
        });
      }),
    setClock: (x) =>
      body(x, validateClock, (value) => {
        const now = (value as JsonObject)['now'];
        if (now === null) clock.set(new Date());
        else {
          const instant = typeof now === 'string' ? readInstant(now) : undefined;
          if (!instant) return respond.sendError(x, 'invalid_body', 'now must be an ISO 8601 instant such as 2030-12-05T00:00:00Z, or null');
          clock.set(instant);
        }
        withStoreAnswer(x, respond, announce(deps, 'clock'), () => summarise(x));
      }),
    ...faultHandlers(deps, body),
    ...journalHandlers(deps),
    ...stubHandlers(deps, body),
    // The answer leaves first; the shutdown then lets it finish like any request in flight.
    shutdown: (x) => {
      respond.send(x, 202, JSON.stringify(deps.findings.list()));
      setImmediate(deps.shutdown);
    },
    clearFindings: (x) => {
      deps.findings.clear();
      withStoreAnswer(x, respond, announce(deps, 'findings'), () => respond.send(x, 204, undefined));
    },
  };
  return createRequestHandler({
    operations: controlOperations,
    handlers,
    authenticate: deps.authenticate,
    basePath: CONTROL_PREFIX,
    clock,
    limits,
    respond,
  });
}

/** The stubs of the control API: list, add (checked against the spec) and clear. */
function stubHandlers(deps: ControlDeps, body: BodyReader): Record<string, OperationHandler> {
  const { stubs, respond } = deps;
  return {
    listStubs: (x) => respond.send(x, 200, JSON.stringify(stubs.list())),
    clearStubs: (x) => {
      stubs.clear();
      respond.send(x, 204, undefined);
    },
    addStub: (x) =>
      body(x, validateStub, (json) => {
        const { operationId, times, invalid, ...answer } = json as JsonObject;
        // Integers arrive as bigints (spec/json): the answer's status and the count are numbers.
        const outcome = stubs.add(
          operationId as string,
          { ...(answer as unknown as StubAnswer), status: Number(answer['status']) },
          {
            ...(times === undefined ? {} : { times: Number(times) }),
            invalid: invalid === true,
          },
        );
        if (!outcome.ok) return respond.sendError(x, 'invalid_body', `${outcome.code}: ${outcome.message}`);
        respond.send(x, 201, JSON.stringify(outcome.stub));
      }),
  };
}

/** A Fault body (checked against the spec) as the fault in force, its defaults filled in. */
export function faultFrom(value: JsonObject): Fault {
  // An errorRate without a status fails with fault_injected's own status, as the error catalogue says.
  const status = value['status'] !== undefined ? Number(value['status']) : Number(value['errorRate'] ?? 0) > 0 ? statusOf('fault_injected') : undefined;
  return {
    latencyMs: Number(value['latencyMs'] ?? 0),
    ...(status !== undefined ? { status } : {}),
    errorRate: Number(value['errorRate'] ?? (status !== undefined ? 1 : 0)),
    dropRate: Number(value['dropRate'] ?? 0),
  };
}

/** Tells the other instances sharing the store (none with the in-memory store: nothing to wait for). */
function announce(deps: ControlDeps, change: ControlChange): Promise<void> | undefined {
  return deps.shared?.announce(change);
}

type BodyReader = (x: Exchange, validate: ReturnType<typeof compileSchema>, then: (value: JsonValue) => void) => void;

/** The faults of the control API: list, set and clear, per operation of the interface. */
function faultHandlers(deps: ControlDeps, body: BodyReader): Record<string, OperationHandler> {
  const { faults, respond } = deps;
  return {
    listFaults: (x) => respond.send(x, 200, JSON.stringify(faults.entries())),
    clearFaults: (x) => {
      faults.clear();
      withStoreAnswer(x, respond, announce(deps, 'faults'), () => respond.send(x, 204, undefined));
    },
    setFault: (x, params) => {
      const operationId = params['operationId'] as string;
      if (!deps.operationIds.includes(operationId)) {
        return respond.sendError(x, 'route_not_found', `no operation ${operationId}; faults apply to ${deps.operationIds.join(', ')}`);
      }
      body(x, validateFault, (json) => {
        const fault = faultFrom(json as JsonObject);
        faults.set(operationId, fault);
        withStoreAnswer(x, respond, announce(deps, 'faults'), () => respond.send(x, 200, JSON.stringify(fault)));
      });
    },
    clearFault: (x, params) => {
      const operationId = params['operationId'] as string;
      if (!faults.delete(operationId)) return respond.sendError(x, 'route_not_found', `no fault on ${operationId}`);
      withStoreAnswer(x, respond, announce(deps, 'faults'), () => respond.send(x, 204, undefined));
    },
  };
}

/** A query parameter that the pipeline has checked is an integer, as a number. */
const numberParam = (value: unknown): number | undefined => (value === undefined ? undefined : Number(value));

/** The journal and the findings of the control API: read (the latest first, or since a mark) and clear. */
function journalHandlers(deps: ControlDeps): Record<string, OperationHandler> {
  const { journal, respond } = deps;
  return {
    readJournal: (x, params) => {
      // Without a limit, every entry (none with --journal-size 0, which is no reason for a 400).
      const limit = numberParam(params['limit']);
      const operation = params['operation'] as string | undefined;
      const since = numberParam(params['since']);
      if (operation === undefined && since === undefined) return respond.send(x, 200, JSON.stringify(journal.latest(limit)));
      const selected = journal.select({ operation, since });
      respond.send(x, 200, JSON.stringify(limit === undefined ? selected : selected.slice(-limit)));
    },
    mark: (x) => respond.send(x, 200, JSON.stringify({ since: deps.mark() })),
    readFindings: (x, params) => respond.send(x, 200, JSON.stringify(deps.findings.list(numberParam(params['since'])))),
    readJournalHar: (x, params) => {
      const limit = params['limit'] === undefined ? undefined : Number(params['limit']);
      // A browser that opens the address saves the file, ready for its Network panel's import.
      respond.send(x, 200, JSON.stringify(journalHar(journal.latestRecords(limit), journal.reader)), [
        'content-disposition',
        'attachment; filename="petstore-journal.har"',
      ]);
    },
    clearJournal: (x) => {
      journal.clear();
      withStoreAnswer(x, respond, announce(deps, 'journal'), () => respond.send(x, 204, undefined));
    },
  };
}
