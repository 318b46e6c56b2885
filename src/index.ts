/**
 * petstore-harness as a library: the reference server for client test suites,
 * and (from `conformance/`) the suite for checking an implementation.
 */
import { createServer, type ServerOptions } from './server/index.js';

export { createServer, errorCatalog } from './server/index.js';
export type { ServerOptions, PetstoreServer, ErrorCode } from './server/index.js';
export { parseJson, stringifyJson } from '../spec/json/index.js';
export type { Pet, NewPet, PetStatus, ErrorBody } from '../spec/types.js';
export { openapi } from '../spec/openapi.js';

export interface StartedServer {
  /** The base URL, such as `http://127.0.0.1:54321/v1`. */
  readonly url: string;
  /** A key the server accepts. */
  readonly apiKey: string;
  /** Back to the seed: every pet created since start is forgotten. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * A real reference server on 127.0.0.1 and an ephemeral port, for a client's
 * own tests: `const api = await startServer(); … await api.close()`.
 */
export async function startServer(options: ServerOptions & { port?: number; host?: string } = {}): Promise<StartedServer> {
  const server = createServer(options);
  const url = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  return { url, apiKey: server.apiKeys[0] as string, reset: server.reset, close: () => server.close() };
}
