/**
 * The shared store: pets in Redis, so that several `petstore serve`
 * instances behind one address serve one set of pets. Each pet's JSON is
 * written once, at creation (pets never change), and read back as it was
 * written; ids are text end to end, exact over the whole int64 range.
 *
 * One round trip per operation: a create is one script (redis-scripts.ts)
 * that takes the id, stores the JSON and indexes it by status; a getPet one
 * HGET; a page one script. Every failure to reach Redis (refused, lost,
 * timed out, still loading) is a StoreUnavailableError, which the server
 * answers 503; the client reconnects by itself.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClientType } from 'redis';
import { componentSchema } from '../../spec/operations.js';
import type { NewPet, PetStatus } from '../../spec/types.js';
import { compileObjectSerializer } from '../../spec/schema/serialize.js';
import { createRandomIds, idBase, idStep, type IdMode } from './ids.js';
import { CREATE_SCRIPT, RANGE_SCRIPT, RESET_SCRIPT } from './redis-scripts.js';
import { SeedError, type SeedPet } from './seed.js';
import { StoreUnavailableError, type ControlChannel, type CreateManyResult, type CreateResult, type Store } from './store.js';

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  url: string;
  /** Put before every key and the channel, so several stand-ins can share one Redis; `petstore:` by default. */
  prefix?: string;
  /** How ids are assigned; every instance of one store must use the same mode. */
  ids?: IdMode;
  /** The most pets the store holds. */
  maxPets: number;
  /** Pets to start with, loaded only into a store that holds none yet (the first instance loads them). */
  seed?: Iterable<SeedPet>;
  /** Milliseconds a command may take before its request is answered 503. */
  commandTimeoutMs?: number;
  /** Told when Redis is lost and when it is back, one line each. */
  onNotice?: (line: string) => void;
}

export const DEFAULT_REDIS_PREFIX = 'petstore:';
const DEFAULT_COMMAND_TIMEOUT_MS = 2000;
/** Pets per script call when a seed is loaded. */
const SEED_BATCH = 500;
/** How long an instance waits for another one that is loading the seed. */
const SEED_WAIT_MS = 60_000;

const petJson = compileObjectSerializer(componentSchema('Pet'));
const STATUSES = (componentSchema('PetStatus')['enum'] ?? []) as readonly string[];
/** The id as the serializer writes it, found to split a pet's JSON around its id. */
const ID_MARK = '"id":0';

type Client = RedisClientType;

/** Whether `store` names a shared store (a Redis URL) rather than `memory`. */
export function isRedisUrl(store: string): boolean {
  return /^rediss?:\/\//i.test(store);
}

/**
 * Opens the shared store: connects (a Redis that cannot be reached is a
 * StoreOpenError, one line), checks that the store's id
 * mode is this instance's, and loads the seed when the store is new.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const client = await connect(options);
  const store = new RedisStore(client, options);
  try {
    await store.claim();
    if (options.seed) await store.loadSeed(options.seed);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** A store that could not be opened: the CLI's exit 2, with this one line. */
export class StoreOpenError extends Error {
  readonly code = 'store_unreachable';
}

async function connect(options: RedisStoreOptions): Promise<Client> {
  let connected = false;
  const where = redactUrl(options.url);
  // Loaded when a shared store is opened: the in-memory stand-in, and every
  // process that imports the package for it, never pays for the Redis client.
  const { createClient } = await import('redis');
  const client: Client = createClient({
    url: options.url,
    // Commands fail at once while Redis is away (503 now), rather than wait
    // in a queue that a client's own timeout would give up on first.
    disableOfflineQueue: true,
    commandOptions: { timeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS },
    // A dead connection that says nothing is found within a second.
    pingInterval: 1000,
    socket: {
      connectTimeout: 2000,
      // At start, one refusal is enough to say so; once serving, reconnect for as long as it takes.
      reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(50 * 2 ** retries, 1000) : cause),
    },
  });
  let lost = false;
  client.on('error', (error: Error) => {
    if (connected && !lost) {
      lost = true;
      options.onNotice?.(`petstore: lost the shared store at ${where} (${error.message}); answering 503 until it is back`);
    }
  });
  client.on('ready', () => {
    if (lost) options.onNotice?.(`petstore: the shared store at ${where} is back`);
    lost = false;
  });
  try {
    await client.connect();
  } catch (error) {
    throw new StoreOpenError(`cannot reach the shared store at ${where}: ${(error as Error).message || (error as Error).name}`);
  }
  connected = true;
  return client;
}

export class RedisStore implements Store {
  readonly kind = 'redis';
  readonly idMode: IdMode;
  readonly capacity: number;
  readonly channel: ControlChannel;
  private readonly keys: { pets: string; order: string; seq: string; meta: string; control: string };
  private readonly statusKeys: Map<string, string>;
  /** The create script's KEYS: pets, order, seq, then the status lists in STATUSES order. */
  private readonly createKeys: string[];
  private readonly base: { high: string; low: string; step: string };
  private readonly randomId = createRandomIds();
  private readonly shas = new Map<string, string>();
  private subscriber: Client | undefined;

  constructor(
    private readonly client: Client,
    private readonly options: RedisStoreOptions,
  ) {
    const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
    this.idMode = options.ids ?? 'sequential';
    this.capacity = options.maxPets;
    this.keys = { pets: `${prefix}pets`, order: `${prefix}order`, seq: `${prefix}seq`, meta: `${prefix}meta`, control: `${prefix}control` };
    this.statusKeys = new Map(STATUSES.map((status) => [status, `${prefix}status:${status}`]));
    this.createKeys = [this.keys.pets, this.keys.order, this.keys.seq, ...this.statusKeys.values()];
    const base = idBase(this.idMode);
    this.base = { high: String(base / 1_000_000_000n), low: String(base % 1_000_000_000n), step: String(idStep(this.idMode)) };
    // A Redis that comes back empty (restarted without persistence) records this store's id mode
    // again, so that an instance of another mode is still refused.
    client.on('ready', () => void this.client.hSetNX(this.keys.meta, 'ids', this.idMode).catch(() => {}));
    this.channel = {
      publish: (state) => this.guard(this.client.multi().set(this.keys.control, state).publish(this.keys.control, state).exec()).then(() => {}),
      latest: () => this.guard(this.client.get(this.keys.control)).then((text) => text ?? undefined),
      subscribe: (listener) => this.subscribe(listener),
    };
  }

  list(limit: number, status?: PetStatus): Promise<Buffer> {
    const key = status === undefined ? this.keys.order : this.statusKeys.get(status);
    if (key === undefined) return Promise.resolve(Buffer.from('[]'));
    return this.range(key, 0, limit - 1).then(joinArray);
  }

  get(id: bigint): Promise<Buffer | undefined> {
    return this.guard(this.client.hGet(this.keys.pets, id.toString())).then((json) => (json == null ? undefined : Buffer.from(json)));
  }

  async create(pet: NewPet): Promise<CreateResult> {
    const parts = splitAtId(pet);
    const created = await this.insert([pet], [parts]);
    if (!created.ok) return created;
    const [id] = created.ids as [bigint];
    // The same text the script stored: the head, the id's digits, the tail.
    return { ok: true, id, json: Buffer.from(parts.head + id.toString() + parts.tail) };
  }

  async createMany(pets: readonly NewPet[]): Promise<CreateManyResult> {
    if (pets.length === 0) return { ok: true, ids: [], size: await this.count() };
    const created = await this.insert(pets, pets.map(splitAtId));
    return created.ok ? { ok: true, ids: created.ids, size: await this.count() } : created;
  }

  /** Stores every pet (each split around its id once, by the caller), or none when they do not all fit: one script call. */
  private async insert(
    pets: readonly NewPet[],
    parts: readonly { head: string; tail: string }[],
  ): Promise<{ ok: true; ids: bigint[] } | { ok: false; reason: 'full' }> {
    for (;;) {
      const args = [String(this.capacity), this.base.high, this.base.low, this.base.step];
      pets.forEach((pet, i) => {
        const { head, tail } = parts[i] as { head: string; tail: string };
        const list = pet.status === undefined ? 0 : 4 + STATUSES.indexOf(pet.status);
        args.push(head, tail, String(list), this.idMode === 'random' ? this.randomId().toString() : '');
      });
      const answer = (await this.script(CREATE_SCRIPT, this.createKeys, args)) as string[];
      // A random id drawn twice in 2^63 (about never): the whole call is made again with new draws.
      if (answer[0] === 'taken') continue;
      if (answer[0] === 'full') return { ok: false, reason: 'full' };
      return { ok: true, ids: answer.slice(1).map(BigInt) };
    }
  }

  count(): Promise<number> {
    return this.guard(this.client.lLen(this.keys.order));
  }

  async snapshot(): Promise<Buffer> {
    // Pets are only added at the end (or forgotten by a reset): read in slices, one round trip each.
    const parts: string[] = [];
    const slice = 1000;
    for (let start = 0; ; start += slice) {
      const jsons = (await this.range(this.keys.order, start, start + slice - 1)) as (string | null)[];
      for (const json of jsons) if (json !== null) parts.push(json);
      if (jsons.length < slice) break;
    }
    return Buffer.from(`[${parts.join(',')}]`);
  }

  async reset(): Promise<void> {
    await this.script(RESET_SCRIPT, [this.keys.pets, this.keys.order, this.keys.seq, this.keys.meta, ...this.statusKeys.values()], []);
  }

  async close(): Promise<void> {
    const clients = [this.client, this.subscriber].filter((c): c is Client => c !== undefined);
    await Promise.all(clients.map((c) => (c.isOpen ? c.close().catch(() => c.destroy()) : undefined)));
  }

  /** Records this instance's id mode in a new store, or checks it against the store's. */
  async claim(): Promise<void> {
    await this.guard(this.client.hSetNX(this.keys.meta, 'ids', this.idMode));
    const mode = await this.guard(this.client.hGet(this.keys.meta, 'ids'));
    if (mode !== this.idMode) {
      throw new StoreOpenError(
        `the shared store at ${redactUrl(this.options.url)} (prefix ${this.prefix}) gives ids in ${mode} mode; start this instance with --ids ${mode}, or use another --store-prefix`,
      );
    }
  }

  /**
   * Loads the seed when the store is new: the first instance to claim the
   * seeding loads it; another one started at the same time waits for it.
   * A store that holds pets already keeps them, and the seed is not loaded.
   */
  async loadSeed(seed: Iterable<SeedPet>): Promise<void> {
    const claimed = await this.guard(this.client.hSetNX(this.keys.meta, 'seeding', randomUUID()));
    if (!claimed) return this.awaitSeed();
    let batch: NewPet[] = [];
    const flush = async () => {
      const created = await this.createMany(batch);
      if (!created.ok) throw new SeedError(`the seed holds more than the ${this.capacity} pets the store may hold (--max-pets)`);
      batch = [];
    };
    for (const pet of seed) {
      batch.push(pet);
      if (batch.length === SEED_BATCH) await flush();
    }
    if (batch.length) await flush();
    // The seed is the pets held now (any created meanwhile by another instance's client count too).
    await this.guard(this.client.hSet(this.keys.meta, 'seed', String(await this.count())));
  }

  private async awaitSeed(): Promise<void> {
    const until = Date.now() + SEED_WAIT_MS;
    while ((await this.guard(this.client.hGet(this.keys.meta, 'seed'))) == null) {
      if (Date.now() > until)
        throw new StoreOpenError(`another instance began loading the seed into the shared store and has not finished in ${SEED_WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private get prefix(): string {
    return this.options.prefix ?? DEFAULT_REDIS_PREFIX;
  }

  private range(key: string, start: number, stop: number): Promise<(string | null)[]> {
    return this.script(RANGE_SCRIPT, [key, this.keys.pets], [String(start), String(stop)]) as Promise<(string | null)[]>;
  }

  /** Runs a script by its digest (one round trip), sending its text only when Redis does not have it (after a restart). */
  private async script(text: string, keys: string[], args: string[]): Promise<unknown> {
    const sha = this.shas.get(text);
    if (sha !== undefined) {
      try {
        return await this.guard(this.client.evalSha(sha, { keys, arguments: args }), true);
      } catch (error) {
        if (!(error instanceof NoScript)) throw error;
      }
    }
    const answer = await this.guard(this.client.eval(text, { keys, arguments: args }));
    if (sha === undefined) this.shas.set(text, await this.guard(this.client.scriptLoad(text)));
    return answer;
  }

  private async subscribe(listener: (state: string) => void): Promise<void> {
    const subscriber = (this.subscriber ??= this.client.duplicate());
    let subscribed = false;
    subscriber.on('error', () => {}); // the main client reports the loss
    // After an outage, the latest state again: a change made meanwhile was not heard.
    subscriber.on('ready', () => {
      if (subscribed)
        this.channel.latest().then(
          (state) => state !== undefined && listener(state),
          () => {},
        );
    });
    await this.guard(subscriber.connect());
    await this.guard(subscriber.subscribe(this.keys.control, listener));
    subscribed = true;
  }

  /**
   * Every failure to get an answer from Redis is the store being unavailable,
   * and so is no answer within the command timeout (a frozen Redis keeps its
   * connection open and says nothing; the client's own command timeout did
   * not fire in that case when tried, so the deadline is kept here). A
   * missing script is for script() to handle.
   */
  private guard<T>(pending: Promise<T>, scriptMayBeMissing = false): Promise<T> {
    const timeoutMs = this.options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new StoreUnavailableError(`no answer within ${timeoutMs} ms`)), timeoutMs);
      pending.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: Error) => {
          clearTimeout(timer);
          if (scriptMayBeMissing && /NOSCRIPT/.test(error.message)) reject(new NoScript());
          else reject(new StoreUnavailableError(error.message || error.name));
        },
      );
    });
  }
}

class NoScript extends Error {}

/** The pet's JSON before and after its id's digits (the serializer's own output, split once). */
function splitAtId(pet: NewPet): { head: string; tail: string } {
  const json = petJson(pet, { id: 0n });
  const at = json.indexOf(ID_MARK) + ID_MARK.length - 1;
  return { head: json.slice(0, at), tail: json.slice(at + 1) };
}

function joinArray(jsons: (string | null)[]): Buffer {
  return Buffer.from(`[${jsons.filter((json) => json !== null).join(',')}]`);
}

/** The URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}
