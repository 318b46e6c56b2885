/**
 * The oracle: every request the run sends to the target is sent again, in
 * the order the target answered them, to a second implementation of the
 * interface (the reference server in-process, or a live target given with
 * --compare), and the two answers are compared (compare.ts). The writes are
 * mirrored too, so the oracle holds the run's pets; their ids differ, and a
 * path that names one of the target's is sent with the oracle's. Requests
 * written by hand and those outside the base path are not mirrored (their
 * bytes name the target), nor answers the target rate-limited or failed
 * (other rules judge those).
 */
import { isObject } from '../../spec/json/is-object.js';
import { idOf } from '../knowledge.js';
import { TransportError, type Client, type Exchange, type WireRequest, type WireResponse } from '../client.js';
import { TOLERANCES, type Tolerance } from '../tolerances.js';
import type { ToleratedCounts } from '../checks/universal.js';

export type { OracleTarget };
import type { Check, CheckContext, Failure, OracleTarget, PairFacts } from '../vocabulary.js';
import { judgePair } from './compare.js';
import { isWrite, outcomeOf } from './outcome.js';

interface Found {
  readonly exchange: Exchange;
  readonly oracle: WireResponse;
  readonly message: string;
  count: number;
}

const ORACLE = {
  id: 'oracle.same-outcome',
  family: 'oracle',
  operationId: '*',
  title: 'every request gets the outcome the oracle gives it, where the seed leaves no room for another',
  requirement:
    "Two implementations of the interface answer the same request alike in what a client acts on, wherever the seed and the RFCs leave no choice (seed §4, §5, §7): a request without any form of the key is never served or written by one and refused by the other, the valid key is never refused where the other serves, a request one serves the other does not refuse, and a write one refuses the other does not accept. What they may answer differently is the tolerance table's (same-outcome rows).",
  seedSection: 'seed §4, §5, §7',
} as const;

/**
 * The oracle as a run uses it: the same request, translated, sent to it; the ids of the run's pets on both sides,
 * noted from every write both accepted; and the facts a comparison needs.
 */
export interface OracleSession {
  readonly target: OracleTarget;
  /** The oracle's answer to the exchange's request and the facts to compare them by; undefined when it is not mirrored or the oracle is gone. */
  ask(exchange: Exchange): Promise<{ answer: WireResponse; facts: PairFacts } | undefined>;
  /** Why the oracle stopped answering, once it has. */
  stopped(): string | undefined;
}

export function createOracleSession(ctx: CheckContext, oracle: Client, target: OracleTarget): OracleSession {
  const ids = new Map<string, string>();
  const createdAt = new Map<string, number>();
  const byId = new Map(ctx.operations.map((op) => [op.operationId, op]));
  let stopped: string | undefined;
  return {
    target,
    stopped: () => stopped,
    async ask(exchange) {
      if (stopped !== undefined || !mirrorable(exchange)) return undefined;
      let answer: WireResponse;
      try {
        answer = await oracle.send('oracle', translated(exchange.request, ids, ctx.options.apiKey, target.apiKey));
      } catch (error) {
        stopped = error instanceof TransportError ? `${target.label} stopped answering: ${error.message}` : String(error);
        return undefined;
      }
      noteCreated(exchange, answer, ids, createdAt);
      const named = namedPet(exchange.request.path, createdAt);
      const lagging = named !== undefined && performance.now() - named < ctx.options.settleMs + 1000;
      const facts: PairFacts = { apiKey: ctx.options.apiKey, authorization: ctx.client.authorization, op: byId.get(exchange.request.operationId), lagging };
      ctx.options.observeOracle?.(exchange, answer, facts);
      return { answer, facts };
    },
  };
}

/** Every exchange of the run that no check compared itself (the composed requests do), compared once the target has answered it. */
export function oracleCheck(ctx: CheckContext, session: OracleSession, tolerated: ToleratedCounts, table: readonly Tolerance[] = TOLERANCES): Check {
  const { target } = session;
  const found = new Map<string, Found>();
  let mirrored = 0;
  let queue = Promise.resolve();

  const compare = async (exchange: Exchange) => {
    if (exchange.family === 'oracle') return;
    const asked = await session.ask(exchange);
    if (!asked) return;
    mirrored++;
    const { answer, facts } = asked;
    const verdict = judgePair(exchange, answer, facts, table, ctx.operations);
    if (!verdict) return;
    if ('tolerated' in verdict) {
      tolerated.set(verdict.tolerated.id, (tolerated.get(verdict.tolerated.id) ?? 0) + 1);
      return;
    }
    const key = `${verdict.difference} ${exchange.request.operationId} ${exchange.response.status} ${answer.status}`;
    const seen = found.get(key);
    if (seen) seen.count++;
    else found.set(key, { exchange, oracle: answer, message: verdict.message, count: 1 });
  };
  ctx.client.observe((exchange) => {
    queue = queue.then(() => compare(exchange));
  });

  return {
    ...ORACLE,
    writes: false,
    afterAll: true,
    async run() {
      await queue;
      const base = { id: ORACLE.id, family: ORACLE.family, operationId: ORACLE.operationId, title: ORACLE.title, runs: mirrored, requests: mirrored };
      const rows = table.filter((row) => row.rule === 'same-outcome').map((row) => row.id);
      const failures: Failure[] = [...found.values()].map(({ exchange, oracle: answer, message, count }) => ({
        checkId: ORACLE.id,
        family: ORACLE.family,
        operationId: exchange.request.operationId,
        requirement: ORACLE.requirement,
        seedSection: ORACLE.seedSection,
        message: `${message}. ${target.label} answered ${describeAnswer(answer)}; no row of the tolerance table applies (${rows.join(', ')})`,
        request: exchange.request,
        response: exchange.response,
        occurrences: count,
      }));
      const stopped = session.stopped();
      if (failures.length === 0 && stopped !== undefined) return { ...base, status: 'skipped', note: stopped };
      if (failures.length === 0)
        return { ...base, status: mirrored === 0 ? 'not run' : 'passed', ...(mirrored === 0 ? { note: 'no request of the run could be mirrored' } : {}) };
      const [first, ...rest] = failures as [Failure, ...Failure[]];
      return { ...base, status: 'failed', failure: first, extraFailures: rest };
    },
  };
}

/** Hand-written bytes name the target; a path outside the base path may not exist at the oracle; a 429 or 5xx is judged elsewhere. */
function mirrorable({ request, response }: Exchange): boolean {
  const outcome = outcomeOf(response);
  return request.raw === undefined && !request.fromOrigin && outcome !== 'limited' && outcome !== 'failed';
}

/** The request as the oracle must get it: the target's ids of the run's pets replaced by the oracle's, the target's key by the oracle's. */
export function translated(request: WireRequest, ids: ReadonlyMap<string, string>, key: string, oracleKey: string): WireRequest {
  const [path, query] = splitQuery(request.path);
  const segments = path.split('/').map((segment) => ids.get(segment) ?? segment);
  const swap = (text: string) => (key === oracleKey ? text : text.split(key).join(oracleKey));
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.map(swap) : swap(value as string)]),
  );
  return {
    ...request,
    path: swap(segments.join('/') + query),
    headers,
    ...(request.body !== undefined ? { body: swap(request.body) } : {}),
  };
}

function splitQuery(path: string): [string, string] {
  const at = path.indexOf('?');
  return at === -1 ? [path, ''] : [path.slice(0, at), path.slice(at)];
}

/** A write both answered 2xx with a pet: the two ids name one of the run's pets. */
function noteCreated(exchange: Exchange, answer: WireResponse, ids: Map<string, string>, createdAt: Map<string, number>): void {
  if (!isWrite(exchange.request) || exchange.response.status < 200 || exchange.response.status >= 300) return;
  const mine = isObject(exchange.response.json) ? idOf(exchange.response.json) : undefined;
  const theirs = isObject(answer.json) && answer.status >= 200 && answer.status < 300 ? idOf(answer.json) : undefined;
  if (mine === undefined) return;
  createdAt.set(mine, performance.now());
  if (theirs !== undefined) ids.set(mine, theirs);
}

/** When the pet a path names (a segment that is one of the run's ids) was created. */
export function namedPet(path: string, createdAt: ReadonlyMap<string, number>): number | undefined {
  for (const segment of splitQuery(path)[0].split('/')) {
    const at = createdAt.get(segment);
    if (at !== undefined) return at;
  }
  return undefined;
}

/** An answer as a difference shows it: its status and the start of its body. */
export function describeAnswer(response: WireResponse): string {
  const body = response.text.length > 160 ? `${response.text.slice(0, 160)}…` : response.text;
  return `${response.status}${body ? ` ${body}` : ''}`;
}
