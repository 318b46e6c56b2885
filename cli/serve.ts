/**
 * `petstore serve`: the reference server as a stand-in backend.
 */
import { Command, Option } from '@commander-js/extra-typings';
import {
  type createRequestLogger,
  createServer,
  DEFAULT_BASE_PATH,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_REDIS_PREFIX,
  defaultLimits,
  DEVELOPMENT_API_KEY,
  ID_MODES,
  isRedisUrl,
  openRedisStore,
  PetStore,
  persistPeriodically,
  readSeedText,
  readStateFile,
  redactUrl,
  SeedError,
  seedPets,
  StoreOpenError,
  StoreUnavailableError,
  type PetstoreServer,
  type Store,
} from '../src/index.js';
import { resolveApiKeys } from './api-keys.js';
import { UsageError, type CliIo } from './io.js';
import { collect, parseInstant, parseInteger, parsePort } from './options.js';
import { openOutput, reportFindings, stopRequests } from './running.js';

export function serveCommand(io: CliIo) {
  return declareServe().action((options) => serve(options, io));
}

/** The options of `petstore serve`, declared once: the README's table is kept in step by a test. */
function declareServe() {
  return new Command('serve')
    .description('Start the reference server: the whole v1 interface, stateful and in memory')
    .option('-p, --port <port>', 'port to listen on; 0 picks a free one', parsePort, DEFAULT_PORT)
    .option('-H, --host <host>', 'address to listen on', DEFAULT_HOST)
    .option('-k, --api-key <key>', 'an accepted API key (repeatable); also PETSTORE_API_KEYS=k1,k2', collect)
    .option('--api-keys-file <file>', 'a file of accepted API keys, one per line (keeps keys out of `ps`)')
    .option('--base-path <path>', 'path prefix of the interface', DEFAULT_BASE_PATH)
    .option('--seed <file>', 'JSON array of NewPet objects to start with, e.g. fixtures/pets.json')
    .option(
      '--keep-ids',
      "keep the id each --seed entry gives (a recording of petstore proxy --record: the upstream's ids); otherwise ids follow --ids in file order",
      false,
    )
    .option('--now <instant>', "the server clock's start (ISO 8601), e.g. 2031-01-01T00:00:00Z to see the world after getPet's sunset", parseInstant)
    .addOption(
      new Option('--ids <mode>', 'how ids are assigned: sequential (1, 2, 3…), large (from 9007199254740993: beyond JSON.parse) or random (any positive int64)')
        .choices(ID_MODES)
        .default('sequential' as const),
    )
    .option('--max-pets <n>', 'most pets held; creation beyond answers 507', parseInteger(0, 100_000_000), defaultLimits.maxPets)
    .option(
      '--state <file>',
      'keep the pets in this file: loaded at start (instead of --seed when it exists), written atomically every --state-interval seconds and on shutdown',
    )
    .option('--state-interval <s>', 'seconds between writes of --state when pets changed', parseInteger(1, 86_400), 5)
    .option('--no-control', 'do not serve the control API (/__control)')
    .option('--no-docs', 'do not serve the page to read and try the API (/ and /docs)')
    .option('--journal-size <n>', 'requests kept in the journal (GET /__control/journal)', parseInteger(0, 1_000_000), defaultLimits.journalSize)
    .addOption(
      new Option('--log <format>', 'request log on stdout: pretty (one line per request) or json (pino field names)')
        .choices(['pretty', 'json'] as const)
        .default('pretty' as const),
    )
    .option('-q, --quiet', 'no request log', false)
    .option('--findings <file>', 'write what clients got wrong (the findings, as GET /__control/findings answers them) to this JSON file at shutdown')
    .addOption(
      new Option('--fail-on-findings <severity>', 'exit 1 at shutdown if findings of this severity were seen: error, or warning (warnings or errors)').choices([
        'error',
        'warning',
      ] as const),
    )
    .addOption(
      new Option('--store <store>', 'where the pets live: memory, or a Redis URL (redis://host:port/db) shared by every instance given it')
        .env('PETSTORE_STORE')
        .default('memory'),
    )
    .addOption(
      new Option('--store-prefix <prefix>', 'put before every key of a shared store, so several stand-ins can share one Redis')
        .env('PETSTORE_STORE_PREFIX')
        .default(DEFAULT_REDIS_PREFIX),
    );
}

type ServeOptions = ReturnType<ReturnType<typeof declareServe>['opts']>;

async function serve(options: ServeOptions, io: CliIo): Promise<void> {
  const apiKeys = resolveApiKeys({ flags: options.apiKey ?? [], env: io.env['PETSTORE_API_KEYS'], file: options.apiKeysFile });
  const output = openOutput(io, options);
  try {
    await serveUntilSignal(options, io, apiKeys, output.log, output.notice);
  } finally {
    output.close();
  }
}

async function serveUntilSignal(
  options: ServeOptions,
  io: CliIo,
  apiKeys: string[],
  log: ReturnType<typeof createRequestLogger>,
  notice: (text: string) => void,
): Promise<void> {
  const stop = stopRequests(notice);
  const { server, fromState } = await buildServer(options, apiKeys, log, notice, () => stop.ask('POST /__control/shutdown'));
  const memory = server.store instanceof PetStore ? server.store : undefined;
  const persistence =
    options.state && memory
      ? persistPeriodically(options.state, memory, options.stateInterval * 1000, (error) =>
          io.stderr.write(`petstore: cannot write ${options.state}: ${(error as Error).message}\n`),
        )
      : undefined;
  // Only pets read from the file are on disk already; a seed (or nothing) is written on
  // the first tick or at shutdown, so --state FILE always leaves FILE behind.
  if (fromState) persistence?.markWritten();
  let url: string;
  try {
    url = await server.listen(options.port, options.host);
  } catch (error) {
    await server.close();
    if (error instanceof StoreUnavailableError) throw new UsageError(`cannot read the shared store's settings: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${code ?? (error as Error).message}`);
  }
  stop.watch();
  notice(startupLines(options, { url, pets: await server.store.count(), fromState, apiKeys, clock: server.clock.now() }));
  await stop.asked;
  await server.close();
  await persistence?.stop();
  stop.unwatch();
  await reportFindings(options, io, server.findings.list(), notice);
}

/** The server `options` describe, with its pets: from the state file, the seed, or the shared store. */
async function buildServer(
  options: ServeOptions,
  apiKeys: string[],
  log: ReturnType<typeof createRequestLogger>,
  notice: (text: string) => void,
  onShutdown: () => void,
): Promise<{ server: PetstoreServer<Store>; fromState: boolean }> {
  const shared = options.store !== 'memory';
  if (shared && !isRedisUrl(options.store))
    throw new UsageError(`--store must be memory or a Redis URL such as redis://127.0.0.1:6379/0, not ${options.store}`);
  // The shared store keeps the pets itself; a file beside one instance would hold another copy.
  if (shared && options.state)
    throw new UsageError('--state keeps an in-memory store in a file; a shared store (--store redis://…) keeps its pets in Redis: give one or the other');
  try {
    // The state file, when there is one, holds every pet (seed included) in id order.
    const saved = options.state ? await readStateFile(options.state) : undefined;
    const seed = saved ?? (options.seed ? seedPets(await readSeedText(options.seed), options.seed, options.keepIds) : []);
    const serverOptions = {
      apiKeys,
      basePath: options.basePath,
      seed,
      ids: options.ids,
      ...(options.now ? { now: options.now } : {}),
      limits: { maxPets: options.maxPets, journalSize: options.journalSize },
      control: options.control,
      onShutdown,
      docs: options.docs,
      ...(log ? { log } : {}),
    };
    if (!shared) return { server: createServer(serverOptions), fromState: saved !== undefined };
    const store = await openRedisStore({
      url: options.store,
      prefix: options.storePrefix,
      ids: options.ids,
      maxPets: options.maxPets,
      seed,
      onNotice: (line) => notice(`${line}\n`),
    });
    return { server: createServer({ ...serverOptions, store }), fromState: false };
  } catch (error) {
    if (error instanceof SeedError || error instanceof StoreOpenError) throw new UsageError(error.message);
    throw error;
  }
}

/** What `petstore serve` says once it listens: where, with what, and how to try it. */
function startupLines(options: ServeOptions, started: { url: string; pets: number; fromState: boolean; apiKeys: readonly string[]; clock: number }): string {
  const { url, pets, fromState, apiKeys } = started;
  const origin = new URL(url).origin;
  const key = apiKeys.length === 0 ? DEVELOPMENT_API_KEY : '<API_KEY>';
  const source = fromState ? ` from ${options.state}` : options.seed ? ` from ${options.seed}` : '';
  return [
    `petstore: serving the Pet Store Service Interface v1.0.0 at ${url}`,
    `  pets: ${pets}${source}${options.state ? `; kept in ${options.state}` : ''}; ids: ${options.ids}; clock: ${new Date(started.clock).toISOString()}`,
    ...(options.store !== 'memory'
      ? [`  store: shared, in Redis at ${redactUrl(options.store)} (keys ${options.storePrefix}*); every instance given it serves the same pets`]
      : []),
    apiKeys.length === 0
      ? `  auth: Authorization: Bearer ${DEVELOPMENT_API_KEY}   (the development key; choose your own with --api-key, PETSTORE_API_KEYS or --api-keys-file)`
      : `  auth: Authorization: Bearer <API_KEY>   (${apiKeys.length} configured key${apiKeys.length === 1 ? '' : 's'})`,
    `  try:  curl -H 'Authorization: Bearer ${key}' ${url}/pets`,
    ...(options.docs ? [`  docs: ${origin}/docs   (read and try the API in a browser; the served contract at /docs/openapi.json)`] : []),
    ...(options.control ? [`  control API: ${origin}/__control (same key; see /__control/openapi.json)`] : []),
    ...(options.control ? ['  stop: Ctrl-C, or POST /__control/shutdown (same key)'] : ['  stop: Ctrl-C']),
    '',
  ].join('\n');
}
