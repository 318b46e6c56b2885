/**
 * The vocabulary of the suite: families, checks, violations, advisories and
 * the structured result that `runConformance` returns and reporters render.
 */
import type { OperationDescriptor } from '../spec/operations.js';
import type { Client, Exchange, WireRequest, WireResponse } from './client.js';
import type { Coverage } from './coverage.js';
import type { Knowledge } from './knowledge.js';
import type { TlsOptions } from './transport.js';

/**
 * The families of checks, each declared once, here: its id and what it
 * requires. The order is also the order checks start in: the families that
 * create what later ones read come first, and the probes that only expect
 * refusals (while a broken target might still create) last, so that a small
 * --max-writes goes to real pets. Each family's checks are built by the
 * builder of the same id in checks/index.ts (the compiler requires one per
 * family), and a test fails for a family whose run has no check.
 */
export const FAMILY_TABLE = [
  {
    id: 'auth',
    description:
      'Missing, empty, malformed or wrong credentials get 401 with an Error body on every operation, before validation and lookup; a valid key is never refused.',
  },
  { id: 'validation', description: 'Every class of invalid NewPet body gets 400 with an Error body; every valid body gets 201 with the created Pet.' },
  { id: 'limits', description: 'listPets returns at most `limit` pets (1..100, default 20), and a short page holds every matching pet.' },
  { id: 'not-found', description: 'getPet answers an int64 id with its Pet or 404 with an Error body.' },
  {
    id: 'deprecation',
    description: "getPet keeps working before its removal date (by the target's own clock) and signals its deprecation with well-formed headers.",
  },
  { id: 'responses', description: 'Every response has a declared status, a JSON Content-Type and a body that matches the spec; no 5xx ever.' },
  {
    id: 'state',
    description: 'Model-based runs of create/get/list: created pets are retrievable unchanged, ids are unique, filters and short pages are exact.',
  },
  {
    id: 'routes',
    description:
      'Without a valid key, no spelling of a route that a router may fold into the operation (trailing slash, letter case, percent-encoding, dot segments, doubled slashes, matrix parameter, format suffix, empty query, HEAD) serves pets or creates one.',
  },
  {
    id: 'media-types',
    description:
      'A NewPet sent as application/json with any parameters or letter case is created; another media type is refused with an Error body (accepting it is an advisory); every Accept that allows JSON gets JSON.',
  },
  {
    id: 'concurrency',
    description:
      'Bursts of simultaneous creates (identical bodies too) give distinct ids and pets retrievable with exactly their own fields; lists read during a burst are valid pages.',
  },
  {
    id: 'leaks',
    description:
      'No answer gives the API key away (in an Error message or a header) or the internals behind it (a stack trace); every wrong key gets 401, and a refusal that tells how close a wrong key came is an advisory.',
  },
  {
    id: 'http',
    description:
      'What RFC 9110, 9111 and 9112 require of any origin server, on every answer (Date, the 401 challenge, Allow on 405, 206/304 rules, no shared caching of pets) and for what clients may send (chunked bodies, preconditions, ranges, other methods, Host).',
  },
  {
    id: 'json',
    description:
      'Every JSON answer is UTF-8 without a byte order mark and names each member once (RFC 8259 §4, §8.1); request bodies at the edges of RFC 8259 get 201 with one of their readings or 400, never a value no parser could read.',
  },
  {
    id: 'invariants',
    description:
      'Properties of every request the run sends: without a valid key nothing is served or changed (any method, path, header), every Pet served is valid and no page exceeds the maximum, the service owns the ids, and every body reads as its headers say.',
  },
  {
    id: 'oracle',
    description:
      'Every request of the run is sent again to a second implementation (the reference server in-process, or --compare URL) and the two answers are compared: where the seed leaves no room for another outcome, a difference fails.',
  },
] as const;

export type Family = (typeof FAMILY_TABLE)[number]['id'];

export const FAMILIES: readonly Family[] = FAMILY_TABLE.map((f) => f.id);

export const FAMILY_DESCRIPTIONS = Object.fromEntries(FAMILY_TABLE.map((f) => [f.id, f.description])) as Record<Family, string>;

/** A broken requirement, thrown from a check with the exchange that shows it. */
export class Violation extends Error {
  readonly code = 'violation';
  constructor(
    message: string,
    readonly exchange?: { request: WireRequest; response?: WireResponse },
    /** The request broke in the check's own preparation (a pet it needed), not in what the check is about. */
    readonly setup = false,
  ) {
    super(message);
  }
}

/** Behaviour the seed leaves open, seen to differ from this project's own decision. */
export interface Advisory {
  readonly decision: string;
  readonly family: Family;
  readonly operationId: string;
  /** The seed's words that leave it open. */
  readonly seed: string;
  readonly observed: string;
  /** What this project's reference server does (a requirement under --strict). */
  readonly referenceBehaviour: string;
  readonly request?: WireRequest;
  readonly response?: WireResponse;
}

export interface Failure {
  readonly checkId: string;
  readonly family: Family;
  readonly operationId: string;
  /** The requirement, quoting the seed. */
  readonly requirement: string;
  readonly seedSection: string;
  readonly message: string;
  readonly request?: WireRequest;
  readonly response?: WireResponse;
  /** The shrunk generated input, as fast-check prints it. */
  readonly counterexample?: string;
  /** fast-check's seed and path, to replay exactly this case. */
  readonly seed?: number;
  readonly path?: string;
  /** How many times the same problem was seen (responses are judged on every exchange). */
  readonly occurrences?: number;
  /** It broke in the check's own preparation (a pet it needed could not be created), not in what the check is about. */
  readonly setup?: boolean;
  /** The cause it shares with other failures (`ConformanceResult.causes`), when one was found. */
  readonly cause?: string;
}

/** A row of the tolerance table and how many answers of the run it excused. */
export interface ToleratedDifference {
  readonly id: string;
  readonly allows: string;
  readonly source: string;
  readonly count: number;
}

/**
 * Failures that one defect explains: they share an offending value or
 * request (the same int64 changed, the same refusal of a valid create). The
 * summary says what was sent and what came back, never a mechanism the
 * answers do not show.
 */
export interface Cause {
  readonly id: string;
  readonly summary: string;
  /** What shows it: the first exchange of the group, as sent and as answered. */
  readonly evidence: string;
  /** The checks whose failures it explains. */
  readonly checkIds: readonly string[];
  readonly failures: number;
}

/**
 * How a check ended, exactly one of:
 * - `passed`: it sent requests for its requirement and every answer kept it;
 * - `failed`: an answer broke it (see `failure`);
 * - `advisory`: it passed, and saw behaviour the seed leaves open that
 *   differs from this project's decision (see the result's advisories);
 * - `skipped`: an option left it out (--read-only, --checks, the time budget);
 * - `not run`: there was nothing to exercise (no request was sent), with the
 *   reason in `note`. Never counted as passed.
 */
export type CheckStatus = 'passed' | 'failed' | 'advisory' | 'skipped' | 'not run';

export const CHECK_STATUSES: readonly CheckStatus[] = ['passed', 'failed', 'advisory', 'skipped', 'not run'];

export interface CheckOutcome {
  readonly id: string;
  readonly family: Family;
  readonly operationId: string;
  readonly title: string;
  readonly status: CheckStatus;
  /** Why it was skipped or not run, or a note such as "write budget used up after 40 runs". */
  readonly note?: string;
  readonly runs: number;
  /** Requests the check sent (0: it exercised nothing, so it is `not run`, never `passed`). */
  readonly requests?: number;
  readonly durationMs: number;
  readonly failure?: Failure;
}

export interface RunOptions {
  baseUrl: string;
  apiKey: string;
  seed: number;
  runs: number;
  families: readonly Family[];
  /** Only the checks whose id starts with one of these (all when empty). */
  checkIds: readonly string[];
  strict: boolean;
  readOnly: boolean;
  maxWrites: number;
  rate: number;
  concurrency: number;
  timeoutMs: number;
  timeBudgetMs: number;
  namePrefix: string;
  maxResponseBytes: number;
  /**
   * How long a write may take to become visible to reads (a list served from
   * a search index, a getPet from a replica): a read that misses a pet this
   * run created is sent again until it shows it or this window, counted from
   * the 201, ends. 0 demands read-your-writes.
   */
  settleMs: number;
  /** Fields sent on every request (`--header`): a gateway's or an access proxy's own credentials. */
  headers?: Readonly<Record<string, string>>;
  /** An extra CA, a client certificate, or no verification (`--ca`, `--cert`/`--key`, `--insecure`). */
  tls?: TlsOptions;
  /** Where the proxy settings are read from (HTTP_PROXY, HTTPS_PROXY, NO_PROXY…); process.env by default. */
  env?: Readonly<Record<string, string | undefined>>;
  /** How the CLI was told to reach the target (--header, --ca…), as shell words without secrets: rerun lines repeat them. */
  rerunOptions?: readonly string[];
  onProgress?: (event: ProgressEvent) => void;
  /** A second implementation every request is also sent to, and compared with (differential/mirror.ts): the reference server, or --compare URL. */
  oracle?: OracleTarget;
  /** Differences between the target and the oracle that a release intends (--compare-allow), allowed as rows of the tolerance table. */
  compareAllow?: readonly CompareAllowance[];
  /** Sees every pair the oracle compared: the target's exchange, the oracle's answer, and the facts the comparison used. */
  observeOracle?: (exchange: Exchange, oracle: WireResponse, facts: PairFacts) => void;
  /** Sees every exchange of the run as it is answered (the mutation run replays them into the responses judge). */
  observe?: (exchange: Exchange) => void;
}

export type ProgressEvent = { type: 'check-start'; check: string; family: Family } | { type: 'check-end'; outcome: CheckOutcome; requests: number };

/** What a report says about how the run reached its target (never a secret: header names only). */
export interface ConnectionFacts {
  /** The proxy every request went through, without its credentials. */
  readonly proxy?: string;
  /** Certificates were not verified (--insecure). */
  readonly insecure?: boolean;
  /** An extra CA was trusted (--ca). */
  readonly extraCa?: boolean;
  /** A client certificate was presented (--cert, --key). */
  readonly clientCertificate?: boolean;
  /** The names of the fields --header added to every request. */
  readonly headers?: readonly string[];
  /** The options that reach the target again, as shell words for a rerun line (values from the environment as ${VAR}, never a secret). */
  readonly rerunOptions?: readonly string[];
}

export interface ConformanceResult {
  /** True when no requirement failed. */
  readonly ok: boolean;
  /** How many checks ended in each outcome. */
  readonly counts: Readonly<Record<CheckStatus, number>>;
  /** Checks that exercised their requirement (passed, failed or advisory): a run with none tested nothing. */
  readonly exercised: number;
  readonly target: string;
  readonly seed: number;
  readonly strict: boolean;
  readonly startedAt: string;
  readonly durationMs: number;
  /** Of `durationMs`, the time spent loading the response validator (Prism) before the checks started; 0 when the responses family does not run. */
  readonly validatorLoadMs: number;
  readonly requests: number;
  readonly writes: number;
  readonly checks: readonly CheckOutcome[];
  readonly failures: readonly Failure[];
  /** Failures grouped by the defect that explains them (two or more failures each); the report leads with them. */
  readonly causes: readonly Cause[];
  readonly advisories: readonly Advisory[];
  /** The answers the rules over every answer would refuse but a row of the tolerance table excused, counted per row (tolerances.ts). */
  readonly tolerated: readonly ToleratedDifference[];
  /** The target's clock as read from its Date header, when it sent one. */
  readonly targetDate?: string;
  /** How the target was reached, when not directly with default TLS: every report says so. */
  readonly connection?: ConnectionFacts;
  /** What the run actually covered, per operation (coverage.ts). */
  readonly coverage: Coverage;
}

/** What a check gets to work with. */
export interface CheckContext {
  readonly client: Client;
  readonly knowledge: Knowledge;
  readonly options: RunOptions;
  readonly operations: readonly OperationDescriptor[];
  /** Sends a request for `family`, with the valid credential unless `headers` says otherwise. */
  send(
    family: Family,
    request: Omit<WireRequest, 'headers'> & { headers?: Record<string, string>; auth?: string | null },
  ): Promise<{ request: WireRequest; response: WireResponse }>;
  /**
   * Records that a request of `operationId` exercised the class `value` of
   * `dimension` (a credential form, a class of invalid body, a spelling of
   * the route, a media type), for the run's coverage map. Statuses and query
   * values are recorded from every exchange without it.
   */
  cover(operationId: string, dimension: string, value: string): void;
  /** Reports behaviour the seed leaves open; under --strict a difference from `referenceBehaviour` is a Violation. */
  unspecified(advisory: Advisory, conforms: boolean): void;
  /** The time at the target, from its latest Date header (or the local clock). */
  targetNow(): number;
  /** Milliseconds left in the overall time budget. */
  timeLeft(): number;
  /**
   * Sends `read` again, after a growing pause, until `visible` says its
   * answer shows what the run wrote at `writtenAt` (performance.now() of the
   * 201), or the settle window since then ends: the last answer either way.
   * A read that had to wait is counted for the run's lag advisory.
   */
  readAfterWrite(
    read: () => Promise<{ request: WireRequest; response: WireResponse }>,
    visible: (sent: { request: WireRequest; response: WireResponse }) => boolean,
    writtenAt: number,
  ): Promise<{ request: WireRequest; response: WireResponse }>;
}

export interface Check {
  readonly id: string;
  readonly family: Family;
  readonly operationId: string;
  readonly title: string;
  /** The requirement, quoting the seed. */
  readonly requirement: string;
  readonly seedSection: string;
  /** Whether it creates pets (skipped with --read-only). */
  readonly writes: boolean;
  /**
   * It judges what the other checks' requests got (a rule over every answer:
   * checks/rules.ts), so it runs once they have all ended.
   */
  readonly afterAll?: boolean;
  run(ctx: CheckContext): Promise<Omit<CheckOutcome, 'durationMs'> & { readonly extraFailures?: readonly Failure[] }>;
}

export type { Exchange };

/** The second implementation a run compares the target with (differential/mirror.ts). */
export interface OracleTarget {
  /** Where the oracle answers (its base URL, ending in its base path). */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** What the reports call it: "the reference server" or the --compare URL. */
  readonly label: string;
  /** It runs in this process, on loopback: reached directly, never through the run's proxy or TLS settings. */
  readonly inProcess?: boolean;
}

/**
 * How the target's answer differs from the oracle's, in what a client acts on:
 * - accepted-refused: the oracle served (2xx), the target refused (4xx but 401) or found nothing (404, 410);
 * - refused-accepted: the oracle refused a write (4xx but 401), the target accepted it (2xx).
 * The other differences (served without any key, a valid key refused) no row excuses.
 */
export type DifferenceKind = 'served-without-key' | 'valid-key-refused' | 'accepted-refused' | 'refused-accepted';

/** A difference a release intends (`--compare-allow`): of one kind, for one operation and one status of the target's if given. */
export interface CompareAllowance {
  readonly difference: DifferenceKind;
  readonly operationId?: string;
  readonly status?: number;
  readonly reason: string;
}

/** What a comparison of two answers to one request knows besides them (differential/compare.ts). */
export interface PairFacts {
  readonly apiKey: string;
  readonly authorization: string;
  readonly op: OperationDescriptor | undefined;
  readonly lagging: boolean;
}
