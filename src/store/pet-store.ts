/**
 * The pets, in memory.
 *
 * The interface has no update and no delete, so a pet never changes after it
 * is created. That shapes everything here:
 * - pets are kept in creation order, each at an index; with the default ids
 *   (1, 2, 3…, see ids.ts) a pet's id is its index plus one, so it is found
 *   by arithmetic, "ascending id order" is creation order, and no id is
 *   stored. Ids that are not their positions (`--ids random`, or a state
 *   file's) are kept in a list beside the pets and found through a map;
 * - each pet's JSON is encoded to UTF-8 once, at creation, into one growing
 *   byte arena, each followed by a comma. An unfiltered page is one
 *   contiguous slice of it. A getPet answer is a copy of the pet's bytes in
 *   memory of its own, made on the pet's first read and kept for the next
 *   ones (a bounded number of pets, see READ_CACHE_SLOTS), so that the
 *   journal keeps it by reference instead of copying it per request;
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
import { BigIntList, UintList } from './growable-lists.js';
import { createRandomIds, idBase, idStep, MAX_INT64, nextIdAfter, type IdMode } from './ids.js';
import type { CreateManyResult, CreateResult, Store } from './store.js';

export interface PetStoreOptions {
  /** The most pets the store holds; creation beyond it is refused. */
  maxPets: number;
  /** How ids are assigned; `sequential` (1, 2, 3…) by default. */
  ids?: IdMode;
}

export type { CreateResult } from './store.js';

/** A Pet's JSON: the spec's Pet properties, in the spec's order (id first). */
const petJson = compileObjectSerializer(componentSchema('Pet'));

/** Key of the index for pets created without a status. */
const NO_STATUS = '';
const COMMA = 0x2c;
// Its own memory, not a slice of Node's shared pool: the journal keeps such a body by reference (keepBytes).
const EMPTY_LIST = Buffer.from(new TextEncoder().encode('[]').buffer);
/** How many bytes of full pages are kept: every page the interface can ask for, for any but very long pets. */
const PAGE_CACHE_BYTES = 4 * 1024 * 1024;
/** The arena's first size, and how much it grows by when full: by half keeps the slack (and the copy) small for large stores. */
const ARENA_START_BYTES = 64 * 1024;
const ARENA_GROWTH = 1.5;
/**
 * How many pets' answers are kept in memory of their own, by index (slot =
 * index mod this): a pet read again and again (a client polling it, a bench)
 * costs no copy. About 60 to 200 bytes a pet, so at most a few hundred KiB.
 */
const READ_CACHE_SLOTS = 1024;

export class PetStore implements Store {
  readonly kind = 'memory';
  private arena = Buffer.allocUnsafe(ARENA_START_BYTES);
  private used = 0;
  /** ends.values[i] is where the bytes of the pet at index i end (its trailing comma excluded). */
  private ends = new UintList();
  /** The indexes of the pets of each status, ascending. */
  private byStatus = new Map<string, UintList>();
  private readonly mode: IdMode;
  /** While ids are dense, the pet at index i has id base + i × step + 1. */
  private readonly base: bigint;
  private readonly step: bigint;
  /** Once ids are not dense: each pet's id by index, and each id's index. */
  private sparse: { ids: BigIntList; indexOf: Map<bigint, number> } | undefined;
  /** The highest id held (base when none): sequential modes go on after it. */
  private highest: bigint;
  private readonly randomId = createRandomIds();
  private changes = 0;
  /** How many pets the seed gave: reset() truncates back to them. */
  private seedSize = 0;
  /** Full pages by status (NO_STATUS: unfiltered) and limit; emptied by truncate and clear (forgetKept). */
  private pages = new Map<string, Map<number, Buffer>>();
  private pageBytes = 0;
  /** Answers of pets read, each its own memory (not a view of the arena), in the slot of its index; -1: empty slot. */
  private readCache: (Buffer | undefined)[] = new Array(READ_CACHE_SLOTS);
  private readCacheIndex = new Int32Array(READ_CACHE_SLOTS).fill(-1);

  constructor(private readonly options: PetStoreOptions) {
    this.mode = options.ids ?? 'sequential';
    this.base = idBase(this.mode);
    this.step = idStep(this.mode);
    this.highest = this.base;
    if (this.mode === 'random') this.sparse = { ids: new BigIntList(), indexOf: new Map() };
  }

  /** How this store assigns ids. */
  get idMode(): IdMode {
    return this.mode;
  }

  get size(): number {
    return this.ends.length;
  }

  get capacity(): number {
    return this.options.maxPets;
  }

  count(): number {
    return this.size;
  }

  /** The pets held now are the seed: reset() comes back to them. */
  markSeed(): void {
    this.seedSize = this.size;
  }

  reset(): void {
    this.truncate(this.seedSize);
  }

  snapshot(): Buffer {
    return this.toJsonArray();
  }

  createMany(pets: readonly NewPet[]): CreateManyResult {
    if (this.size + pets.length > this.capacity) return { ok: false, reason: 'full' };
    // The capacity was checked, and no id is requested: every create succeeds.
    const ids: bigint[] = [];
    for (const pet of pets) {
      const created = this.create(pet);
      if (created.ok) ids.push(created.id);
    }
    return { ok: true, ids, size: this.size };
  }

  /** Changes on every creation and every clear: whether a snapshot is out of date. */
  get version(): number {
    return this.changes;
  }

  /**
   * Stores a validated NewPet and returns its id and JSON. The pet is built
   * from `pet`'s own fields only: whatever else the caller's body held is not
   * stored. `id` keeps a pet's id (a state file's pets); the caller has
   * checked that it is a positive int64. Without it the store assigns one.
   */
  create(pet: NewPet, id?: bigint): CreateResult {
    if (this.size >= this.options.maxPets) return { ok: false, reason: 'full' };
    if (id !== undefined && this.has(id)) return { ok: false, reason: 'taken' };
    const index = this.size;
    const assigned = id ?? this.nextId();
    if (this.sparse === undefined && assigned !== this.denseId(index)) this.becomeSparse();
    if (this.sparse !== undefined) {
      this.sparse.ids.push(assigned);
      this.sparse.indexOf.set(assigned, index);
    }
    if (assigned > this.highest) this.highest = assigned;
    this.changes++;
    // The serializer writes the spec's properties in the spec's order, the id
    // as the bigint's digits: exact over the whole int64 range.
    const json = petJson(pet, { id: assigned });
    // UTF-8 takes at most 3 bytes per UTF-16 unit: room enough without measuring first.
    this.reserve(json.length * 3 + 1);
    const start = this.used;
    const end = start + this.arena.write(json, start, 'utf8');
    this.ends.push(end);
    this.arena[end] = COMMA;
    this.used = end + 1;
    const key = pet.status ?? NO_STATUS;
    let indexes = this.byStatus.get(key);
    if (!indexes) this.byStatus.set(key, (indexes = new UintList()));
    indexes.push(index);
    return { ok: true, id: assigned, json: this.arena.subarray(start, end) };
  }

  /** Whether a pet has this id. */
  has(id: bigint): boolean {
    return this.indexOf(id) !== undefined;
  }

  /**
   * The JSON of the pet with this id, if there is one: in memory of its own
   * (never a view of the arena, which a reset or a growth replaces), the same
   * Buffer for the next reads of the pet while it stays in the read cache.
   * Nobody writes into it.
   */
  get(id: bigint): Buffer | undefined {
    const index = this.indexOf(id);
    if (index === undefined) return undefined;
    const slot = index & (READ_CACHE_SLOTS - 1);
    if (this.readCacheIndex[slot] === index) return this.readCache[slot];
    const start = this.startOf(index);
    const end = this.ends.values[index] as number;
    const own = Buffer.allocUnsafeSlow(end - start);
    this.arena.copy(own, 0, start, end);
    this.readCache[slot] = own;
    this.readCacheIndex[slot] = index;
    return own;
  }

  private indexOf(id: bigint): number | undefined {
    if (this.sparse !== undefined) return this.sparse.indexOf.get(id);
    // A bigint compares with a number exactly, and without allocating one.
    if (this.mode === 'sequential') return id < 1 || id > this.size ? undefined : Number(id) - 1;
    const offset = id - this.base - 1n;
    if (offset < 0n || offset % this.step !== 0n) return undefined;
    const index = Number(offset / this.step);
    return index < this.size ? index : undefined;
  }

  /** The id of the pet at `index` while ids are dense. */
  private denseId(index: number): bigint {
    return this.base + BigInt(index) * this.step + 1n;
  }

  /** The id the next pet gets. */
  private nextId(): bigint {
    if (this.mode === 'random' || this.highest === MAX_INT64) {
      // 2^63 ids: a draw that is taken (about never) is drawn again.
      let id = this.randomId();
      while (this.has(id)) id = this.randomId();
      return id;
    }
    return nextIdAfter(this.mode, this.highest);
  }

  /** From now on every id is kept: one was not its position (a random id, a state file's). */
  private becomeSparse(): void {
    const sparse = { ids: new BigIntList(), indexOf: new Map<bigint, number>() };
    for (let index = 0; index < this.size; index++) {
      const id = this.denseId(index);
      sparse.ids.push(id);
      sparse.indexOf.set(id, index);
    }
    this.sparse = sparse;
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
      const out = pageBuffer(end + 2, count === limit);
      out[0] = 0x5b;
      this.arena.copy(out, 1, 0, end);
      out[end + 1] = 0x5d;
      return { json: out, count };
    }
    const indexes = this.byStatus.get(status);
    const count = Math.min(limit, indexes?.length ?? 0);
    if (!indexes || count === 0) return { json: EMPTY_LIST, count };
    let total = 1 + count;
    for (let i = 0; i < count; i++) {
      const index = indexes.values[i] as number;
      total += (this.ends.values[index] as number) - this.startOf(index);
    }
    const out = pageBuffer(total, count === limit);
    out[0] = 0x5b;
    let at = 1;
    for (let i = 0; i < count; i++) {
      if (i > 0) out[at++] = COMMA;
      const index = indexes.values[i] as number;
      at += this.arena.copy(out, at, this.startOf(index), this.ends.values[index]);
    }
    out[at] = 0x5d;
    return { json: out, count };
  }

  /** Every pet's JSON, in creation order (id order, but for random ids). */
  *allJson(): IterableIterator<string> {
    for (let index = 0; index < this.size; index++) {
      yield this.arena.toString('utf8', this.startOf(index), this.ends.values[index]);
    }
  }

  /** Every pet as one JSON array, in creation order: for snapshots and persistence. */
  toJsonArray(): Buffer {
    // Not kept among the pages: a snapshot is taken rarely, and may be large.
    return this.buildPage(this.size, undefined).json;
  }

  /**
   * Forgets every pet after the first `count`, as if they had never been
   * created: sequential ids go on after the highest kept. Pets never change, so the first
   * `count` are exactly as they were; a reset to the seed keeps no copy of
   * the seed, and costs one copy of its bytes.
   */
  truncate(count: number): void {
    if (count >= this.size) return;
    if (count <= 0) return this.clear();
    this.changes++;
    this.forgetKept();
    this.ends.length = count;
    this.used = (this.ends.values[count - 1] as number) + 1;
    // Answers still being written are views of the old arena; the pets
    // created from now on must not overwrite them, so the kept pets move to
    // a new arena (a copy of the seed's bytes, once per reset).
    const kept = Buffer.allocUnsafe(Math.max(ARENA_START_BYTES, Math.ceil(this.used * ARENA_GROWTH)));
    this.arena.copy(kept, 0, 0, this.used);
    this.arena = kept;
    for (const indexes of this.byStatus.values()) {
      // Indexes are ascending: keep those below `count`.
      let low = 0;
      let high = indexes.length;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if ((indexes.values[mid] as number) < count) low = mid + 1;
        else high = mid;
      }
      indexes.length = low;
    }
    if (this.sparse === undefined) this.highest = this.denseId(count - 1);
    else {
      const { ids, indexOf } = this.sparse;
      for (let index = count; index < ids.length; index++) indexOf.delete(ids.values[index] as bigint);
      ids.length = count;
      this.highest = this.base;
      for (let index = 0; index < count; index++) if ((ids.values[index] as bigint) > this.highest) this.highest = ids.values[index] as bigint;
    }
  }

  /** Forgets every pet; ids start again from the first of the mode. */
  clear(): void {
    this.changes++;
    this.seedSize = 0;
    this.forgetKept();
    this.arena = Buffer.allocUnsafe(ARENA_START_BYTES);
    this.used = 0;
    this.ends = new UintList();
    this.byStatus = new Map();
    this.highest = this.base;
    this.sparse = this.mode === 'random' ? { ids: new BigIntList(), indexOf: new Map() } : undefined;
  }

  /** Forgets the full pages and the pets read: called whenever pets are forgotten, whose indexes new pets will take. */
  private forgetKept(): void {
    this.pages = new Map();
    this.pageBytes = 0;
    this.readCache = new Array(READ_CACHE_SLOTS);
    this.readCacheIndex.fill(-1);
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

/**
 * The buffer of a page. A full page is kept (list()) and answered again and
 * again: it gets memory of its own rather than a slice of Node's shared pool,
 * so that the journal keeps it by reference instead of copying it per request
 * (a slice would keep the whole pool alive: keepBytes copies those).
 */
function pageBuffer(bytes: number, kept: boolean): Buffer {
  return kept ? Buffer.allocUnsafeSlow(bytes) : Buffer.allocUnsafe(bytes);
}
