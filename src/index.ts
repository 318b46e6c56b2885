/**
 * petstore-harness as a library: the reference server for client test suites,
 * and (from `conformance/`) the suite for checking an implementation.
 */
import { createServer, type ServerOptions } from './server/index.js';
import { DEFAULT_REDIS_PREFIX, isRedisUrl, openRedisStore, StoreOpenError, type Store } from './store/index.js';
import { defaultLimits } from './server/decisions.js';
import { inProcessControl, type InProcessControl } from './in-process.js';

export { createServer, errorCatalog, normaliseBasePath } from './server/index.js';
export type { ServerOptions, PetstoreServer, ErrorCode, AllowedFinding, AssertOptions, Finding, FindingCode, Severity } from './server/index.js';
export { FindingsError, describeFindings } from './server/index.js';
export { openRedisStore, StoreOpenError } from './store/index.js';
export type { Store, RedisStoreOptions } from './store/index.js';
export { parseJson, stringifyJson } from '../spec/json/index.js';
export { losslessFetch } from './client/lossless-fetch.js';
export type { Pet, NewPet, PetStatus, ErrorBody } from '../spec/types.js';
export { openapi } from '../spec/openapi.js';
export { ControlError } from './in-process.js';
export type { InProcessControl, RequestQuery, SinceOptions, ServerClock, ServerFaults } from './in-process.js';
export type { DetailedJournalEntry, JournalEntry, JournalMessage } from './server/control/journal.js';
export type { Fault } from './server/control/faults.js';
export type { StubAnswer, StubOptions, StubErrorCode, StubSummary } from './server/control/stubs.js';

// What a front end needs to run the server as a process (the CLI's `petstore
// serve` is one): the documented defaults, the request log and its line
// buffer, the stores and their files, and the reader of `--now`.
export { DEFAULT_BASE_PATH, DEFAULT_HOST, DEFAULT_PORT, DEVELOPMENT_API_KEY, defaultLimits } from './server/decisions.js';
export { createNoticeWriter, createRequestLogger, utf8Bytes } from './server/log.js';
export { createLineBuffer } from './server/line-buffer.js';
export { readInstant } from './server/instant.js';

// What `petstore proxy` (proxy/) builds on: the server in front of a relay, the findings it notes of the upstream,
// the in-process control a proxy shares with the stand-in, and what a state file holds.
export type { Relay, RelayHooks } from './server/relay.js';
export type { ServedFront } from './server/served-spec.js';
export { roundingCandidates } from './server/findings/rounding.js';
export type { Exchange } from './server/respond.js';
export type { FindingDraft, Side } from './server/findings/finding.js';
export type { FindingLedger } from './server/findings/ledger.js';
export { FINDING_HEADER } from './server/findings/finding.js';
export { inProcessControl } from './in-process.js';
export { readNewPet, isPetId, writeStateFile } from './store/index.js';
export {
  DEFAULT_REDIS_PREFIX,
  ID_MODES,
  isRedisUrl,
  PetStore,
  persistPeriodically,
  readSeedText,
  readStateFile,
  redactUrl,
  SeedError,
  seedPets,
  StoreUnavailableError,
} from './store/index.js';

export interface StartedServer extends InProcessControl {
  /** The base URL, such as `http://127.0.0.1:54321/v1`. */
  readonly url: string;
  /** A key the server accepts. */
  readonly apiKey: string;
  /**
   * Back to the seed: every pet created since start is forgotten (at once in
   * memory; a shared store's reset resolves when done), and so are the
   * findings and the stubs.
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions extends Omit<ServerOptions, 'store'> {
  port?: number;
  host?: string;
  /**
   * Where the pets live: `memory` (the default), a shared store's URL
   * (`redis://host:port/db`, shared with every instance given the same URL
   * and prefix), or a Store opened already.
   */
  store?: 'memory' | string | Store;
  /** Put before a shared store's keys, so several stand-ins can share one Redis; `petstore:` by default. */
  storePrefix?: string;
}

/**
 * A real reference server on 127.0.0.1 and an ephemeral port, for a client's
 * own tests: `const api = await startServer(); … await api.close()`.
 */
export async function startServer(options: StartOptions = {}): Promise<StartedServer> {
  const store = await openStore(options);
  const server = store ? createServer({ ...options, store }) : createServer({ ...options, store: undefined });
  try {
    const url = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
    return {
      url,
      apiKey: server.apiKeys[0] as string,
      ...inProcessControl(server),
      reset: async () => {
        await server.reset();
        server.findings.clear();
        server.stubs.clear();
      },
      close: () => server.close(),
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** The store `options` name, opened; undefined for the in-memory default, which createServer makes. */
async function openStore(options: StartOptions): Promise<Store | undefined> {
  const { store } = options;
  if (store === undefined || store === 'memory') return undefined;
  if (typeof store !== 'string') return store;
  if (!isRedisUrl(store)) throw new StoreOpenError(`the store must be memory or a Redis URL such as redis://127.0.0.1:6379/0, not ${store}`);
  return openRedisStore({
    url: store,
    prefix: options.storePrefix ?? DEFAULT_REDIS_PREFIX,
    ids: options.ids ?? 'sequential',
    maxPets: options.limits?.maxPets ?? defaultLimits.maxPets,
    ...(options.seed ? { seed: options.seed } : {}),
  });
}
