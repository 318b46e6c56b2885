/**
 * `petstore serve`: the reference server as a stand-in backend.
 */
import { Command, Option } from '@commander-js/extra-typings';
import { createServer, type PetstoreServer } from '../server/index.js';
import { DEFAULT_BASE_PATH, DEFAULT_HOST, DEFAULT_PORT, DEVELOPMENT_API_KEY, defaultLimits } from '../server/decisions.js';
import { createNoticeWriter, createRequestLogger } from '../server/log.js';
import { ID_MODES, persistPeriodically, readSeedText, readStateFile, SeedError, seedPets } from '../store/index.js';
import { resolveApiKeys } from './api-keys.js';
import { UsageError, type CliIo } from './io.js';
import { collect, parseInstant, parseInteger, parsePort } from './options.js';

export function serveCommand(io: CliIo) {
  return new Command('serve')
    .description('Start the reference server: the whole v1 interface, stateful and in memory')
    .option('-p, --port <port>', 'port to listen on; 0 picks a free one', parsePort, DEFAULT_PORT)
    .option('-H, --host <host>', 'address to listen on', DEFAULT_HOST)
    .option('-k, --api-key <key>', 'an accepted API key (repeatable); also PETSTORE_API_KEYS=k1,k2', collect)
    .option('--api-keys-file <file>', 'a file of accepted API keys, one per line (keeps keys out of `ps`)')
    .option('--base-path <path>', 'path prefix of the interface', DEFAULT_BASE_PATH)
    .option('--seed <file>', 'JSON array of NewPet objects to start with, e.g. fixtures/pets.json')
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
    .action(async (options) => {
      const apiKeys = resolveApiKeys({ flags: options.apiKey ?? [], env: io.env['PETSTORE_API_KEYS'], file: options.apiKeysFile });
      const log = createRequestLogger(options.quiet ? 'off' : options.log, (line) => io.stdout.write(line));
      // With --log json every line of stdout is JSON, notices included.
      const notice = createNoticeWriter(options.log, (text) => io.stdout.write(text));
      let server: PetstoreServer;
      let fromState = false;
      try {
        // The state file, when there is one, holds every pet (seed included) in id order.
        const saved = options.state ? await readStateFile(options.state) : undefined;
        fromState = saved !== undefined;
        const seed = saved ?? (options.seed ? seedPets(await readSeedText(options.seed), options.seed) : []);
        server = createServer({
          apiKeys,
          basePath: options.basePath,
          seed,
          ids: options.ids,
          ...(options.now ? { now: options.now } : {}),
          limits: { maxPets: options.maxPets, journalSize: options.journalSize },
          control: options.control,
          docs: options.docs,
          ...(log ? { onRequest: log } : {}),
        });
      } catch (error) {
        if (error instanceof SeedError) throw new UsageError(error.message);
        throw error;
      }
      const persistence = options.state
        ? persistPeriodically(options.state, server.store, options.stateInterval * 1000, (error) =>
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
        const code = (error as NodeJS.ErrnoException).code;
        throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${code ?? (error as Error).message}`);
      }
      const key = apiKeys.length === 0 ? DEVELOPMENT_API_KEY : '<API_KEY>';
      notice(
        [
          `petstore: serving the Pet Store Service Interface v1.0.0 at ${url}`,
          `  pets: ${server.store.size}${fromState ? ` from ${options.state}` : options.seed ? ` from ${options.seed}` : ''}${options.state ? `; kept in ${options.state}` : ''}; ids: ${options.ids}; clock: ${new Date(server.clock.now()).toISOString()}`,
          apiKeys.length === 0
            ? `  auth: Authorization: Bearer ${DEVELOPMENT_API_KEY}   (the development key; choose your own with --api-key, PETSTORE_API_KEYS or --api-keys-file)`
            : `  auth: Authorization: Bearer <API_KEY>   (${apiKeys.length} configured key${apiKeys.length === 1 ? '' : 's'})`,
          `  try:  curl -H 'Authorization: Bearer ${key}' ${url}/pets`,
          ...(options.docs ? [`  docs: ${new URL(url).origin}/docs   (read and try the API in a browser; the served contract at /docs/openapi.json)`] : []),
          ...(options.control ? [`  control API: ${new URL(url).origin}/__control (same key; see /__control/openapi.json)`] : []),
          '  stop: Ctrl-C',
          '',
        ].join('\n'),
      );
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: NodeJS.Signals) => {
          if (stopping) process.exit(130); // a second signal: the user means it
          stopping = true;
          notice(`petstore: ${signal}, finishing in-flight requests\n`);
          void server
            .close()
            .then(() => persistence?.stop())
            .then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
