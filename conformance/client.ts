/**
 * The suite's only way to reach a target: undici, with the safety rails a
 * shared staging environment needs. A bounded number of connections, an
 * optional request rate, a per-request timeout, a cap on response size,
 * redirects never followed (so the API key never travels to another origin),
 * and a write budget. Every exchange is handed to observers (the `responses`
 * family validates each one) and counted.
 */
import type { Dispatcher } from 'undici';
import type { JsonValue } from '../spec/json/index.js';
import { readBody, type RepeatedName } from './response-body.js';
import { sendRaw, type RawAnswer } from './raw.js';
import { type DispatchedAnswer, describeTransportError, roundTrip, TooLarge } from './round-trip.js';
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

/** A request written by hand (client.sendRaw), with the well-formed request that follows it on the same connection. */
export type RawRequest = WireRequest & {
  readonly raw: string;
  /** Sent once the answer is in, if the connection is still open: what it gets shows whether the server read the first request whole. */
  readonly followUp?: WireRequest & { readonly raw: string };
};

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
  /**
   * Sends `request.raw` as it is, on a new connection: `closed`, the server closed it after answering; `more`, it answered
   * again; `followUp`, what `request.followUp` then got on the same connection (observed as an exchange of its own).
   */
  sendRaw(family: string, request: RawRequest): Promise<RawAnswer>;
  /** Writes left in the budget. */
  writesLeft(): number;
  observe(observer: Observer): void;
  stats(): { requests: number; writes: number; rateLimited: number };
  close(): Promise<void>;
}

/** A field of the request by its name in any case (RFC 9110 §5.1), repeated ones joined by commas; undefined when absent. A loop over names, not entries and arrays: the proxy's judge asks for two fields of every exchange it passes on. */
export function fieldOf(request: Pick<WireRequest, 'headers'>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  let joined: string | undefined;
  for (const field of Object.keys(request.headers)) {
    if (field !== wanted && field.toLowerCase() !== wanted) continue;
    for (const one of [request.headers[field]].flat() as unknown[]) {
      const text = one === undefined || one === null ? '' : String(one); // as Array.prototype.join writes it
      joined = joined === undefined ? text : `${joined}, ${text}`;
    }
  }
  return joined;
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
  const state: ClientState = {
    options,
    origin,
    basePath,
    agent,
    extraHeaders,
    rawTls: tlsConnectOptions(options.transport?.tls),
    observers: [],
    writeMethods: new Set(options.writeMethods ?? ['POST', 'PUT', 'PATCH', 'DELETE']),
    counts: { requests: 0, writes: 0, rateLimited: 0 },
    gate: createGate(options.concurrency, options.rate),
  };
  const { counts, observers } = state;

  return {
    baseUrl: joinUrl(origin.href, ''),
    authorization: `Bearer ${options.apiKey}`,
    extraHeaders,
    ...(proxy ? { proxy } : {}),
    send: (family, request) => send(state, family, request),
    sendRaw: (family, request) => sendRawRequest(state, family, request),
    writesLeft: () => options.maxWrites - counts.writes,
    observe: (observer) => void observers.push(observer),
    stats: () => ({ requests: counts.requests, writes: counts.writes, rateLimited: counts.rateLimited }),
    close: () => agent.close(),
  };
}

/** What every request of one client shares: where and how it is sent, who observes it, and the counts so far. */
interface ClientState {
  readonly options: ClientOptions;
  readonly origin: URL;
  /** The base URL's path and query, which every request's path follows. */
  readonly basePath: string;
  readonly agent: Dispatcher;
  /** The --header fields, by lower-case name. */
  readonly extraHeaders: Readonly<Record<string, string>>;
  /** The TLS settings of the connections client.sendRaw opens. */
  readonly rawTls: ReturnType<typeof tlsConnectOptions>;
  readonly observers: Observer[];
  readonly writeMethods: ReadonlySet<string>;
  readonly counts: { requests: number; writes: number; rateLimited: number };
  readonly gate: Gate;
}

/**
 * The seed leaves rate limits open (§8), so a correct target may answer 429
 * Too Many Requests: the request was not processed (RFC 6585 §4) and is sent
 * again after Retry-After (or a growing pause) and a random jitter, ten
 * times at most. Every 429 is still judged by the observers and counted
 * for the report.
 */
function send(state: ClientState, family: string, request: WireRequest): Promise<WireResponse> {
  return sentUntilServed(
    state,
    request,
    () => sendOnce(state, family, request),
    (response) => response,
  );
}

/**
 * Sends with `once` until the answer is not a 429, ten retries at most (see
 * send). A write counts once against the budget, however often a 429 makes
 * it be sent again.
 */
async function sentUntilServed<T>(state: ClientState, request: WireRequest, once: () => Promise<T>, responseOf: (answer: T) => WireResponse): Promise<T> {
  const { options, counts } = state;
  if (state.writeMethods.has(request.method)) {
    if (counts.writes >= options.maxWrites) throw new WriteBudgetExhausted(`the write budget (--max-writes ${options.maxWrites}) is used up`);
    counts.writes++;
  }
  for (let attempt = 0; ; attempt++) {
    const answer = await once();
    const response = responseOf(answer);
    if (response.status !== 429) return answer;
    if (attempt >= MAX_RATE_LIMIT_RETRIES) throw stillRateLimited(request);
    counts.rateLimited++;
    await new Promise((resolve) => setTimeout(resolve, retryDelayMs(response.headers['retry-after'], attempt) + jitterMs(attempt)));
  }
}

async function sendOnce(state: ClientState, family: string, request: WireRequest): Promise<WireResponse> {
  const { options } = state;
  await state.gate.acquire();
  const started = performance.now();
  state.counts.requests++;
  try {
    let answer: DispatchedAnswer;
    try {
      const headers = withExtraHeaders(request.headers, state.extraHeaders);
      answer = await roundTrip(
        state.agent,
        state.origin.origin,
        request.fromOrigin ? request.path : state.basePath + request.path,
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
    for (const observer of state.observers) observer({ request, response, family });
    return response;
  } finally {
    state.gate.release();
  }
}

function sendRawRequest(state: ClientState, family: string, request: RawRequest): Promise<RawAnswer> {
  return sentUntilServed(
    state,
    request,
    () => sendRawOnce(state, family, request),
    (answer) => answer.response,
  );
}

async function sendRawOnce(state: ClientState, family: string, request: RawRequest): Promise<RawAnswer> {
  const { options } = state;
  const { followUp } = request;
  await state.gate.acquire();
  state.counts.requests++;
  try {
    const answer = await sendRaw(
      { origin: state.origin, timeoutMs: options.timeoutMs, maxResponseBytes: options.maxResponseBytes, tls: state.rawTls },
      withExtraHeaderLines(request.raw, state.extraHeaders),
      followUp && withExtraHeaderLines(followUp.raw, state.extraHeaders),
    ).catch((error: Error) => {
      throw new TransportError(error.message, request);
    });
    for (const observer of state.observers) observer({ request, response: answer.response, family });
    // A follow-up the server closed the connection on was never served: only one it answered, or left waiting, counts.
    if (followUp && answer.followUp && !answer.followUp.closed) state.counts.requests++;
    const followed = answer.followUp?.response;
    if (followUp && followed) for (const observer of state.observers) observer({ request: followUp, response: followed, family });
    return answer;
  } finally {
    state.gate.release();
  }
}

/** Requests in flight and started per second, bounded (createGate). */
interface Gate {
  acquire(): Promise<void>;
  release(): void;
}

/**
 * At most `concurrency` requests in flight, and (when `rate` is above 0) at
 * most `rate` started per second: the rest wait their turn in order.
 */
function createGate(concurrency: number, rate: number): Gate {
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
