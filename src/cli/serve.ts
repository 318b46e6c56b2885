/**
 * `petstore serve`: the reference server as a stand-in backend.
 */
import { Command } from '@commander-js/extra-typings';
import { createServer } from '../server/index.js';
import { DEFAULT_BASE_PATH, DEFAULT_HOST, DEFAULT_PORT, DEVELOPMENT_API_KEY, defaultLimits } from '../server/decisions.js';
import { loadSeedFile, SeedError } from '../store/index.js';
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
    .option('--max-pets <n>', 'most pets held; creation beyond answers 507', parseInteger(0, 100_000_000), defaultLimits.maxPets)
    .action(async (options) => {
      const apiKeys = resolveApiKeys({ flags: options.apiKey ?? [], env: io.env['PETSTORE_API_KEYS'], file: options.apiKeysFile });
      let seed;
      try {
        seed = options.seed ? await loadSeedFile(options.seed) : [];
      } catch (error) {
        if (error instanceof SeedError) throw new UsageError(error.message);
        throw error;
      }
      const server = createServer({
        apiKeys,
        basePath: options.basePath,
        seed,
        ...(options.now ? { now: options.now } : {}),
        limits: { maxPets: options.maxPets },
      });
      let url: string;
      try {
        url = await server.listen(options.port, options.host);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${code ?? (error as Error).message}`);
      }
      const key = apiKeys.length === 0 ? DEVELOPMENT_API_KEY : '<API_KEY>';
      io.stdout.write(
        [
          `petstore: serving the Pet Store Service Interface v1.0.0 at ${url}`,
          `  pets: ${server.store.size}${options.seed ? ` from ${options.seed}` : ''}; clock: ${new Date(server.clock.now()).toISOString()}`,
          apiKeys.length === 0
            ? `  auth: Authorization: Bearer ${DEVELOPMENT_API_KEY}   (the development key; choose your own with --api-key, PETSTORE_API_KEYS or --api-keys-file)`
            : `  auth: Authorization: Bearer <API_KEY>   (${apiKeys.length} configured key${apiKeys.length === 1 ? '' : 's'})`,
          `  try:  curl -H 'Authorization: Bearer ${key}' ${url}/pets`,
          '  stop: Ctrl-C',
          '',
        ].join('\n'),
      );
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: NodeJS.Signals) => {
          if (stopping) process.exit(130); // a second signal: the user means it
          stopping = true;
          io.stdout.write(`petstore: ${signal}, finishing in-flight requests\n`);
          void server.close().then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
