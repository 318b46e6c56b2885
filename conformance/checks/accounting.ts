/**
 * State accounting: every pet that bears this run's marker (its name starts
 * with the run's prefix, which holds a token of the run) is one that a 2xx
 * answer of the run handed back, and it is served as that answer said. The
 * ledger hears every exchange of the run, whoever sent it, and notes the
 * pets the writes gave and the marked pets any read served; once every other
 * check has ended it reads back what it can (the lists, each filter, the ids
 * between the run's own when ids are dense, the run's pets) and judges:
 * - a marked pet no answer gave was created by a request that was refused,
 *   or that must have no effect: reported with the request that sent its name;
 * - a pet the run created served otherwise than created changed, though
 *   pets never change (seed §4: no update is shown);
 * - a pet the run created that is no longer served was removed.
 * The target may hold any number of other pets; only marked ones are judged.
 */
import { whereTheyDiffer } from '../show.js';
import { componentSchema, type OperationDescriptor } from '../../spec/operations.js';
import type { JsonObject, JsonValue } from '../../spec/json/index.js';
import { isObject } from '../../spec/json/is-object.js';
import { fillPath, markedProperty } from '../arbitraries/requests.js';
import { integerRange } from '../arbitraries/schema.js';
import { RateLimited, TransportError, type Exchange } from '../client.js';
import { isWrite } from '../differential/outcome.js';
import { describeValue, differingField, idOf } from '../knowledge.js';
import type { Check, CheckContext, Failure } from '../vocabulary.js';
import { filterParameters, getOperation, listOperation, pageSizeParameter } from './family-requests.js';

const MARKED = markedProperty(componentSchema('Pet')) ?? 'name';
/** Ids between the run's lowest and highest that it reads back, at most: beyond, ids are not dense (random, or many writers). */
const MAX_GAP_READS = 256;
/** The run's own pets read back at the end, at most (spread over them all). */
const MAX_OWN_READS = 200;

interface Noted {
  readonly pet: JsonObject;
  readonly exchange: Exchange;
  /** performance.now() when it was heard. */
  readonly at: number;
}

/** What the run was told: the pets its writes were given, the marked pets its reads were served, and every body that named a marker. */
export interface Ledger {
  observe(exchange: Exchange): void;
  readonly given: ReadonlyMap<string, Noted>;
  readonly served: ReadonlyMap<string, Noted[]>;
  /** The requests that sent `name` in their body: the first few, and how many got each status. */
  sendersOf(name: string): Senders;
}

export interface Senders {
  /** The first 8 of them, with what they were answered. */
  readonly first: readonly Exchange[];
  /** How many were answered each status. */
  readonly statuses: ReadonlyMap<number, number>;
}

const accepted = (exchange: Exchange) => exchange.response.status >= 200 && exchange.response.status < 300;

export function createLedger(prefix: string): Ledger {
  const given = new Map<string, Noted>();
  const served = new Map<string, Noted[]>();
  const senders = new Map<string, { first: Exchange[]; statuses: Map<number, number> }>();
  const marked = (pet: JsonObject) => typeof pet[MARKED] === 'string' && (pet[MARKED] as string).startsWith(prefix);
  return {
    given,
    served,
    sendersOf: (name) => senders.get(name) ?? { first: [], statuses: new Map() },
    observe(exchange) {
      const { request, response } = exchange;
      if (request.body?.includes(prefix)) {
        for (const name of namesIn(request.body, prefix)) {
          const known = senders.get(name) ?? { first: [], statuses: new Map<number, number>() };
          if (known.first.length < 8) known.first.push(exchange);
          known.statuses.set(response.status, (known.statuses.get(response.status) ?? 0) + 1);
          senders.set(name, known);
        }
      }
      if (response.status < 200 || response.status >= 300) return;
      const body = response.json;
      const pets = (Array.isArray(body) ? body : [body]).filter((p): p is JsonObject => isObject(p) && idOf(p) !== undefined && marked(p));
      const writes = isWrite(request);
      const at = performance.now();
      for (const pet of pets) {
        const id = idOf(pet)!;
        if (writes && !Array.isArray(body)) given.set(id, { pet, exchange, at });
        else served.set(id, [...(served.get(id) ?? []), { pet, exchange, at }].slice(-4));
      }
    },
  };
}

/** The JSON strings in a request body that start with the prefix: the names it sent. */
function namesIn(body: string, prefix: string): string[] {
  const out: string[] = [];
  for (const match of body.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    try {
      const text = JSON.parse(`"${match[1]}"`) as string;
      if (text.startsWith(prefix)) out.push(text);
    } catch {
      // Not a JSON string (a body that is not JSON): no name to note.
    }
  }
  return out;
}

export const ACCOUNTING = {
  id: 'state.accounting',
  family: 'state',
  operationId: '*',
  title: "every pet bearing this run's marker was handed back by a 2xx of the run, and is served as it was handed back",
  requirement:
    'A pet is created only by a request the service accepts (§4.2: 201 with the created Pet); a request refused (4xx), a request without a valid key (§5.3) and a safe method (RFC 9110 §9.2.1) change nothing. Pets never change once created (§4: no update is shown), and are not removed (no delete is shown).',
  seedSection: 'seed §4, §5.3; RFC 9110 §9.2.1',
} as const;

export function accountingCheck(ctx: CheckContext): Check {
  const ledger = createLedger(ctx.options.namePrefix);
  ctx.client.observe(ledger.observe);
  return {
    ...ACCOUNTING,
    writes: false,
    afterAll: true,
    async run(c) {
      const { id, family, operationId, title, requirement, seedSection } = ACCOUNTING;
      const base = { id, family, operationId, title };
      // A target that stops answering (or rate-limits to the end) leaves the read-back short: what was heard is still judged.
      let cut: string | undefined;
      const removed = await readBack(c, ledger).catch((error: unknown) => {
        if (!(error instanceof TransportError || error instanceof RateLimited)) throw error;
        cut = error.message;
        return [];
      });
      const failures = [...removed, ...judge(ledger, c)].map((f) => ({ ...f, checkId: id, family, requirement, seedSection }));
      const runs = ledger.given.size + ledger.served.size;
      if (failures.length === 0 && cut !== undefined) return { ...base, runs, status: 'skipped', note: `the read-back got no answer: ${cut}` };
      if (failures.length === 0) return { ...base, runs, status: 'passed' };
      const [first, ...rest] = failures as [Failure, ...Failure[]];
      const more = rest.length ? ` (and ${rest.length} more)` : '';
      return { ...base, runs, status: 'failed', failure: { ...first, message: first.message + more }, extraFailures: rest };
    },
  };
}

type Finding = Pick<Failure, 'operationId' | 'message' | 'request' | 'response'>;

/** The verdicts over what the ledger holds. */
export function judge(ledger: Ledger, c: Pick<CheckContext, 'options'>): Finding[] {
  const out: Finding[] = [];
  for (const [id, reads] of ledger.served) {
    const read = reads.at(-1)!;
    const own = ledger.given.get(id);
    if (!own) {
      const name = String(read.pet[MARKED]);
      // A name may have been sent by many requests: the finding says how each was answered, and shows a refused one.
      const senders = ledger.sendersOf(name);
      const sender = senders.first.find((e) => !accepted(e)) ?? senders.first[0];
      const answered = [...senders.statuses].map(([status, count]) => `${status} ×${count}`).join(', ');
      const cause = sender ? `; its name was sent by requests answered ${answered}` : '; no request of the run sent its name';
      out.push({
        operationId: read.exchange.request.operationId,
        message: `pet ${id} (${MARKED} ${JSON.stringify(name)}) bears this run's marker ${JSON.stringify(c.options.namePrefix)} but no answer of the run handed it back${cause}`,
        request: (sender ?? read.exchange).request,
        response: (sender ?? read.exchange).response,
      });
      continue;
    }
    const changed = reads.find((r) => differingField(own.pet, r.pet) !== undefined);
    if (changed) {
      const field = differingField(own.pet, changed.pet)!;
      out.push({
        operationId: changed.exchange.request.operationId,
        message: `pet ${id} was created with ${field} ${describeValue(own.pet[field])} but ${changed.exchange.request.method} ${changed.exchange.request.path} served ${field} ${describeValue(changed.pet[field])}${whereTheyDiffer(own.pet[field], changed.pet[field])}`,
        request: changed.exchange.request,
        response: changed.exchange.response,
      });
    }
  }
  return out;
}

/**
 * Reads what the run can see of the target's pets, for the ledger to hear: lists, filters, dense ids, the run's own
 * pets. Finds the run's pets that are no longer served (a read that misses one waits out the settle window first).
 */
async function readBack(c: CheckContext, ledger: Ledger): Promise<Finding[]> {
  const list = listOperation(c);
  if (list) for (const path of listPaths(list)) await c.send('state', { method: 'GET', path, operationId: list.operationId });
  // Reads one at a time, within the run's time budget: what it could not read, it does not judge.
  const timeLeft = () => c.timeLeft() > 0;
  const get = getOperation(c);
  if (!get || (get.sunset !== undefined && c.targetNow() >= get.sunset.getTime())) return [];
  const param = get.parameters.find((p) => p.in === 'path');
  if (!param) return [];
  const read = (id: string) => c.send('state', { method: 'GET', path: fillPath(get.path, { [param.name]: id }), operationId: get.operationId });
  for (const id of gapIds([...ledger.given.keys()])) if (timeLeft()) await read(id);
  const own = [...ledger.given];
  const step = Math.max(1, Math.ceil(own.length / MAX_OWN_READS));
  const removed: Finding[] = [];
  for (let i = 0; i < own.length && timeLeft(); i += step) {
    const [id, noted] = own[i]!;
    const sent = await c.readAfterWrite(
      () => read(id),
      (s) => s.response.status !== 404,
      noted.at,
    );
    if (sent.response.status === 404)
      removed.push({
        operationId: get.operationId,
        message: `pet ${id} was handed back by ${noted.exchange.request.method} ${noted.exchange.request.path} (${noted.exchange.response.status}) but is answered 404 now: it was removed, though no delete is shown (§4)`,
        ...sent,
      });
  }
  return removed;
}

/** The list at its largest page, then once per value of each filter. */
/** The lists read back at the end: the largest page, then the largest page of each value of each filter. */
export function listPaths(list: OperationDescriptor): string[] {
  const size = pageSizeParameter(list);
  const page = size ? `${size.name}=${integerRange(size.schema)[1]}` : '';
  const join = (query: string) => (query ? `${list.path}?${query}` : list.path);
  const out = [join(page)];
  for (const filter of filterParameters(list)) {
    for (const value of (filter.schema['enum'] ?? []) as JsonValue[])
      out.push(join([page, `${filter.name}=${encodeURIComponent(String(value))}`].filter(Boolean).join('&')));
  }
  return out;
}

/**
 * The ids between the lowest and the highest of `ids`, on the stride they keep (1 for 1, 2, 3…; 2 for the odd ids of
 * `--ids large`), that are not among them, when there are few enough to read: where ids are dense, a pet created
 * by a request that was refused sits in such a gap, whatever order the lists keep.
 */
export function gapIds(ids: readonly string[]): string[] {
  if (ids.length < 2) return [];
  const all = ids.map(BigInt);
  // The lowest and the highest, and the stride every id keeps from the lowest: no order is needed.
  const first = all.reduce((low, id) => (id < low ? id : low));
  const last = all.reduce((high, id) => (id > high ? id : high));
  const stride = all.reduce((g, id) => gcd(g, id - first), 0n);
  if (stride === 0n || (last - first) / stride + 1n - BigInt(new Set(ids).size) > BigInt(MAX_GAP_READS)) return [];
  const known = new Set(all.map(String));
  const out: string[] = [];
  for (let id = first; id <= last; id += stride) if (!known.has(String(id))) out.push(String(id));
  return out;
}

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}
