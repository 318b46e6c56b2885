/**
 * What a client's test suite does with a started server without HTTP,
 * WireMock-style: verify what the client sent (the journal), answer it with
 * a stub, move the clock, inject faults, read the findings; and, for tests
 * sharing one server, a mark, so that each test sees its own requests and
 * findings. Each call does what the control API's route of the same name
 * does (control/api.ts), shared with other instances the same way.
 */
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../spec/json/index.js';
import { faultFrom, validateFault } from './server/control/api.js';
import type { Fault } from './server/control/faults.js';
import type { DetailedJournalEntry } from './server/control/journal.js';
import type { StubAnswer, StubErrorCode, StubOptions, StubSummary } from './server/control/stubs.js';
import type { PetstoreServer } from './server/create-server.js';
import { readInstant } from './server/instant.js';
import { assertNoFindings, type AssertOptions, type Finding } from './server/index.js';
import type { Store } from './store/index.js';

/** Thrown by a call the server refuses (a stub the spec does not allow, a fault for no operation): `code` says why. */
export class ControlError extends Error {
  constructor(
    readonly code: StubErrorCode | 'invalid_fault' | 'invalid_instant',
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

export interface SinceOptions {
  /** A request id from mark(): only what happened from that request on. */
  readonly since?: number;
}

export interface RequestQuery extends SinceOptions {
  /** An operationId of the interface (listPets, createPet, getPet). */
  readonly operation?: string;
}

/** The server clock, as PUT /__control/clock moves it: it runs at real speed from the instant set. */
export interface ServerClock {
  now(): Date;
  /** An instant (a Date or ISO 8601 text), or null for the real time; resolves once a shared store's other instances have it. */
  set(instant: Date | string | null): Promise<void>;
}

/** The faults per operation, as PUT /__control/faults/{operationId} sets them. */
export interface ServerFaults {
  /** Sets the fault of `operationId` and returns it as in force (defaults filled in, as the control API answers). */
  set(operationId: string, fault: Partial<Fault>): Fault;
  clear(): void;
  list(): Record<string, Fault>;
}

export interface InProcessControl {
  /**
   * The id the next request will get: pass it as `since` to requests(),
   * findings() and assertNoFindings() to see only what came after (ids only
   * grow, a reset included). Findings are then counted from the mark.
   */
  mark(): number;
  /** The journal's entries (as GET /__control/journal shows them, credentials redacted), oldest first. */
  requests(query?: RequestQuery): DetailedJournalEntry[];
  /**
   * What the client got wrong, counted per rule (as GET /__control/findings);
   * with `since`, only findings seen in that request or a later one, and
   * `count` counts since then when `since` came from mark().
   */
  findings(options?: SinceOptions): Finding[];
  /**
   * Throws a FindingsError listing every finding (since `since`, if given)
   * not in `allow`: codes such as `deprecated_operation`, rules, or
   * predicates. For a client test suite's afterEach.
   */
  assertNoFindings(options?: AssertOptions & SinceOptions): void;
  /**
   * Answers the next `times` accepted requests to `operationId` with
   * `answer`, first in, first out. Throws a ControlError unless the spec
   * declares the status and the body is valid for it, or `invalid` is true.
   */
  stub(operationId: string, answer: StubAnswer, options?: StubOptions): StubSummary;
  /** Removes every stub. */
  clearStubs(): void;
  readonly clock: ServerClock;
  readonly faults: ServerFaults;
}

export function inProcessControl(server: PetstoreServer<Store>): InProcessControl {
  const findings = (options: SinceOptions = {}) => server.findings.list(options.since);
  return {
    mark: () => server.mark(),
    requests: (query = {}) => server.journal.select(query),
    findings,
    assertNoFindings: (options = {}) => assertNoFindings(findings(options), options),
    stub(operationId, answer, options) {
      const outcome = server.stubs.add(operationId, answer, options);
      if (!outcome.ok) throw new ControlError(outcome.code, outcome.message);
      return outcome.stub;
    },
    clearStubs: () => server.stubs.clear(),
    clock: {
      now: () => new Date(server.clock.now()),
      set(instant) {
        const at = instant === null ? new Date() : typeof instant === 'string' ? readInstant(instant) : instant;
        if (at === undefined || Number.isNaN(at.getTime())) {
          throw new ControlError('invalid_instant', `the clock takes an ISO 8601 instant such as 2030-12-05T00:00:00Z, or null, not ${String(instant)}`);
        }
        server.clock.set(at);
        return server.announce('clock');
      },
    },
    faults: faultsOf(server),
  };
}

function faultsOf(server: PetstoreServer<Store>): ServerFaults {
  const operationIds = server.stubs.operationIds;
  return {
    set(operationId, fault) {
      if (!operationIds.includes(operationId))
        throw new ControlError('unknown_operation', `no operation ${operationId}; faults apply to ${operationIds.join(', ')}`);
      // Checked as the control API checks a body: integers as spec/json reads them.
      let value: JsonValue | undefined;
      try {
        const parsed = parseJson(stringifyJson(fault as JsonValue));
        value = parsed.ok ? parsed.value : undefined;
      } catch {
        value = undefined;
      }
      const issue = validateFault(value);
      if (issue || value === undefined)
        throw new ControlError('invalid_fault', issue ? issue.message.replace('the value', 'the fault') : 'the fault is not JSON');
      const inForce = faultFrom(value as JsonObject);
      server.faults.set(operationId, inForce);
      announce(server);
      return inForce;
    },
    clear() {
      server.faults.clear();
      announce(server);
    },
    list: () => server.faults.entries(),
  };
}

/** Tells the other instances of a changed fault table; a store away is no error here: they take up the latest state when it is back (shared-settings.ts). */
function announce(server: PetstoreServer<Store>): void {
  server.announce('faults').catch(() => {});
}
