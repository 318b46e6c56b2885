/**
 * What any page of listPets must satisfy, whatever the target's ordering,
 * ids or other data: at most `limit` items, each matching the filters, each
 * pet this run created shown with the fields it was created with, no id
 * twice, and, when the page is shorter than its limit, every matching pet
 * this run created before the request was sent (a short page is the whole
 * matching collection; seed §4.1 "Maximum number of animals returned").
 */
import { differingField, idOf } from '../knowledge.js';
import type { WireRequest, WireResponse } from '../client.js';
import { Violation, type CheckContext } from '../types.js';
import { isObject } from './shared.js';

export interface PageQuery {
  readonly limit: bigint;
  readonly filters: Readonly<Record<string, string>>;
  /** performance.now() just before the request was sent. */
  readonly sentAt: number;
}

export function checkPage(ctx: CheckContext, sent: { request: WireRequest; response: WireResponse }, query: PageQuery): void {
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
  if (BigInt(items.length) < query.limit) {
    const filterStatus = Object.keys(query.filters).length ? query.filters : undefined;
    const expected = ctx.knowledge
      .confirmedBefore(query.sentAt)
      .filter((p) => !filterStatus || Object.entries(filterStatus).every(([name, value]) => p.pet[name] === value));
    const missing = expected.find((p) => !seen.has(p.id));
    if (missing) {
      throw new Violation(
        `the page holds ${items.length} pets, fewer than the limit of ${query.limit}, so it must hold every matching pet; ` +
          `pet ${missing.id}, created by this run before the request, is missing`,
        sent,
      );
    }
  }
}
