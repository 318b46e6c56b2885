/**
 * The reference server: a factory that wires spec, store and pipeline to a
 * node:http server, apart from listening, so tests and embedders choose the
 * port and own the lifecycle.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Socket } from 'node:net';
import { operations as specOperations, type OperationDescriptor } from '../../spec/operations.js';
import { PetStore, SeedError, type IdMode, type SeedPet, type Store } from '../store/index.js';
import { acceptAnyBearer, createAuthenticator, type AuthOutcome } from './authenticator.js';
import { createClock, type Clock } from './clock.js';
import { DEFAULT_BASE_PATH, DEVELOPMENT_API_KEY, defaultLimits, type Limits } from './decisions.js';
import { createRequestHandler } from './handler.js';
import { createOperationHandlers } from './operation-handlers.js';
import { answerClientError } from './client-errors.js';
import { endAndLinger } from './linger.js';
import type { ErrorCode } from './errors.js';
import { createResponder, type Exchange, type Responder } from './respond.js';
import { passingRefusalsOn, type Relay } from './relay.js';
import { createDispatch, type Dispatch, type RequestIds } from './dispatch.js';
import { StubTable } from './control/stubs.js';
import { createControlHandler } from './control/api.js';
import { createDocsHandler, DOCS_PREFIX } from './docs.js';
import { FaultTable } from './control/faults.js';
import { createJournalReader, Journal, keepBytes, type JournalEntry, type JournalReader, type JournalRecord } from './control/journal.js';
import { shareControl, type ControlChange, type SharedControl, type SharedControlParts } from './control/shared-settings.js';
import type { HeaderList } from './headers.js';
import type { RequestLog } from './log.js';
import { createFindingDetector, type FindingDetector } from './findings/detect.js';
import { createFindingLedger, type FindingLedger } from './findings/ledger.js';

export interface ServerOptions {
  /** Accepted API keys; with none, the development key only. */
  apiKeys?: readonly string[];
  /** The path prefix of the interface; `/v1` by default. */
  basePath?: string;
  /**
   * Pets to start with, created in order, each given the next id unless it
   * has an `id` of its own (a state file's pets keep theirs); read once, so
   * it may be a generator.
   */
  seed?: Iterable<SeedPet>;
  /** How ids are assigned: `sequential` (1, 2, 3…, the default), `large` (from 2^53 + 1) or `random` (any positive int64). */
  ids?: IdMode;
  /**
   * Where the pets live: a new in-memory PetStore by default (from `seed`,
   * `ids` and `limits.maxPets`), or a store opened already, such as a shared
   * RedisStore (openRedisStore), which has its own seed, ids and capacity.
   * The server closes it when it closes.
   */
  store?: Store;
  /** The server clock's starting instant; the real time by default. */
  now?: Date;
  limits?: Partial<Limits>;
  /** Where unexpected errors go; stderr by default. */
  onError?: (error: unknown) => void;
  /** The operations to serve; the spec's by default. */
  operations?: readonly OperationDescriptor[];
  /** Serve the control API under /__control (default true). */
  control?: boolean;
  /**
   * What POST /__control/shutdown does once it has answered: close this
   * server by default; `petstore serve` stops as on SIGTERM, with its verdict.
   */
  onShutdown?: () => void;
  /** Serve the page to read and try the API at / and /docs, and the served document at /docs/openapi.json (default true). */
  docs?: boolean;
  /** Called once per finished request (interface and control API), e.g. to log it. */
  onRequest?: (entry: JournalEntry) => void;
  /**
   * Writes the log line of each finished request (interface and control API)
   * from its record: what `petstore serve` logs with (log.ts), cheaper than
   * `onRequest`, which is handed an entry made for it.
   */
  log?: RequestLog;
  /** Check every request to the interface against the spec and keep what the client got wrong (default true). */
  findings?: boolean;
  /** Random numbers for fault rates; Math.random by default (tests pass their own). */
  random?: () => number;
  /**
   * Pass what the interface accepts on to another implementation instead of
   * the store (`petstore proxy`, relay.ts). Without `apiKeys`, any key sent
   * as `Bearer <key>` is let through (the upstream judges it); the control
   * API still takes only `apiKeys` (the development key by default).
   */
  relay?: Relay;
}

export interface PetstoreServer<S extends Store = PetStore> {
  readonly http: http.Server;
  readonly store: S;
  readonly clock: Clock;
  readonly basePath: string;
  readonly apiKeys: readonly string[];
  /** The last requests to the interface. */
  readonly journal: Journal;
  /** Faults injected per operation. */
  readonly faults: FaultTable;
  /** What clients got wrong, counted per rule (empty with `findings: false`). */
  readonly findings: FindingLedger;
  /** Answers set in advance per operation, first in, first out. */
  readonly stubs: StubTable;
  /**
   * The id the next request to the interface will get (ids only grow, a
   * reset included): requests and findings `since` it are the ones after this
   * call. Findings counted from here are counted since the mark.
   */
  mark(): number;
  /** Tells the instances sharing the store of a change made in process (the control API's calls do it themselves); at once without one. */
  announce(change: ControlChange): Promise<void>;
  /** Back to the pets the server started with (the seed): every pet created since is forgotten. */
  reset(): ReturnType<S['reset']>;
  /** Listens on `port` (0 for an ephemeral one) and resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops accepting, lets in-flight requests finish for up to `graceMs`, then cuts the rest. */
  close(graceMs?: number): Promise<void>;
}

/** `/v1/` and `v1` both mean `/v1`; `/` means the interface lives at the root. */
export function normaliseBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

export function createServer(options?: ServerOptions & { store?: undefined }): PetstoreServer<PetStore>;
export function createServer<S extends Store>(options: ServerOptions & { store: S }): PetstoreServer<S>;
export function createServer(options: ServerOptions = {}): PetstoreServer<Store> {
  const limits: Limits = { ...defaultLimits, ...options.limits };
  const basePath = normaliseBasePath(options.basePath ?? DEFAULT_BASE_PATH);
  const apiKeys = options.apiKeys?.length ? [...options.apiKeys] : [DEVELOPMENT_API_KEY];
  const operations = options.operations ?? specOperations;
  const clock = createClock(options.now);
  const store: Store = options.store ?? seededMemoryStore(options, limits);

  // Set at shutdown: every answer from then on closes its connection.
  let closing = false;
  // Every configured key is taken out of what the journal and the logs show.
  const journalReader = createJournalReader(apiKeys, limits.journalBodyBytes);
  const journal = new Journal(limits.journalSize, journalReader);
  const findings = createFindingLedger({ clock, redact: journalReader.redact, keys: apiKeys });
  const detector =
    options.findings === false
      ? undefined
      : createFindingDetector({ ledger: findings, operations, basePath, limits, redact: journalReader.redact, keys: apiKeys });
  const answered = createRecorder(journal, clock, limits, options);
  const onError = options.onError ?? ((error: unknown) => console.error('petstore: unexpected error:', error));
  // A refusal is what the client got wrong: a finding, noted before the answer is written, which carries it.
  const refusing = (x: Exchange, code: ErrorCode, message: () => string) => void (detector && !x.toControl && detector.refused(x, code, message));
  const responder = createResponder(clock, { closing: () => closing, refusing, answered, failed: onError });
  const { relay } = options;
  const relayHooks = { answered, refused: refusing };
  const respond = relay ? passingRefusalsOn(responder, relay, relayHooks) : responder;
  const forward = relay && ((x: Exchange) => relay.forward(x, relayHooks));
  const faults = new FaultTable(options.random);
  const stubs = new StubTable(operations);
  const ids: RequestIds = { last: 0 };
  const { sharing, shared } = shareSettings(store, { clock, faults, journal, findings });
  const authenticate = createAuthenticator(apiKeys);
  const handle = interfaceHandler(
    { operations, store, limits, respond, basePath, stubs, clock, faults, detector, forward },
    relay && !options.apiKeys?.length ? acceptAnyBearer : authenticate,
  );
  const operationIds = operations.map((op) => op.operationId);
  const control =
    options.control === false
      ? undefined
      : createControlHandler({
          store,
          clock,
          faults,
          stubs,
          journal,
          findings,
          mark: () => petstore.mark(),
          respond,
          authenticate,
          limits,
          operationIds,
          // Called at request time, when `petstore` below exists.
          shutdown: options.onShutdown ?? (() => void petstore.close()),
          ...(shared ? { shared } : {}),
        });
  // The page yields to an interface that lives under /docs itself.
  const docs =
    options.docs === false || basePath === DOCS_PREFIX
      ? undefined
      : createDocsHandler(operations, basePath, respond, {
          findings: control !== undefined && options.findings !== false,
          ...(options.apiKeys?.length ? {} : { developmentKey: DEVELOPMENT_API_KEY }),
          ...(options.relay?.front ? { front: options.relay.front } : {}),
        });
  const dispatch = createDispatch({ respond, handle, control, docs, ids });
  const server = createListener(dispatch, clock, limits);

  const petstore: PetstoreServer<Store> = {
    http: server,
    store,
    clock,
    basePath,
    apiKeys,
    journal,
    faults,
    findings,
    stubs,
    mark: () => findings.mark(ids.last + 1),
    announce: (change) => shared?.announce(change) ?? Promise.resolve(),
    reset: () => store.reset(),
    async listen(port = 0, host = '127.0.0.1') {
      await sharing;
      return listenOn(server, port, host, basePath);
    },
    async close(graceMs = limits.shutdownGraceMs) {
      await closeListener(server, graceMs, () => {
        closing = true;
      });
      await store.close?.();
    },
  };
  return petstore;
}

interface InterfaceParts {
  readonly operations: readonly OperationDescriptor[];
  readonly store: Store;
  readonly limits: Limits;
  readonly respond: Responder;
  readonly basePath: string;
  readonly stubs: StubTable;
  readonly clock: Clock;
  readonly faults: FaultTable;
  readonly detector: FindingDetector | undefined;
  /** In front of a relay: what the store would answer is passed on instead. */
  readonly forward: ((x: Exchange) => void) | undefined;
}

/** The interface's pipeline, on the store or in front of a relay. */
function interfaceHandler(parts: InterfaceParts, authenticate: (header: string | undefined) => AuthOutcome) {
  const { detector, forward, ...common } = parts;
  const checks = { ...(detector ? { findings: detector } : {}), ...(forward ? { forward } : {}) };
  return createRequestHandler({
    ...common,
    handlers: createOperationHandlers({ ...common, ...checks }),
    authenticate,
    ...checks,
  });
}

/**
 * With a shared store, the control API's settings are shared too
 * (control/shared-settings.ts): `sharing` settles once the latest of them is taken up,
 * which listen() waits for (and reports, if it fails).
 */
function shareSettings(store: Store, parts: SharedControlParts): { sharing?: Promise<SharedControl>; shared?: SharedControl } {
  if (!store.channel) return {};
  const sharing = shareControl(store.channel, parts);
  sharing.catch(() => {}); // listen() reports it
  return { sharing, shared: { announce: (change) => sharing.then((s) => s.announce(change)) } };
}

/** The in-memory store of `options`, holding the seed's pets (a reset comes back to them). */
function seededMemoryStore(options: ServerOptions, limits: Limits): PetStore {
  const store = new PetStore({ maxPets: limits.maxPets, ids: options.ids ?? 'sequential' });
  for (const pet of options.seed ?? []) {
    const created = store.create(pet, pet.id);
    if (created.ok) continue;
    if (created.reason === 'taken') throw new SeedError(`two pets of the seed have the id ${pet.id}`);
    throw new SeedError(`the seed holds more than the ${limits.maxPets} pets the store may hold (--max-pets)`);
  }
  store.markSeed();
  return store;
}

/** Listens on `port` and `host` and resolves with the base URL. */
function listenOn(server: http.Server, port: number, host: string, basePath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      resolve(`http://${shownHost}:${actualPort}${basePath}`);
    });
  });
}

/** Stops accepting, lets in-flight requests finish for up to `graceMs`, then cuts the rest. */
function closeListener(server: http.Server, graceMs: number, beginClosing: () => void): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    // Not unref'd: a connection that is open but idle (a lingering one
    // not reading) does not keep the process alive, and the close must
    // still complete rather than leave its caller waiting for ever.
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    beginClosing();
    server.closeIdleConnections();
  });
}

/**
 * The node:http server the pipeline listens through: the limits of D11, and
 * the answers Node would otherwise give on its own (or not give) brought back
 * to the pipeline or to answerClientError.
 */
function createListener(dispatch: Dispatch, clock: Clock, limits: Limits): http.Server {
  const server = http.createServer(
    {
      requireHostHeader: false,
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    dispatch,
  );
  server.maxConnections = limits.maxConnections;
  // A client may close its sending side once its requests are out (RFC 9112
  // §9.6) and still read the answers. Node's default ends the connection at
  // once, which loses every answer not yet written: here, those the outbox
  // holds to the end of the turn. With this, the connection ends after the
  // last answer instead.
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, clock, limits));
  // RFC 9110 §10.1.1 lets a server ignore an expectation it does not know;
  // Node would answer 417 with no Error body, so the request is served as usual.
  server.on('checkExpectation', dispatch);
  // Node destroys a CONNECT request's socket unanswered unless someone listens
  // for 'connect'. This is no proxy: CONNECT goes through the pipeline like any
  // other method (401, 404 or 405 with an Error body), then the connection closes.
  server.on('connect', (req: http.IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy()); // Node has removed its own handler
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.once('finish', () => {
      res.detachSocket(socket);
      endAndLinger(socket);
    });
    dispatch(req, res);
  });
  return server;
}

/**
 * Journals (interface requests only) and reports every answered request.
 * Only references are kept (bodies cut to the journal's size, copied when
 * they are views of something larger); the journal's reader does the rest.
 */
function createRecorder(journal: Journal, clock: Clock, limits: Limits, options: Pick<ServerOptions, 'onRequest' | 'log'>) {
  const cap = limits.journalBodyBytes;
  const reader: JournalReader = journal.reader;
  const { onRequest, log } = options;
  return (x: Exchange, status: number, code?: ErrorCode, headers?: HeaderList, body?: string | Buffer): void => {
    const { req, toControl } = x;
    if (!onRequest && !log && (toControl || limits.journalSize === 0)) return;
    const latencyMs = Math.round((performance.now() - x.arrived) * 100) / 100;
    const sent = x.requestBody;
    const record: JournalRecord = {
      id: x.seq,
      findings: x.findings,
      operationId: x.operation?.operationId,
      arrivedAt: clock.now() - latencyMs,
      method: req.method ?? '',
      path: req.url ?? '',
      status,
      latencyMs,
      upstreamMs: x.upstreamMs,
      code,
      fault: x.fault,
      httpVersion: req.httpVersion,
      requestHeaders: req.rawHeaders,
      requestBody: sent === undefined ? undefined : keepBytes(sent, cap),
      requestBytes: sent === undefined ? 0 : sent.length,
      responseHeaders: headers,
      responseBody: body === undefined || typeof body === 'string' ? body : keepBytes(body, cap),
      responseBytes: body === undefined || typeof body === 'string' ? 0 : body.length,
    };
    if (!toControl) journal.add(record);
    if (log) log(record, reader.redact);
    if (onRequest) onRequest(reader.entry(record));
  };
}
