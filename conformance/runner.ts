/**
 * Runs the selected families against one target and returns a structured
 * result; it prints nothing (reporters render the result). Checks run a few
 * at a time, bounded by the client's concurrency; each property's own runs
 * are sequential so that its shrinking is deterministic for a given seed.
 */
import { randomInt } from 'node:crypto';
import { operations as specOperations, type OperationDescriptor } from '../spec/operations.js';
import { CHECK_BUILDERS } from './checks/index.js';
import { createResponseJudge } from './checks/responses.js';
import { type Client, createClient, type WireRequest } from './client.js';
import { Knowledge, type CreatedPet } from './knowledge.js';
import { runPool } from './pool.js';
import { createCoverage } from './coverage.js';
import { diagnose, sentIntegers } from './causes.js';
import { createSettler, type Settler } from './settle.js';
import { createResponseValidator } from './response-validator.js';
import { preflight } from './preflight.js';
import { defaultRunOptions } from './defaults.js';
import { countOutcomes } from './outcomes.js';
import { universalChecks, type ToleratedCounts } from './checks/universal.js';
import { allowanceRows, TOLERANCES, type Tolerance } from './tolerances.js';
import { accountingCheck } from './checks/accounting.js';
import { createOracleSession, oracleCheck, type OracleTarget } from './differential/mirror.js';
import { composedCheck } from './differential/composed.js';
import {
  FAMILIES,
  Violation,
  type Advisory,
  type Check,
  type CheckContext,
  type CheckOutcome,
  type ConformanceResult,
  type ConnectionFacts,
  type Failure,
  type RunOptions,
} from './vocabulary.js';

export { defaultRunOptions };

export type ConformanceOptions = Partial<RunOptions> &
  Pick<RunOptions, 'baseUrl' | 'apiKey'> & {
    /** Operations to check; the spec's by default. */
    operations?: readonly OperationDescriptor[];
  };

export async function runConformance(input: ConformanceOptions): Promise<ConformanceResult> {
  const given: RunOptions = { ...defaultRunOptions, seed: Date.now() % 2 ** 31, ...input };
  const options: RunOptions = { ...given, namePrefix: runMarker(given.namePrefix) };
  const operations = input.operations ?? specOperations;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const deadline = started + options.timeBudgetMs;
  const knowledge = new Knowledge();
  const client = clientFor(options);
  // Prism (the response validator) is started only when the responses family will use it.
  const judging = options.families.includes('responses') && (options.checkIds.length === 0 || options.checkIds.some((id) => id.startsWith('responses')));
  const judge = judging ? createResponseJudge(operations, await createResponseValidator(operations)) : undefined;
  const validatorLoadMs = performance.now() - started;
  client.observe((exchange) => knowledge.noteDate(exchange.response.headers['date']));
  const coverage = createCoverage(operations);
  client.observe(coverage.observe);
  const integers = sentIntegers();
  client.observe(integers.observe);
  if (judge) client.observe(judge.observe);
  if (options.observe) client.observe(options.observe);

  const advisories = new Map<string, Advisory>();
  const settler = createSettler(options.settleMs);
  const ctx = runContext({ client, knowledge, options, operations, cover: coverage.cover, advisories, deadline, settler });
  // The rules over every answer hear the preflight too, and no --families or --checks turns them off.
  const judges = runJudges(ctx, options);

  try {
    await preflight(ctx);
    const composed = judges.session && options.families.includes('oracle') ? composedCheck(ctx, judges.session, judges.table, judges.tolerated) : undefined;
    const checks = FAMILIES.filter((family) => options.families.includes(family))
      .flatMap((family) => CHECK_BUILDERS[family](ctx))
      .concat(composed ? [composed] : [])
      .filter((check) => options.checkIds.length === 0 || options.checkIds.some((id) => check.id.startsWith(id)));
    const [outcomes, judged] = await runChecks(ctx, checks, judges.universal);
    const all: (CheckOutcome & { extraFailures?: readonly Failure[] })[] = [...outcomes, ...judged, ...(judge ? await judge.outcomes() : [])];
    const found = all.flatMap((o) => (o.failure ? [o.failure, ...(o.extraFailures ?? [])] : []));
    const create = operations.find((op) => op.method === 'POST' && op.requestBody && op.responses.some((r) => r.status === 201));
    const { failures, causes } = diagnose(found, integers.all(), create);
    // Each check's own failure carries the cause it shares, as the run's list does.
    const withCause = new Map(found.map((f, i) => [f, failures[i]!]));
    const counts = countOutcomes(all);
    const stats = client.stats();
    noteRunAdvisories(advisories, stats, settler, options);
    const targetDate = knowledge.targetDate();
    return {
      ok: failures.length === 0,
      counts,
      exercised: counts.passed + counts.failed + counts.advisory,
      target: options.baseUrl,
      seed: options.seed,
      strict: options.strict,
      startedAt,
      durationMs: performance.now() - started,
      validatorLoadMs: judge ? validatorLoadMs : 0,
      requests: stats.requests,
      writes: stats.writes,
      checks: all.map(({ extraFailures: _extra, ...outcome }) => (outcome.failure ? { ...outcome, failure: withCause.get(outcome.failure)! } : outcome)),
      failures,
      causes,
      advisories: [...advisories.values()],
      tolerated: judges.table.filter((row) => judges.tolerated.has(row.id)).map((row) => ({ ...pick(row), count: judges.tolerated.get(row.id)! })),
      ...(targetDate ? { targetDate } : {}),
      ...connectionFacts(client, options),
      coverage: coverage.snapshot(),
    };
  } finally {
    await client.close();
    await judges.oracleClient?.close();
  }
}

const pick = ({ id, allows, source }: Tolerance) => ({ id, allows, source });

/**
 * What judges the run as a whole: the tolerance table (with the release's --compare-allow rows), the oracle when
 * there is one, and the checks that judge every answer. The accounting goes first, so that its read-back is judged
 * by the oracle and the rules too; under --read-only the run sends no name to account for.
 */
function runJudges(ctx: CheckContext, options: RunOptions) {
  const tolerated: ToleratedCounts = new Map();
  const table = [...TOLERANCES, ...allowanceRows(options.compareAllow ?? [])];
  const oracleClient = options.oracle ? oracleClientFor(options, options.oracle) : undefined;
  const session = oracleClient && options.oracle ? createOracleSession(ctx, oracleClient, options.oracle) : undefined;
  const universal = [
    ...(options.readOnly ? [] : [accountingCheck(ctx)]),
    ...(session ? [oracleCheck(ctx, session, tolerated, table)] : []),
    ...universalChecks(ctx, TOLERANCES, tolerated),
  ];
  return { tolerated, table, oracleClient, session, universal };
}

/**
 * The checks a few at a time, then those that judge what the others' requests got, then the judges of every answer
 * when the selection exercised anything (else they would have judged only the run's own preflight).
 */
async function runChecks(ctx: CheckContext, checks: readonly Check[], universal: readonly Check[]): Promise<[CheckResult[], CheckResult[]]> {
  const { options, client } = ctx;
  const report = async (check: Check) => {
    options.onProgress?.({ type: 'check-start', check: check.id, family: check.family });
    const outcome = await runOne(ctx, check);
    options.onProgress?.({ type: 'check-end', outcome, requests: client.stats().requests });
    return outcome;
  };
  const outcomes = await runPool(
    checks.filter((check) => !check.afterAll),
    Math.max(1, Math.min(options.concurrency, 8)),
    report,
  );
  const selected = await runPool(
    checks.filter((check) => check.afterAll),
    1,
    report,
  );
  const exercised = [...outcomes, ...selected].some((o) => o.status === 'passed' || o.status === 'failed' || o.status === 'advisory');
  return [outcomes, [...selected, ...(exercised ? await runPool(universal, 1, report) : [])]];
}

type CheckResult = CheckOutcome & { extraFailures?: readonly Failure[] };

/**
 * The run's marker: the name prefix and a random token (four letters or digits and a dot), so that no pet of an
 * earlier run, with the same --seed or not, is taken for one of this run's by the state accounting.
 */
export function runMarker(prefix: string): string {
  return `${prefix}${randomInt(36 ** 4)
    .toString(36)
    .padStart(4, '0')}.`;
}

/** The client a run sends through: no writes at all under --read-only. */
function clientFor(options: RunOptions): Client {
  return createClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    rate: options.rate,
    maxWrites: options.readOnly ? 0 : options.maxWrites,
    maxResponseBytes: options.maxResponseBytes,
    ...(options.headers ? { headers: options.headers } : {}),
    transport: { ...(options.tls ? { tls: options.tls } : {}), ...(options.env ? { env: options.env } : {}) },
  });
}

/** The oracle's client: one request at a time (in the order the target answered), the run's transport unless it is in this process. */
function oracleClientFor(options: RunOptions, oracle: OracleTarget): Client {
  const { tls: _tls, env: _env, ...rest } = options;
  const direct = oracle.inProcess ? { ...rest, env: {} } : options;
  return clientFor({ ...direct, baseUrl: oracle.baseUrl, apiKey: oracle.apiKey, concurrency: 1, rate: 0, headers: {}, maxWrites: Number.MAX_SAFE_INTEGER });
}

/** What the run as a whole showed, beside any check: the 429s the target answered, the reads that waited for writes. */
function noteRunAdvisories(advisories: Map<string, Advisory>, stats: ReturnType<Client['stats']>, settler: Settler, options: RunOptions): void {
  if (stats.rateLimited > 0) {
    advisories.set('rate-limited', {
      decision: 'rate-limits',
      family: 'responses',
      operationId: '*',
      seed: '§8 "Rate limits ... not shown"',
      observed: `the target answered 429 Too Many Requests ${stats.rateLimited} times; each request was sent again after its Retry-After`,
      referenceBehaviour: "no rate limit; lower --rate or --concurrency to stay under the target's",
    });
  }
  // Reads that waited for the run's writes: allowed within the window (the seed promises no timing), and
  // reported. Not a failure under --strict either: --settle 0 is how a run demands read-your-writes.
  const lags = settler.summary();
  for (const lag of lags) {
    const advisory: Advisory = {
      decision: 'read-after-write',
      family: 'state',
      operationId: lag.operationId,
      seed: '§4 (when a created pet becomes visible to reads is not shown)',
      observed: `${lag.waited} read${lag.waited === 1 ? '' : 's'} of ${lag.operationId} showed a pet this run created only after waiting: median ${Math.round(lag.medianMs)} ms, worst ${Math.round(lag.worstMs)} ms after its 201 (within the settle window of ${options.settleMs / 1000} s)`,
      referenceBehaviour: 'read-your-writes: a created pet is in the very next list and getPet',
    };
    advisories.set(`read-after-write ${lag.operationId}`, advisory);
  }
}

/**
 * The context every check of a run shares: requests with the valid key by
 * default, advisories gathered once per decision and operation (a Violation
 * under --strict), the target's clock and the time left.
 */
function runContext(run: {
  client: Client;
  knowledge: Knowledge;
  options: RunOptions;
  operations: readonly OperationDescriptor[];
  cover: CheckContext['cover'];
  advisories: Map<string, Advisory>;
  deadline: number;
  settler: Settler;
}): CheckContext {
  const { client, knowledge, options, advisories, deadline, settler } = run;
  const createdId = createdPetReader(run.operations, knowledge);
  return {
    client,
    knowledge,
    options,
    operations: run.operations,
    async send(family, { auth, headers, ...rest }) {
      // The --header fields come first, so a check that sets one of them itself is sent as it says (the client adds the rest).
      const all: Record<string, string> = { ...client.extraHeaders, accept: 'application/json' };
      const credential = auth === undefined ? client.authorization : auth;
      if (credential !== null) all['authorization'] = credential;
      if (rest.body !== undefined) all['content-type'] = 'application/json';
      Object.assign(all, headers);
      const request = { ...rest, headers: all };
      const read = async () => ({ request, response: await client.send(family, request) });
      // A pet this run created may not be readable yet (a replica behind): its 404 is read again within the settle window.
      const created = credential === client.authorization && !request.offSpec ? createdId(request) : undefined;
      if (created === undefined) return read();
      return settler.readAfterWrite(read, (sent) => sent.response.status !== 404, created.confirmedAt);
    },
    readAfterWrite: settler.readAfterWrite,
    cover: run.cover,
    unspecified(advisory, conforms) {
      if (conforms) return;
      if (options.strict) {
        throw new Violation(
          `${advisory.observed}; --strict requires this project's decision: ${advisory.referenceBehaviour} (the seed leaves it open: ${advisory.seed})`,
          advisory.request ? { request: advisory.request, ...(advisory.response ? { response: advisory.response } : {}) } : undefined,
        );
      }
      const key = `${advisory.decision} ${advisory.operationId}`;
      if (!advisories.has(key)) advisories.set(key, advisory);
    },
    targetNow: () => knowledge.targetNow(),
    timeLeft: () => Math.max(0, deadline - performance.now()),
  };
}

/** How the target was reached, for every report: only what differs from a direct connection with default TLS. */
function connectionFacts(client: Client, options: RunOptions): { connection?: ConnectionFacts } {
  const names = Object.keys(options.headers ?? {});
  const facts: ConnectionFacts = {
    ...(client.proxy ? { proxy: client.proxy } : {}),
    ...(options.tls?.insecure ? { insecure: true } : {}),
    ...(options.tls?.ca ? { extraCa: true } : {}),
    ...(options.tls?.cert ? { clientCertificate: true } : {}),
    ...(names.length ? { headers: names } : {}),
    ...(options.rerunOptions?.length ? { rerunOptions: options.rerunOptions } : {}),
  };
  return Object.keys(facts).length ? { connection: facts } : {};
}

/** The pet of this run that a getPet request names, if it names one. */
function createdPetReader(operations: readonly OperationDescriptor[], knowledge: Knowledge): (request: WireRequest) => CreatedPet | undefined {
  const get = operations.find((op) => op.method === 'GET' && op.path.includes('{') && op.responses.some((r) => r.status === 200));
  if (!get) return () => undefined;
  const [before, after] = get.path.split(/\{[^}]+\}/) as [string, string];
  return (request) => {
    if (request.method !== get.method || request.operationId !== get.operationId || !request.path.startsWith(before)) return undefined;
    const rest = request.path.slice(before.length);
    const id = after === '' ? rest : rest.endsWith(after) ? rest.slice(0, -after.length) : undefined;
    return id !== undefined && /^-?\d+$/.test(id) ? knowledge.get(id) : undefined;
  };
}

async function runOne(ctx: CheckContext, check: Check): Promise<CheckOutcome & { extraFailures?: readonly Failure[] }> {
  const started = performance.now();
  const base = { id: check.id, family: check.family, operationId: check.operationId, title: check.title, runs: 0, requests: 0 };
  if (check.writes && ctx.options.readOnly) return { ...base, status: 'skipped', note: 'it needs to create pets; --read-only', durationMs: 0 };
  if (ctx.timeLeft() <= 0) return { ...base, status: 'skipped', note: 'time budget used up', durationMs: 0 };
  const own = ownContext(ctx);
  const outcome = await check.run(own.ctx);
  // A rule counts the answers it judged; any other check, the requests it sent.
  const requests = outcome.requests ?? own.requests();
  const durationMs = performance.now() - started;
  if (outcome.status === 'passed' && requests === 0) {
    return { ...outcome, requests, durationMs, status: 'not run', note: outcome.note ?? 'nothing to exercise: the check sent no request' };
  }
  if (outcome.status === 'passed' && own.advised()) return { ...outcome, requests, durationMs, status: 'advisory' };
  return { ...outcome, requests, durationMs };
}

/**
 * The run's context as one check sees it: every request it sends, through
 * either `send` or the client, is counted, and every advisory it raises
 * noted, so that its outcome says what it really exercised.
 */
function ownContext(ctx: CheckContext): { ctx: CheckContext; requests: () => number; advised: () => boolean } {
  let requests = 0;
  let advised = false;
  const client = {
    ...ctx.client,
    send(family: string, request: WireRequest) {
      requests++;
      return ctx.client.send(family, request);
    },
    sendRaw(family: string, request: WireRequest & { raw: string }) {
      requests++;
      return ctx.client.sendRaw(family, request);
    },
  };
  return {
    ctx: {
      ...ctx,
      client,
      send(family, request) {
        requests++;
        return ctx.send(family, request);
      },
      unspecified(advisory, conforms) {
        if (!conforms) advised = true;
        ctx.unspecified(advisory, conforms);
      },
    },
    requests: () => requests,
    advised: () => advised,
  };
}
