/**
 * What any page of listPets must satisfy, whatever the target's ordering,
 * ids or other data: at most `limit` items, each matching the filters, each
 * pet this run created shown with the fields it was created with, no id
 * twice, and, when the page is shorter than its limit, every matching pet
 * this run created before the request was sent (a short page is the whole
 * matching collection; seed §4.1 "Maximum number of animals returned").
 * How soon a created pet must be listed is not shown (§4): `readPage` reads a
 * short page again within the run's settle window.
 */
import { expectStatus } from '../check.js';
import { type CreatedPet, differingField, idOf } from '../knowledge.js';
import type { WireRequest, WireResponse } from '../client.js';
import { Violation, type CheckContext, type Family } from '../vocabulary.js';
import { isObject } from '../../spec/json/is-object.js';

type Sent = { request: WireRequest; response: WireResponse };

export interface PageQuery {
  readonly limit: bigint;
  readonly filters: Readonly<Record<string, string>>;
  /** performance.now() just before the request was sent. */
  readonly sentAt: number;
}

/** Every check of a page: its shape, and its completeness as of `query.sentAt`. */
export function checkPage(ctx: CheckContext, sent: Sent, query: PageQuery): void {
  checkPageItems(ctx, sent, query);
  const missing = missingPets(ctx, sent, query);
  if (missing.length > 0) throw incomplete(sent, query, missing[0]!);
}

/**
 * Sends a listPets request and judges its page. A short page that lacks a pet
 * this run created is read again within the settle window (a list served
 * from an index refreshed after the write): only a pet still missing when the
 * window since its 201 has ended is a failure. What a page holds is judged on
 * every read, so a wrong pet is never waited out.
 */
export async function readPage(
  ctx: CheckContext,
  family: Family,
  request: Omit<WireRequest, 'headers'>,
  query: Omit<PageQuery, 'sentAt'>,
  what: string,
): Promise<Sent> {
  const sentAt = performance.now();
  const read = async () => {
    const sent = await ctx.send(family, request);
    expectStatus(sent, [200], what);
    checkPageItems(ctx, sent, { ...query, sentAt });
    return sent;
  };
  const first = await read();
  const missing = missingPets(ctx, first, { ...query, sentAt });
  if (missing.length === 0) return first;
  // The window runs from the newest write the page lacks, so a pet created just before the request has its whole window too.
  const writtenAt = Math.max(...missing.map((p) => p.confirmedAt));
  const last = await ctx.readAfterWrite(read, (sent) => missingPets(ctx, sent, { ...query, sentAt }).length === 0, writtenAt);
  const still = missingPets(ctx, last, { ...query, sentAt });
  if (still.length > 0) throw incomplete(last, { ...query, sentAt }, still[0]!, ctx.options.settleMs);
  return last;
}

function checkPageItems(ctx: CheckContext, sent: Sent, query: PageQuery): void {
  const items = sent.response.json;
  if (!Array.isArray(items)) throw new Violation('the 200 body is not a JSON array of pets', sent);
  if (BigInt(items.length) > query.limit) throw new Violation(`asked for at most ${query.limit} pets, got ${items.length}`, sent);
  const seen = new Set<string>();
  for (const item of items) {
    if (!isObject(item)) throw new Violation('an item of the list is not a Pet object', sent);
    const id = idOf(item);
    if (id !== undefined) {
      if (seen.has(id)) throw new Violation(`the list holds id ${id} twice`, sent);
      seen.add(id);
    }
    for (const [name, value] of Object.entries(query.filters)) {
      if (item[name] !== value)
        throw new Violation(
          `filtered by ${name}=${value}, but pet ${id ?? '?'} has ${name} ${item[name] === undefined ? '(absent)' : JSON.stringify(item[name])}`,
          sent,
        );
    }
    const known = id === undefined ? undefined : ctx.knowledge.get(id);
    if (known) {
      const field = differingField(known.pet, item);
      if (field) throw new Violation(`pet ${id} is listed with a different ${field} than it was created with`, sent);
    }
  }
}

/** The matching pets this run created before the request that a short page lacks (a full page may lack any). */
function missingPets(ctx: CheckContext, sent: Sent, query: PageQuery): CreatedPet[] {
  const items = sent.response.json;
  if (!Array.isArray(items) || BigInt(items.length) >= query.limit) return [];
  const seen = new Set(items.map((item) => (isObject(item) ? idOf(item) : undefined)));
  return ctx.knowledge
    .confirmedBefore(query.sentAt)
    .filter((p) => Object.entries(query.filters).every(([name, value]) => p.pet[name] === value))
    .filter((p) => !seen.has(p.id));
}

function incomplete(sent: Sent, query: PageQuery, missing: CreatedPet, settleMs = 0): Violation {
  const items = sent.response.json as unknown[];
  const waited = settleMs > 0 ? ` (read again until ${settleMs / 1000} s after its 201, the settle window)` : '';
  return new Violation(
    `the page holds ${items.length} pets, fewer than the limit of ${query.limit}, so it must hold every matching pet; ` +
      `pet ${missing.id}, created by this run before the request, is missing${waited}`,
    sent,
  );
}
