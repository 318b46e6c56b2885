/**
 * What a passive judge can hold a target to across exchanges, from the
 * traffic that passed through the proxy and nothing else: it sends no
 * request of its own, so it never learns what it did not see.
 * - a pet a 201 handed back is served unchanged by every later read that
 *   passed through (pets never change: seed §4 shows no update);
 * - an id a 201 gave is not given by a later 201 to a different pet (§2);
 * - a 200 list holds no more pets than its request's limit, or the spec's
 *   default when it named none (§4.1).
 * What it remembers is bounded (`maxRemembered` pets, the oldest forgotten
 * first): forgetting only means judging less, never judging wrongly.
 */
import type { JsonObject, JsonValue } from '../../spec/json/index.js';
import { parseDecimalInteger } from '../../spec/json/index.js';
import { isObject } from '../../spec/json/is-object.js';
import type { OperationDescriptor } from '../../spec/operations.js';
import { integerRange } from '../arbitraries/schema.js';
import { ACCOUNTING } from '../checks/accounting.js';
import { pageSizeParameter } from '../checks/family-requests.js';
import { defaultPageSize, limitRequirements } from '../checks/limits.js';
import { SECTION as STATE_SECTION, STATE_REQUIREMENT } from '../checks/state.js';
import type { Exchange } from '../client.js';
import { describeValue, differingField, idOf } from '../knowledge.js';
import { whereTheyDiffer } from '../show.js';
import type { PassiveFinding } from './passive-vocabulary.js';

/** Every problem says what it was judged from: a client that asked for more than passed through may see otherwise. */
const FROM_TRAFFIC = 'judged only from the exchanges that passed through the proxy';

export const DEFAULT_MAX_REMEMBERED = 10_000;

export interface LedgerOperations {
  readonly create?: OperationDescriptor;
  readonly get?: OperationDescriptor;
  readonly list?: OperationDescriptor;
}

export interface LedgerOfPets {
  /** Notes what `exchange` handed back and judges it against what earlier ones did; exchanges in the order they were answered. */
  judge(exchange: Exchange): PassiveFinding[];
  /** How many created pets it remembers now. */
  remembered(): number;
}

interface Created {
  readonly pet: JsonObject;
  readonly exchange: Exchange;
}

export function createLedgerOfPets(operations: LedgerOperations, maxRemembered = DEFAULT_MAX_REMEMBERED): LedgerOfPets {
  // A Map keeps insertion order: its first key is the oldest pet, the first forgotten.
  const created = new Map<string, Created>();
  const remember = (id: string, entry: Created) => {
    created.delete(id);
    created.set(id, entry);
    if (created.size > maxRemembered) created.delete(created.keys().next().value!);
  };
  return {
    remembered: () => created.size,
    judge(exchange) {
      const { request, response } = exchange;
      const body = response.json;
      if (response.status === 201 && request.method === 'POST' && isObject(body) && idOf(body) !== undefined) {
        const id = idOf(body)!;
        const earlier = created.get(id);
        remember(id, { pet: body, exchange });
        return earlier && differingField(earlier.pet, body) !== undefined ? [idReused(id, earlier, exchange, operations.create)] : [];
      }
      if (response.status !== 200 || request.method !== 'GET' || body === undefined) return [];
      const found: PassiveFinding[] = [];
      if (request.operationId === operations.list?.operationId && Array.isArray(body)) {
        const oversized = pageSizeProblem(operations.list, exchange, body);
        if (oversized) found.push(oversized);
      }
      const served = request.operationId === operations.list?.operationId ? body : request.operationId === operations.get?.operationId ? [body] : [];
      for (const pet of Array.isArray(served) ? served : []) {
        const id = isObject(pet) ? idOf(pet) : undefined;
        const own = id === undefined ? undefined : created.get(id);
        if (own && isObject(pet) && differingField(own.pet, pet) !== undefined) found.push(changed(id!, own, pet, exchange));
      }
      return found;
    },
  };
}

function changed(id: string, own: Created, pet: JsonObject, exchange: Exchange): PassiveFinding {
  const field = differingField(own.pet, pet)!;
  const { method, path } = exchange.request;
  return {
    rule: 'state.created-unchanged',
    severity: 'error',
    requirement: ACCOUNTING.requirement,
    section: ACCOUNTING.seedSection,
    operationId: exchange.request.operationId,
    problem: `pet ${id} was created with ${field} ${describeValue(own.pet[field])} (the 201 to ${own.exchange.request.method} ${own.exchange.request.path}) but ${method} ${path} served ${field} ${describeValue(pet[field])}${whereTheyDiffer(own.pet[field], pet[field])}; ${FROM_TRAFFIC}`,
    kind: `a created pet served with another ${field}`,
  };
}

function idReused(id: string, earlier: Created, exchange: Exchange, create: OperationDescriptor | undefined): PassiveFinding {
  const field = differingField(earlier.pet, exchange.response.json as JsonObject)!;
  return {
    rule: 'state.id-reused',
    severity: 'error',
    requirement: STATE_REQUIREMENT,
    section: STATE_SECTION,
    ...(create ? { operationId: create.operationId } : {}),
    problem: `a 201 gave id ${id} to a pet with ${field} ${describeValue((exchange.response.json as JsonObject)[field])}, an id an earlier 201 gave to a pet with ${field} ${describeValue(earlier.pet[field])}; ${FROM_TRAFFIC}`,
    kind: 'an id given by a 201 given again to another pet',
  };
}

/**
 * A list longer than what its request asked for. A limit the spec refuses (out of range, not an integer, given twice)
 * is the single-exchange judges' business: no page size is then promised, and none is judged here.
 */
function pageSizeProblem(list: OperationDescriptor, exchange: Exchange, items: readonly JsonValue[]): PassiveFinding | undefined {
  const size = pageSizeParameter(list);
  if (!size) return undefined;
  const values = new URLSearchParams(exchange.request.path.split('?')[1] ?? '').getAll(size.name);
  const [min, max] = integerRange(size.schema);
  const given = values.length === 1 ? parseDecimalInteger(values[0]!) : undefined;
  if (values.length > 1 || (values.length === 1 && (given === undefined || given < min || given > max))) return undefined;
  const limit = given ?? defaultPageSize(size);
  if (BigInt(items.length) <= limit) return undefined;
  const { atMost, byDefault, section } = limitRequirements(size);
  const { method, path } = exchange.request;
  return {
    rule: 'state.page-size',
    severity: 'error',
    requirement: `${atMost} ${byDefault}`,
    section,
    operationId: list.operationId,
    problem: `${method} ${path} was answered with ${items.length} pets, more than ${given === undefined ? `the default ${size.name} of` : `its ${size.name} of`} ${limit}; ${FROM_TRAFFIC}`,
    kind: given === undefined ? `more pets than the default ${size.name}` : `more pets than the ${size.name} asked for`,
  };
}
