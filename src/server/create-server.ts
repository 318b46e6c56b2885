/**
 * The reference server: a factory that wires spec, store and pipeline to a
 * node:http server, apart from listening, so tests and embedders choose the
 * port and own the lifecycle.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { operations as specOperations, type OperationDescriptor } from '../../spec/operations.js';
import type { NewPet } from '../../spec/types.js';
import { PetStore } from '../store/index.js';
import { createAuthenticator } from './auth.js';
import { createClock, type Clock } from './clock.js';
import { DEFAULT_BASE_PATH, DEVELOPMENT_API_KEY, defaultLimits, type Limits } from './decisions.js';
import { errorJson, statusOf, type ErrorCode } from './errors.js';
import { createRequestHandler } from './handler.js';
import { createOperationHandlers } from './operations.js';
import { createResponder, JSON_CONTENT_TYPE } from './respond.js';

export interface ServerOptions {
  /** Accepted API keys; with none, the development key only. */
  apiKeys?: readonly string[];
  /** The path prefix of the interface; `/v1` by default. */
  basePath?: string;
  /** Pets to start with, created in order (ids 1, 2, …). */
  seed?: readonly NewPet[];
  /** The server clock's starting instant; the real time by default. */
  now?: Date;
  limits?: Partial<Limits>;
  /** Where unexpected errors go; stderr by default. */
  onError?: (error: unknown) => void;
  /** The operations to serve; the spec's by default. */
  operations?: readonly OperationDescriptor[];
}

export interface PetstoreServer {
  readonly http: http.Server;
  readonly store: PetStore;
  readonly clock: Clock;
  readonly basePath: string;
  readonly apiKeys: readonly string[];
  /** Empties the store and creates the seed pets again. */
  reset(): void;
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

export function createServer(options: ServerOptions = {}): PetstoreServer {
  const limits: Limits = { ...defaultLimits, ...options.limits };
  const basePath = normaliseBasePath(options.basePath ?? DEFAULT_BASE_PATH);
  const apiKeys = options.apiKeys?.length ? [...options.apiKeys] : [DEVELOPMENT_API_KEY];
  const operations = options.operations ?? specOperations;
  const clock = createClock(options.now);
  const store = new PetStore({ maxPets: limits.maxPets });
  const seed = options.seed ?? [];
  const reset = () => {
    store.clear();
    for (const pet of seed) store.create(pet);
  };
  reset();

  const respond = createResponder(clock);
  const onError = options.onError ?? ((error: unknown) => console.error('petstore: unexpected error:', error));
  const handle = createRequestHandler({
    operations,
    handlers: createOperationHandlers({ store, limits, respond }),
    authenticate: createAuthenticator(apiKeys),
    basePath,
    clock,
    limits,
    respond,
    onError,
  });

  const server = http.createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    handle,
  );
  server.maxConnections = limits.maxConnections;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, clock));

  return {
    http: server,
    store,
    clock,
    basePath,
    apiKeys,
    reset,
    listen(port = 0, host = '127.0.0.1') {
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
    },
    close(graceMs = limits.shutdownGraceMs) {
      return new Promise((resolve) => {
        if (!server.listening) return resolve();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}

/**
 * Node's parser refuses some requests before they reach the handler (a
 * malformed request line, headers over the limit, a timeout). Its default
 * answer has no body; this one is an Error body like every other.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, clock: Clock): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [code, message]: [ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['header_too_large', 'the request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request_timeout', 'the request did not arrive in time']
        : error.code === 'HPE_URI_TOO_LONG'
          ? ['uri_too_long', 'the request target is too long']
          : ['bad_request', 'the request is not well-formed HTTP/1.1'];
  const body = errorJson(code, message);
  const status = statusOf(code);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
      `Date: ${clock.httpDate()}\r\n` +
      `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
