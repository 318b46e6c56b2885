/**
 * The suite's only way to reach a target: undici, with the safety rails a
 * shared staging environment needs. A bounded number of connections, an
 * optional request rate, a per-request timeout, a cap on response size,
 * redirects never followed (so the API key never travels to another origin),
 * and a write budget. Every exchange is handed to observers (the `responses`
 * family validates each one) and counted.
 */
import { type Dispatcher, errors as undiciErrors } from 'undici';
import type { JsonValue } from '../spec/json/index.js';
import { readBody, type RepeatedName } from './response-body.js';
import { sendRaw, type RawAnswer } from './raw.js';
import { createTransport, tlsConnectOptions, type TransportOptions } from './transport.js';

export interface WireRequest {
  readonly method: string;
  /** Path relative to the base URL, with its query: `/pets?limit=5`. */
  readonly path: string;
  /** A field sent more than once (RFC 9110 §5.3) has its values in order, one line each. */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  /** The exact bytes sent, as text. */
  readonly body?: string;
  /** The operation the request targets, for reporting and response validation. */
  readonly operationId: string;
  /**
   * The request is deliberately not the operation as the spec spells it (a
   * path with a trailing slash, another letter case, HEAD for GET): what such
   * a request gets is open, so only the check that sent it judges the answer.
   */
  readonly offSpec?: boolean;
  /** `path` is relative to the origin, not to the base URL (another version of the API, an administrative route). */
  readonly fromOrigin?: boolean;
  /** The exact bytes sent on a connection of their own (client.sendRaw), for what undici will not send: chunk extensions, a missing Host. */
  readonly raw?: string;
}

export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed losslessly (integers as bigint), or `undefined` when it is not JSON. */
  readonly json: JsonValue | undefined;
  readonly parseError?: string;
  readonly durationMs: number;
  /** The content codings undone to read the body (Content-Encoding: gzip…). */
  readonly coding?: string;
  /** Why the body does not decode as its Content-Encoding says (`text` and `json` are then read from the bytes as they came). */
  readonly undecodable?: string;
  /** A registered content coding this Node.js cannot undo: the body is left unjudged. */
  readonly unsupportedCoding?: string;
  /** The body starts with a byte order mark. */
  readonly bom?: true;
  /** Member names that repeat within one object of the JSON body, and whether with the same value. */
  readonly duplicateKeys?: readonly RepeatedName[];
}

export interface Exchange {
  readonly request: WireRequest;
  readonly response: WireResponse;
  /** The family whose check sent it. */
  readonly family: string;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  concurrency: number;
  /** Requests per second at most; 0 for no limit. */
  rate: number;
  maxWrites: number;
  maxResponseBytes: number;
  /** Methods that change state; counted against maxWrites. */
  writeMethods?: readonly string[];
  /** Fields sent on every request (a gateway's own key): a field the request sets itself keeps its value. */
  headers?: Readonly<Record<string, string>>;
  /** The proxy (from the environment) and TLS settings. */
  transport?: TransportOptions;
}

/** The target could not be talked to at all: reported with exit code 2. */
export class TargetUnreachableError extends Error {
  readonly code = 'target_unreachable';
}

/** A request that got no HTTP answer (timeout, reset, TLS, oversized body). */
export class TransportError extends Error {
  readonly code = 'transport_error';
  constructor(
    message: string,
    readonly request: WireRequest,
  ) {
    super(message);
  }
}

export class WriteBudgetExhausted extends Error {
  readonly code = 'write_budget_exhausted';
}

/**
 * A request the target still answered 429 after every retry: the seed leaves
 * rate limits open (§8), so the check that sent it cannot go on, and that is
 * no failure of the target's (a limit of a few requests a minute, such as
 * express-rate-limit's default, is the target's choice).
 */
export class RateLimited extends Error {
  readonly code = 'rate_limited';
}

function stillRateLimited(request: WireRequest): RateLimited {
  return new RateLimited(
    `${request.method} ${request.path} was answered 429 Too Many Requests ${MAX_RATE_LIMIT_RETRIES + 1} times in a row (seed §8: rate limits are not shown); lower --rate or --concurrency`,
  );
}

export type Observer = (exchange: Exchange) => void;

export interface Client {
  readonly baseUrl: string;
  /** `Bearer <key>`: the credential the target must accept. */
  readonly authorization: string;
  /** The fields --header adds to every request, by lower-case name. */
  readonly extraHeaders: Readonly<Record<string, string>>;
  /** The proxy requests go through (credentials left out), when there is one. */
  readonly proxy?: string;
  send(family: string, request: WireRequest): Promise<WireResponse>;
  /** Sends `request.raw` as it is, on a new connection: `closed`, the server closed it after answering; `more`, it answered again. */
  sendRaw(family: string, request: WireRequest & { raw: string }): Promise<RawAnswer>;
  /** Writes left in the budget. */
  writesLeft(): number;
  observe(observer: Observer): void;
  stats(): { requests: number; writes: number; rateLimited: number };
  close(): Promise<void>;
}

export function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}

/** The path of a base URL without its trailing slashes ('' for the root): what the operations' paths follow. */
export function basePathOf(baseUrl: string): string {
  return joinUrl(new URL(baseUrl).pathname, '');
}

export function createClient(options: ClientOptions): Client {
  const origin = new URL(options.baseUrl);
  // Requests go to the agent with the origin and path apart, so no URL is parsed per request.
  const basePath = joinUrl(origin.pathname + origin.search, '');
  const { dispatcher: agent, proxy } = createTransport(
    origin,
    { connections: options.concurrency, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, connectTimeout: options.timeoutMs, pipelining: 1 },
    options.transport,
  );
  const extraHeaders = Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const rawTls = tlsConnectOptions(options.transport?.tls);
  const observers: Observer[] = [];
  const writeMethods = new Set(options.writeMethods ?? ['POST', 'PUT', 'PATCH', 'DELETE']);
  let requests = 0;
  let writes = 0;
  let rateLimited = 0;
  const { acquire, release } = createGate(options.concurrency, options.rate);

  /**
   * The seed leaves rate limits open (§8), so a correct target may answer 429
   * Too Many Requests: the request was not processed (RFC 6585 §4) and is sent
   * again after Retry-After (or a growing pause) and a random jitter, ten
   * times at most. Every 429 is still judged by the observers and counted
   * for the report.
   */
  function send(family: string, request: WireRequest): Promise<WireResponse> {
    return sentUntilServed(
      request,
      () => sendOnce(family, request),
      (response) => response,
    );
  }

  /**
   * Sends with `once` until the answer is not a 429, ten retries at most (see
   * send). A write counts once against the budget, however often a 429 makes
   * it be sent again.
   */
  async function sentUntilServed<T>(request: WireRequest, once: () => Promise<T>, responseOf: (answer: T) => WireResponse): Promise<T> {
    if (writeMethods.has(request.method)) {
      if (writes >= options.maxWrites) throw new WriteBudgetExhausted(`the write budget (--max-writes ${options.maxWrites}) is used up`);
      writes++;
    }
    for (let attempt = 0; ; attempt++) {
      const answer = await once();
      const response = responseOf(answer);
      if (response.status !== 429) return answer;
      if (attempt >= MAX_RATE_LIMIT_RETRIES) throw stillRateLimited(request);
      rateLimited++;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(response.headers['retry-after'], attempt) + jitterMs(attempt)));
    }
  }

  async function sendOnce(family: string, request: WireRequest): Promise<WireResponse> {
    await acquire();
    const started = performance.now();
    requests++;
    try {
      let answer: DispatchedAnswer;
      try {
        const headers = withExtraHeaders(request.headers, extraHeaders);
        answer = await roundTrip(
          agent,
          origin.origin,
          request.fromOrigin ? request.path : basePath + request.path,
          { ...request, headers },
          options.maxResponseBytes,
        );
      } catch (error) {
        if (error instanceof TooLarge) throw new TransportError(`the response body is larger than ${options.maxResponseBytes} bytes`, request);
        throw new TransportError(describeTransportError(error, options.timeoutMs), request);
      }
      const response: WireResponse = {
        status: answer.status,
        headers: answer.headers,
        ...readBody(answer.bytes, answer.headers['content-encoding'], options.maxResponseBytes),
        durationMs: performance.now() - started,
      };
      for (const observer of observers) observer({ request, response, family });
      return response;
    } finally {
      release();
    }
  }

  function sendRawRequest(family: string, request: WireRequest & { raw: string }): Promise<RawAnswer> {
    return sentUntilServed(
      request,
      () => sendRawOnce(family, request),
      (answer) => answer.response,
    );
  }

  async function sendRawOnce(family: string, request: WireRequest & { raw: string }): Promise<RawAnswer> {
    await acquire();
    requests++;
    try {
      const raw = withExtraHeaderLines(request.raw, extraHeaders);
      const answer = await sendRaw({ origin, timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes, tls: rawTls }, raw).catch(
        (error: Error) => {
          throw new TransportError(error.message, request);
        },
      );
      for (const observer of observers) observer({ request, response: answer.response, family });
      return answer;
    } finally {
      release();
    }
  }

  return {
    baseUrl: joinUrl(origin.href, ''),
    authorization: `Bearer ${options.apiKey}`,
    extraHeaders,
    ...(proxy ? { proxy } : {}),
    send,
    sendRaw: sendRawRequest,
    writesLeft: () => options.maxWrites - writes,
    observe: (observer) => void observers.push(observer),
    stats: () => ({ requests, writes, rateLimited }),
    close: () => agent.close(),
  };
}

/**
 * At most `concurrency` requests in flight, and (when `rate` is above 0) at
 * most `rate` started per second: the rest wait their turn in order.
 */
function createGate(concurrency: number, rate: number): { acquire(): Promise<void>; release(): void } {
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  let nextSlot = 0;
  return {
    async acquire() {
      if (inFlight >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight++;
      if (rate > 0) {
        const now = performance.now();
        const slot = Math.max(now, nextSlot);
        nextSlot = slot + 1000 / rate;
        if (slot > now) await new Promise((resolve) => setTimeout(resolve, slot - now));
      }
    },
    release() {
      inFlight--;
      waiting.shift()?.();
    },
  };
}

/**
 * One request and its whole answer, through undici's dispatcher with plain
 * callbacks: a body stream and its events per request would cost the suite
 * more than the judging does. Reading stops as soon as the body passes
 * maxResponseBytes (the rest is not read).
 */
function roundTrip(agent: Dispatcher, origin: string, path: string, request: WireRequest, maxResponseBytes: number): Promise<DispatchedAnswer> {
  return new Promise((resolve, reject) => {
    let status = 0;
    let headers: Record<string, string> = {};
    let chunks: Buffer[] = [];
    let size = 0;
    agent.dispatch(
      {
        origin,
        path,
        method: request.method,
        headers: request.headers as Record<string, string | string[]>,
        body: request.body ?? null,
      },
      {
        // undici tells a handler of this form from its older one by this method.
        onRequestStart() {},
        onResponseStart(_controller, statusCode, fields) {
          // Called again after a 1xx answer: only the final one counts.
          status = statusCode;
          headers = flattenHeaders(fields);
          chunks = [];
          size = 0;
        },
        onResponseData(controller, chunk) {
          size += chunk.length;
          if (size > maxResponseBytes) controller.abort(new TooLarge());
          else chunks.push(chunk);
        },
        onResponseEnd() {
          resolve({ status, headers, bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  });
}

/** The request's fields, and each --header field it does not set itself. */
export function withExtraHeaders(
  headers: WireRequest['headers'],
  extra: Readonly<Record<string, string>>,
): Readonly<Record<string, string | readonly string[]>> {
  const names = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const missing = Object.entries(extra).filter(([name]) => !names.has(name));
  return missing.length === 0 ? headers : { ...headers, ...Object.fromEntries(missing) };
}

/** A raw request with each --header field it lacks written after its request line. */
function withExtraHeaderLines(raw: string, extra: Readonly<Record<string, string>>): string {
  const end = raw.indexOf('\r\n');
  if (end === -1) return raw;
  const head = raw.slice(0, raw.indexOf('\r\n\r\n') === -1 ? raw.length : raw.indexOf('\r\n\r\n')).toLowerCase();
  const lines = Object.entries(extra)
    .filter(([name]) => !head.includes(`\r\n${name}:`))
    .map(([name, value]) => `${name}: ${value}\r\n`);
  return raw.slice(0, end + 2) + lines.join('') + raw.slice(end + 2);
}

const MAX_RATE_LIMIT_RETRIES = 10;

interface DispatchedAnswer {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

/** The reason a read stopped at maxResponseBytes. */
class TooLarge extends Error {}

/** Header fields by lower-case name; a repeated field's values joined by ", " (RFC 9110 §5.3). */
function flattenHeaders(fields: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Retry-After in seconds or as an HTTP-date (RFC 9110 §10.2.3), capped at 10 s; else 250 ms, doubling. */
function retryDelayMs(retryAfter: string | undefined, attempt: number): number {
  const fallback = 250 * 2 ** attempt;
  if (!retryAfter) return fallback;
  const seconds = /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : Date.parse(retryAfter) - Date.now();
  return Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), 10_000) : fallback;
}

/**
 * A random extra pause before a request is sent again, growing with each
 * attempt (up to 10 ms, then 20, 40…). Without it, a target that refuses
 * every Nth request while N clients are in step refuses the same request
 * every time: its answer triggers the retry, which arrives Nth again.
 */
function jitterMs(attempt: number): number {
  return Math.random() * 10 * 2 ** attempt;
}

function describeTransportError(error: unknown, timeoutMs: number): string {
  if (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  ) {
    return `no answer within ${timeoutMs} ms`;
  }
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e.code ?? e.cause?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was reset or closed before a complete answer';
    case 'ENOTFOUND':
      return 'the host name does not resolve';
    default:
      // A certificate the run cannot verify: an internal CA, a self-signed one, a name that does not match.
      if (typeof code === 'string' && /CERT|SELF_SIGNED|ISSUER|ALTNAME|VERIFY/.test(code))
        return `TLS error: ${code} (${e.message ?? e.cause?.message}); trust the target's CA with --ca FILE (or NODE_EXTRA_CA_CERTS=FILE), or skip verification with --insecure`;
      if (typeof code === 'string' && /TLS|SSL/.test(code)) return `TLS error: ${code} (${e.message ?? e.cause?.message})`;
      return `${code ?? 'transport error'}: ${e.message}`;
  }
}
