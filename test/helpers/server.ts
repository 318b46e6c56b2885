/**
 * A reference server on 127.0.0.1 and an ephemeral port for one test, closed
 * when the test ends.
 */
import type { Test } from 'tap';
import { createServer, type PetstoreServer, type ServerOptions } from '../../src/server/index.js';
import { apiClient, type Api, type ApiResponse } from './api-client.js';

export interface TestServer {
  readonly server: PetstoreServer;
  /** The base URL, such as `http://127.0.0.1:54321/v1`. */
  readonly url: string;
  /** A key the server accepts. */
  readonly key: string;
  /** Requests below the base URL, authenticated with `key` unless told otherwise, checked by the spec guard. */
  readonly api: Api;
}

export async function startTestServer(t: Test, options: Omit<ServerOptions, 'store'> = {}): Promise<TestServer> {
  const server = createServer({ onError: (error) => t.fail(`the server reported an unexpected error: ${String(error)}`), ...options });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  const key = server.apiKeys[0] as string;
  return { server, url, key, api: apiClient(t, url, key) };
}

/** Creates pets one after another (so their ids follow the order given) and returns the 201 responses. */
export async function createPets(api: Api, pets: readonly object[]): Promise<ApiResponse[]> {
  const responses: ApiResponse[] = [];
  for (const pet of pets) responses.push(await api('/pets', { json: pet }));
  return responses;
}
