/**
 * The pets, in memory.
 *
 * The interface has no update and no delete, so a pet never changes after it
 * is created. That shapes everything here:
 * - ids are 1, 2, 3… in creation order and never reused, so "ascending id
 *   order" is insertion order and a pet is found by its index;
 * - each pet's JSON is encoded to UTF-8 once, at creation, into one growing
 *   byte arena, each followed by a comma. A getPet answer is a view of the
 *   arena (no copy), and an unfiltered page is one contiguous slice of it;
 * - each status keeps the ids that have it in an array that only grows, so a
 *   filtered page of N pets costs O(N), whatever the size of the store;
 * - a full page (as many pets as its limit) stays as it is until a reset, so
 *   it is built once and kept, up to a fixed number of bytes.
 * A pet costs its JSON's bytes plus 8 bytes of index, instead of a JS object
 * or string per pet (see the bench's bytes-per-pet figure).
 */
import { componentSchema } from '../../spec/operations.js';
import type { NewPet, PetStatus } from '../../spec/types.js';
import { compileObjectSerializer } from '../../spec/schema/serialize.js';

export interface PetStoreOptions {
  /** The most pets the store holds; creation beyond it is refused. */
  maxPets: number;
}

export type CreateResult = { ok: true; id: number; json: Buffer } | { ok: false; reason: 'full' };

/** A Pet's JSON: the spec's Pet properties, in the spec's order (id first). */
const petJson = compileObjectSerializer(componentSchema('Pet'));

/** Key of the index for pets created without a status. */
const NO_STATUS = '';
const COMMA = 0x2c;
const EMPTY_LIST = Buffer.from('[]');
/** How many bytes of full pages are kept: every page the interface can ask for, for any but very long pets. */
const PAGE_CACHE_BYTES = 4 * 1024 * 1024;
/** The arena's first size, and how much it grows by when full: by half keeps the slack (and the copy) small for large stores. */
const ARENA_START_BYTES = 64 * 1024;
const ARENA_GROWTH = 1.5;

/** A growable array of 32-bit unsigned integers. */
class UintList {
  values = new Uint32Array(16);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }
}

export class PetStore {
  private arena = Buffer.allocUnsafe(ARENA_START_BYTES);
  private used = 0;
  /** ends.values[i] is where pet i+1's bytes end (its trailing comma excluded). */
  private ends = new UintList();
  private byStatus = new Map<string, UintList>();
  private changes = 0;
  /** Full pages by status (NO_STATUS: unfiltered) and limit; emptied by truncate and clear. */
  private pages = new Map<string, Map<number, Buffer>>();
  private pageBytes = 0;

  constructor(private readonly options: PetStoreOptions) {}

  get size(): number {
    return this.ends.length;
  }

  get capacity(): number {
    return this.options.maxPets;
  }

  /** Changes on every creation and every clear: whether a snapshot is out of date. */
  get version(): number {
    return this.changes;
  }

  /**
   * Stores a validated NewPet and returns its id and JSON. The pet is built
   * from `pet`'s own fields only: whatever else the caller's body held is not
   * stored.
   */
  create(pet: NewPet): CreateResult {
    if (this.size >= this.options.maxPets) return { ok: false, reason: 'full' };
    const id = this.size + 1;
    this.changes++;
    // The serializer writes the spec's properties in the spec's order; the id
    // goes in as a plain number (exact: ids stay far below 2^53).
    const json = petJson(pet, { id });
    // UTF-8 takes at most 3 bytes per UTF-16 unit: room enough without measuring first.
    this.reserve(json.length * 3 + 1);
    const start = this.used;
    const end = start + this.arena.write(json, start, 'utf8');
    this.ends.push(end);
    this.arena[end] = COMMA;
    this.used = end + 1;
    const key = pet.status ?? NO_STATUS;
    let ids = this.byStatus.get(key);
    if (!ids) this.byStatus.set(key, (ids = new UintList()));
    ids.push(id);
    return { ok: true, id, json: this.arena.subarray(start, end) };
  }

  /** The JSON of the pet with this id, if there is one. */
  get(id: bigint): Buffer | undefined {
    // A bigint compares with a number exactly, and without allocating one.
    if (id < 1 || id > this.size) return undefined;
    const index = Number(id) - 1;
    return this.arena.subarray(this.startOf(index), this.ends.values[index]);
  }

  /** A JSON array of the first `limit` pets in ascending id order, only those with `status` when given. */
  list(limit: number, status?: PetStatus): Buffer {
    const key = status ?? NO_STATUS;
    let byLimit = this.pages.get(key);
    const cached = byLimit?.get(limit);
    if (cached) return cached;
    const page = this.buildPage(limit, status);
    // A page with fewer pets than its limit grows with the next creation; a full one never changes.
    if (page.count === limit && this.pageBytes + page.json.length <= PAGE_CACHE_BYTES) {
      if (!byLimit) this.pages.set(key, (byLimit = new Map()));
      byLimit.set(limit, page.json);
      this.pageBytes += page.json.length;
    }
    return page.json;
  }

  private buildPage(limit: number, status: PetStatus | undefined): { json: Buffer; count: number } {
    if (status === undefined) {
      const count = Math.min(limit, this.size);
      if (count === 0) return { json: EMPTY_LIST, count };
      // The first `count` pets are contiguous, commas included.
      const end = this.ends.values[count - 1] as number;
      const out = Buffer.allocUnsafe(end + 2);
      out[0] = 0x5b;
      this.arena.copy(out, 1, 0, end);
      out[end + 1] = 0x5d;
      return { json: out, count };
    }
    const ids = this.byStatus.get(status);
    const count = Math.min(limit, ids?.length ?? 0);
    if (!ids || count === 0) return { json: EMPTY_LIST, count };
    let total = 1 + count;
    for (let i = 0; i < count; i++) {
      const index = (ids.values[i] as number) - 1;
      total += (this.ends.values[index] as number) - this.startOf(index);
    }
    const out = Buffer.allocUnsafe(total);
    out[0] = 0x5b;
    let at = 1;
    for (let i = 0; i < count; i++) {
      if (i > 0) out[at++] = COMMA;
      const index = (ids.values[i] as number) - 1;
      at += this.arena.copy(out, at, this.startOf(index), this.ends.values[index]);
    }
    out[at] = 0x5d;
    return { json: out, count };
  }

  /** Every pet's JSON, in id order. */
  *allJson(): IterableIterator<string> {
    for (let index = 0; index < this.size; index++) {
      yield this.arena.toString('utf8', this.startOf(index), this.ends.values[index]);
    }
  }

  /** Every pet as one JSON array, in id order: for snapshots and persistence. */
  toJsonArray(): Buffer {
    // Not kept among the pages: a snapshot is taken rarely, and may be large.
    return this.buildPage(this.size, undefined).json;
  }

  /**
   * Forgets every pet after the first `count`, as if they had never been
   * created: ids go on from count + 1. Pets never change, so the first
   * `count` are exactly as they were; a reset to the seed keeps no copy of
   * the seed, and costs one copy of its bytes.
   */
  truncate(count: number): void {
    if (count >= this.size) return;
    if (count <= 0) return this.clear();
    this.changes++;
    this.forgetPages();
    this.ends.length = count;
    this.used = (this.ends.values[count - 1] as number) + 1;
    // Answers still being written are views of the old arena; the pets
    // created from now on must not overwrite them, so the kept pets move to
    // a new arena (a copy of the seed's bytes, once per reset).
    const kept = Buffer.allocUnsafe(Math.max(ARENA_START_BYTES, Math.ceil(this.used * ARENA_GROWTH)));
    this.arena.copy(kept, 0, 0, this.used);
    this.arena = kept;
    for (const ids of this.byStatus.values()) {
      // Ids are ascending: keep those up to `count`.
      let low = 0;
      let high = ids.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if ((ids.values[mid] as number) <= count) low = mid + 1;
        else high = mid;
      }
      ids.length = low;
    }
  }

  /** Forgets every pet; ids start again at 1. */
  clear(): void {
    this.changes++;
    this.forgetPages();
    this.arena = Buffer.allocUnsafe(ARENA_START_BYTES);
    this.used = 0;
    this.ends = new UintList();
    this.byStatus = new Map();
  }

  private forgetPages(): void {
    this.pages = new Map();
    this.pageBytes = 0;
  }

  private startOf(index: number): number {
    // Each pet starts after the previous one's comma.
    return index === 0 ? 0 : (this.ends.values[index - 1] as number) + 1;
  }

  private reserve(bytes: number): void {
    if (this.used + bytes <= this.arena.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.used + bytes, Math.ceil(this.arena.length * ARENA_GROWTH)));
    this.arena.copy(grown, 0, 0, this.used);
    this.arena = grown;
  }
}
