/**
 * concurrency (seed §2 "Unique identifier assigned by the service on
 * creation", §4): what no sequential test sees. A burst of simultaneous
 * creates (as many in flight as --concurrency allows; identical bodies too,
 * since nothing in the seed makes createPet idempotent) gives distinct ids,
 * each pet retrievable with exactly its own fields; lists read during the
 * burst are still valid pages (no pet half-built, none twice, at most
 * `limit`), and a list read after it still holds every pet of the burst
 * when the page is short.
 */
import { whereTheyDiffer } from '../show.js';
import fc from 'fast-check';
import type { OperationDescriptor } from '../../spec/operations.js';
import { componentSchema } from '../../spec/operations.js';
import { fillPath, queryString, validBody, type GeneratedBody } from '../arbitraries/requests.js';
import { expectStatus, propertyCheck } from '../check.js';
import { KEY_VARIABLE } from '../key-forms.js';
import { shellQuote } from '../shell.js';
import { describeValue, differingField, echoProblem, idOf } from '../knowledge.js';
import type { JsonObject } from '../../spec/json/index.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { checkPage, readPage } from './page.js';
import { createOperation, getOperation, listOperation, pageSizeParameter } from './family-requests.js';
import { isObject } from '../../spec/json/is-object.js';

const SECTION = '§2 Resources, §4 Endpoints';

/** The Pet's required fields, from the spec: a listed item without one of them is half-built. */
const PET_REQUIRED = (componentSchema('Pet')['required'] ?? []) as readonly string[];

interface Burst {
  readonly bodies: readonly GeneratedBody[];
  /** Lists sent alongside the creates. */
  readonly lists: number;
}

export function concurrencyChecks(ctx: CheckContext): Check[] {
  const create = createOperation(ctx);
  return create ? [burstCheck(create)] : [];
}

function burstCheck(create: OperationDescriptor): Check {
  return propertyCheck<Burst>({
    id: `concurrency.${create.operationId}.burst`,
    family: 'concurrency',
    operationId: create.operationId,
    title: `simultaneous ${create.operationId} requests (identical bodies too) give distinct ids and pets retrievable unchanged; lists read meanwhile are valid pages`,
    requirement:
      'The service assigns each pet a unique identifier on creation (§2), whatever else is in flight: every 201 of a burst names a new id, each created pet is retrievable with exactly its own fields (§4.3), and a list read during the burst holds only whole Pets (§4.1).',
    seedSection: SECTION,
    writes: true,
    arbitrary: (c) => {
      const most = Math.max(2, c.options.concurrency);
      const body = validBody(create, c.options.namePrefix);
      const distinct = fc.array(body, { minLength: 2, maxLength: most });
      // The same text sent several times at once: a service must not fold them into one pet.
      const identical = fc.tuple(body, fc.integer({ min: 2, max: most })).map(([b, n]) => Array.from({ length: n }, () => b));
      return fc.record({ bodies: fc.oneof(distinct, identical), lists: fc.integer({ min: 0, max: 2 }) });
    },
    runs: (c) => Math.max(3, Math.round(c.options.runs / 10)),
    async predicate(c, burst) {
      // Whatever fails in a burst is shown with the script that replays it: one curl is not enough to show a race.
      try {
        await runBurst(c, create, burst);
      } catch (error) {
        throw withScript(error, c, create, burst);
      }
    },
  });
}

async function runBurst(c: CheckContext, create: OperationDescriptor, burst: Burst): Promise<void> {
  const list = listOperation(c);
  const sentAt = performance.now();
  const creating = burst.bodies.map((body) =>
    c.send('concurrency', { method: create.method, path: create.path, body: body.text, operationId: create.operationId }),
  );
  const listing = list ? Array.from({ length: burst.lists }, () => sendListing(c, list)) : [];
  // Everything in flight is awaited before anything is judged, so no request outlives its case.
  const [created, pages] = await Promise.all([settled(creating), settled(listing)]);

  const ids = new Map<string, number>();
  created.forEach((sent, i) => {
    const body = burst.bodies[i]!;
    expectStatus(sent, [201], `creating a pet in a burst of ${burst.bodies.length}`);
    const pet = sent.response.json;
    const id = idOf(pet);
    if (!isObject(pet) || id === undefined) throw new Violation('the 201 body is not a Pet with an integer id', sent);
    const problem = echoProblem(body.value as JsonObject, pet);
    if (problem) {
      // Crossed answers only when the 201 holds another create's body: anything else is said as it is.
      const crossed = burst.bodies.some((other, j) => j !== i && echoProblem(other.value as JsonObject, pet) === undefined);
      throw new Violation(crossed ? `${problem}: it holds another create's body, so answers crossed between simultaneous creates` : problem, sent);
    }
    const earlier = ids.get(id);
    if (earlier !== undefined) {
      throw new Violation(`creates ${earlier + 1} and ${i + 1} of a burst of ${burst.bodies.length} were both given id ${id}`, sent);
    }
    if (c.knowledge.get(id) && c.knowledge.get(id)!.confirmedAt < sentAt) {
      throw new Violation(`a create in a burst was given id ${id}, which an earlier pet of this run already has`, sent);
    }
    ids.set(id, i);
    c.knowledge.record(pet);
  });

  for (const page of pages) {
    checkWholePets(page.sent);
    // A page read during the burst may lag the run's writes by up to the settle window; it cannot be read again later.
    if (page.limit !== undefined) checkPage(c, page.sent, { limit: page.limit, filters: {}, sentAt: page.sentAt - c.options.settleMs });
  }
  await retrieveEach(c, created);
  if (list) {
    // Once the burst is over, a short page must hold every pet of it (and of the run): none lost from the listing.
    const { request, limit } = largestPage(list);
    if (limit !== undefined) await readPage(c, 'concurrency', request, { limit, filters: {} }, 'listing after a burst of creates');
  }
}

type Sent = Awaited<ReturnType<CheckContext['send']>>;

/** Every promise settled; then the first rejection, if any, in the order given. */
async function settled<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** A request for a page of the largest size (no limit where the list has no page-size parameter). */
function largestPage(list: OperationDescriptor): { request: { method: string; path: string; operationId: string }; limit?: bigint } {
  const size = pageSizeParameter(list);
  const limit = size ? BigInt(size.schema['maximum'] as number) : undefined;
  const path = list.path + queryString(size && limit !== undefined ? { [size.name]: String(limit) } : {});
  return { request: { method: list.method, path, operationId: list.operationId }, ...(limit !== undefined ? { limit } : {}) };
}

/** A page of the largest size, read while the creates are in flight. */
async function sendListing(c: CheckContext, list: OperationDescriptor): Promise<{ sent: Sent; limit?: bigint; sentAt: number }> {
  const { request, limit } = largestPage(list);
  const sentAt = performance.now();
  const sent = await c.send('concurrency', request);
  expectStatus(sent, [200], 'listing during a burst of creates');
  return { sent, sentAt, ...(limit !== undefined ? { limit } : {}) };
}

/** Every listed item has the Pet's required fields: a pet made visible before it was whole would not. */
function checkWholePets(sent: Sent): void {
  const items = sent.response.json;
  if (!Array.isArray(items)) throw new Violation('the 200 body is not a JSON array of pets', sent);
  for (const item of items) {
    if (!isObject(item)) throw new Violation('an item listed during a burst is not a Pet object', sent);
    const missing = PET_REQUIRED.find((field) => item[field] === undefined);
    if (missing)
      throw new Violation(`pet ${idOf(item) ?? '(no id)'} is listed during a burst of creates without its required ${missing}: a half-built pet`, sent);
  }
}

/** Each pet of the burst, asked for by its id, comes back with exactly the fields it was created with. */
async function retrieveEach(c: CheckContext, created: readonly Sent[]): Promise<void> {
  const get = getOperation(c);
  if (!get || (get.sunset !== undefined && c.targetNow() >= get.sunset.getTime())) return;
  const idParam = get.parameters.find((p) => p.in === 'path')!;
  const answers = await Promise.all(
    created.map(async (made) => {
      const pet = made.response.json as Record<string, never>;
      const id = idOf(pet)!;
      return {
        pet,
        id,
        sent: await c.send('concurrency', { method: get.method, path: fillPath(get.path, { [idParam.name]: id }), operationId: get.operationId }),
      };
    }),
  );
  for (const { pet, id, sent } of answers) {
    expectStatus(sent, [200], `getting pet ${id}, created in a burst`);
    const got = sent.response.json;
    if (!isObject(got)) throw new Violation('the 200 body is not a Pet', sent);
    const field = differingField(pet, got);
    if (field)
      throw new Violation(
        `pet ${id}, created in a burst, comes back with ${field} ${describeValue(got[field])}, created as ${describeValue(pet[field])}${whereTheyDiffer(got[field], pet[field])}`,
        sent,
      );
  }
}

/**
 * The violation with a short script that replays the whole burst: one curl
 * is not enough to show a race. The key is read from the environment.
 */
function withScript(error: unknown, c: CheckContext, create: OperationDescriptor, burst: Burst): unknown {
  if (!(error instanceof Violation)) return error;
  const url = c.client.baseUrl + create.path;
  const lines = burst.bodies.map(
    (body) =>
      `curl -sS -X ${create.method} ${shellQuote(url)} -H "Authorization: Bearer $${KEY_VARIABLE}" -H 'content-type: application/json' --data-binary ${shellQuote(body.text)} &`,
  );
  const script = [...lines, 'wait'].join('\n     ');
  return new Violation(`${error.message}\n   replay the burst (${burst.bodies.length} creates at once):\n     ${script}`, error.exchange);
}
