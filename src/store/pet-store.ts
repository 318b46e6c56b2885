/**
 * The pets, in memory.
 *
 * The interface has no update and no delete, so a pet never changes after it
 * is created. That shapes everything here:
 * - ids are 1, 2, 3… in creation order and never reused, so a pet is found by
 *   indexing an array, and "ascending id order" is insertion order;
 * - each pet's JSON is written once, at creation: a getPet answer is a stored
 *   string and a list is a join of stored strings;
 * - each status keeps the ids that have it in an array that only grows, so a
 *   filtered list of N pets costs O(N), whatever the size of the store.
 */
import { stringifyJson, type JsonObject } from '../json/index.js';
import type { NewPet, Pet, PetStatus } from '../../spec/types.js';

export interface PetStoreOptions {
  /** The most pets the store holds; creation beyond it is refused. */
  maxPets: number;
}

export type CreateResult = { ok: true; id: number; json: string } | { ok: false; reason: 'full' };

/** Key of the index for pets created without a status. */
const NO_STATUS = '';

export class PetStore {
  private json: string[] = [];
  private byStatus = new Map<string, number[]>();

  constructor(private readonly options: PetStoreOptions) {}

  get size(): number {
    return this.json.length;
  }

  get capacity(): number {
    return this.options.maxPets;
  }

  /**
   * Stores a validated NewPet and returns its id and JSON. The pet is built
   * from `pet`'s own fields only: whatever else the caller's body held is not
   * stored.
   */
  create(pet: NewPet): CreateResult {
    if (this.json.length >= this.options.maxPets) return { ok: false, reason: 'full' };
    const id = this.json.length + 1;
    const stored: Pet = { id: BigInt(id), ...pet };
    const json = stringifyJson(stored as unknown as JsonObject);
    this.json.push(json);
    const key = pet.status ?? NO_STATUS;
    let ids = this.byStatus.get(key);
    if (!ids) this.byStatus.set(key, (ids = []));
    ids.push(id);
    return { ok: true, id, json };
  }

  /** The JSON of the pet with this id, if there is one. */
  get(id: bigint): string | undefined {
    if (id < 1n || id > BigInt(this.json.length)) return undefined;
    return this.json[Number(id) - 1];
  }

  /** A JSON array of the first `limit` pets in ascending id order, only those with `status` when given. */
  list(limit: number, status?: PetStatus): string {
    if (status === undefined) return '[' + this.json.slice(0, limit).join(',') + ']';
    const ids = this.byStatus.get(status);
    if (!ids) return '[]';
    const end = Math.min(limit, ids.length);
    let out = '[';
    for (let i = 0; i < end; i++) {
      if (i > 0) out += ',';
      out += this.json[(ids[i] as number) - 1];
    }
    return out + ']';
  }

  /** Every pet's JSON in id order, for snapshots and persistence. */
  *allJson(): IterableIterator<string> {
    yield* this.json;
  }

  /** Forgets every pet; ids start again at 1. */
  clear(): void {
    this.json = [];
    this.byStatus = new Map();
  }
}
