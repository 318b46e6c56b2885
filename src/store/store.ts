/**
 * What the server needs of a store, whichever holds the pets: the in-memory
 * PetStore (the default, synchronous: its answers are values) or the shared
 * RedisStore (its answers are promises, and may fail when Redis is away).
 * The server settles either kind the same way (server/store-answer.ts), so the
 * in-memory hot path never waits on a promise.
 */
import type { NewPet, PetStatus } from '../../spec/types.js';
import type { IdMode } from './ids.js';

/** A value now, or later. */
export type Maybe<T> = T | Promise<T>;

/** `taken`: a pet with the requested id exists already (a state file's ids). */
export type CreateResult = { ok: true; id: bigint; json: Buffer } | { ok: false; reason: 'full' | 'taken' };

/** A bulk create: all of the pets, or (`full`) none of them. */
export type CreateManyResult = { ok: true; ids: bigint[]; size: number } | { ok: false; reason: 'full' };

export interface Store {
  /** `memory` or `redis`: for the start-up line and the docs, never for behaviour. */
  readonly kind: 'memory' | 'redis';
  readonly idMode: IdMode;
  /** The most pets this store holds (`--max-pets`). */
  readonly capacity: number;
  /** A JSON array of the first `limit` pets in creation order, only those with `status` when given. */
  list(limit: number, status?: PetStatus): Maybe<Buffer>;
  /** The JSON of the pet with this id, if there is one. */
  get(id: bigint): Maybe<Buffer | undefined>;
  /** Stores a validated NewPet and answers its id and JSON. */
  create(pet: NewPet): Maybe<CreateResult>;
  /** Stores every pet, or none when they do not all fit. */
  createMany(pets: readonly NewPet[]): Maybe<CreateManyResult>;
  /** How many pets the store holds. */
  count(): Maybe<number>;
  /** Every pet as one JSON array, in creation order. */
  snapshot(): Maybe<Buffer>;
  /** Back to the pets the store started with (the seed): every pet created since is forgotten. */
  reset(): Maybe<void>;
  /** For a store shared by several instances: how they tell each other of control calls. */
  readonly channel?: ControlChannel;
  /** Lets go of what the store holds open (connections); the pets stay where they are. */
  close?(): Promise<void>;
}

/**
 * How instances that share a store share the control API's settings too
 * (clock, faults, resets), as one opaque text: the store carries it and
 * knows nothing of what it says.
 */
export interface ControlChannel {
  /** Keeps `state` as the latest and tells every instance, this one included. */
  publish(state: string): Promise<void>;
  /** The latest state published, if any. */
  latest(): Promise<string | undefined>;
  /** Calls `listener` with every state published from now on, and again with the latest after the store comes back from an outage. */
  subscribe(listener: (state: string) => void): Promise<void>;
}

/** Thrown (or rejected with) by a store that cannot answer now: Redis away. The server answers 503. */
export class StoreUnavailableError extends Error {
  readonly code = 'store_unavailable';
}
