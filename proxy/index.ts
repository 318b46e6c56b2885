/**
 * `petstore proxy`: the reference server's pipeline in front of any
 * implementation of the interface. Each request is checked as the stand-in
 * checks it (client findings) and passed on; each answer is judged by the
 * suite's rules for one exchange (server findings) and passed back. Both
 * kinds of finding live in one ledger, read where the stand-in's are: the
 * control API, the log, the page, `--findings FILE`, findings().
 */
import { createPassiveJudge, createTransport, type ReadBody, type TlsOptions } from '../conformance/index.js';
import { parseJsonBytes, type JsonValue } from '../spec/json/index.js';
import { operations as specOperations, type OperationDescriptor } from '../spec/operations.js';
import {
  createServer,
  defaultLimits,
  inProcessControl,
  normaliseBasePath,
  type InProcessControl,
  type PetstoreServer,
  type ServedFront,
  type ServerOptions,
} from '../src/index.js';
import { createForwarder } from './forward.js';
import { createRecording, type Recording } from './recording.js';
import type { Passed, ProxyError } from './exchange.js';
import { createUpstreamRefusals } from './upstream-refusals.js';
import { createVerdicts } from './verdict.js';

export interface ProxyOptions extends Omit<ServerOptions, 'relay' | 'store' | 'seed' | 'ids' | 'findings'> {
  /** The upstream's base URL: where the interface lives there (`https://staging.example/v1`). */
  readonly upstream: string | URL;
  /** Answer what the stand-in would refuse (400, 401…) as it would, without passing it on (`--refuse-invalid`). */
  readonly refuseInvalid?: boolean;
  /** Answer 502 with an Error body instead of an answer that breaks a rule (`--errors`, as Prism's proxy). */
  readonly errors?: boolean;
  /** Fields added to every request passed on (`--header`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** How the upstream is reached: an extra CA, a client certificate, no verification. */
  readonly tls?: TlsOptions;
  /** The environment the forward proxy is read from (http_proxy, https_proxy, no_proxy); process.env by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How long the upstream may take to answer (ms): 504 after it. 30 s by default. */
  readonly timeoutMs?: number;
  /** Answers larger than this are passed on unjudged (bytes). 8 MiB by default. */
  readonly maxJudgedBytes?: number;
  /** Keep every pet the upstream serves (`--record`): see recorded(). */
  readonly record?: boolean;
}

export interface PetstoreProxy extends PetstoreServer {
  readonly upstream: URL;
  /** The pets the upstream served, when `record` is on. */
  readonly recording: Recording | undefined;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_JUDGED_BYTES = 8 * 1024 * 1024;

/** The proxy, not yet listening: listen() and close() as the server's. */
export function createProxy(options: ProxyOptions): PetstoreProxy {
  const upstream = upstreamUrl(options.upstream);
  const operations: readonly OperationDescriptor[] = options.operations ?? specOperations;
  const basePath = normaliseBasePath(options.basePath ?? upstream.pathname);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport = createTransport(
    upstream,
    { headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connectTimeout: Math.min(timeoutMs, 10_000), keepAliveTimeout: 4_000 },
    { ...(options.tls ? { tls: options.tls } : {}), ...(options.env ? { env: options.env } : {}) },
  );
  const onError = options.onError ?? ((error: unknown) => console.error('petstore proxy: unexpected error while judging an answer:', error));
  const recording = options.record ? createRecording(options.limits?.maxPets ?? defaultLimits.maxPets) : undefined;
  // The relay needs the server's ledger, which exists once the server does.
  let forward: ReturnType<typeof createForwarder> | undefined;
  const server = createServer({
    ...options,
    basePath,
    operations,
    relay: { refuseInvalid: options.refuseInvalid === true, forward: (x, hooks) => forward?.(x, hooks), front: PROXY_FRONT },
  });
  const verdicts = createVerdicts({
    ledger: server.findings,
    judge: createPassiveJudge({ operations, basePath: normaliseBasePath(upstream.pathname) }),
    operations,
    basePath,
    errors: options.errors === true,
  });
  const refusals = createUpstreamRefusals();
  forward = createForwarder({
    upstream,
    basePath,
    dispatcher: transport.dispatcher,
    through: transport.proxy,
    headers: options.headers ?? {},
    maxJudgedBytes: options.maxJudgedBytes ?? DEFAULT_MAX_JUDGED_BYTES,
    stalledMs: timeoutMs,
    judge(x, passed, refused) {
      // A failure of the proxy's own judging is the proxy's bug, never the upstream's: the answer passes on unjudged.
      try {
        // One parse of an answer serves the judge, the ids the refusals remember and the recording.
        const exchange = passed.outside ? undefined : verdicts.passedExchange(passed);
        const served = x.operation ? servedJson(passed, exchange?.read) : undefined;
        if (recording && served !== undefined) recording.hear(served);
        refusals.hear(x, passed, served, refused);
        return verdicts.judge(x, passed, exchange);
      } catch (error) {
        onError(error);
        return undefined;
      }
    },
    unreachable: verdicts.unreachable,
    unjudged: verdicts.unjudged,
  });
  return {
    ...server,
    upstream,
    recording,
    async close(graceMs) {
      await server.close(graceMs);
      await transport.dispatcher.close();
    },
  };
}

export interface StartProxyOptions extends ProxyOptions {
  port?: number;
  host?: string;
}

export interface StartedProxy extends InProcessControl {
  /** The proxy's base URL, such as `http://127.0.0.1:54321/v1`: point the client here. */
  readonly url: string;
  readonly upstream: string;
  /** Writes the pets the upstream served as a state file (with `record: true`). */
  writeRecording(path: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A proxy on 127.0.0.1 and an ephemeral port in front of `upstream`, for a
 * client's own tests against a real backend: point the client at `url`,
 * and `assertNoFindings()` after each test fails it on what either side got
 * wrong.
 */
export async function startProxy(options: StartProxyOptions): Promise<StartedProxy> {
  const proxy = createProxy(options);
  try {
    const url = await proxy.listen(options.port ?? 0, options.host ?? '127.0.0.1');
    return {
      url,
      upstream: proxy.upstream.href,
      ...inProcessControl(proxy),
      async writeRecording(path) {
        if (!proxy.recording) throw new Error('the proxy records nothing: start it with record: true');
        await proxy.recording.write(path);
      },
      close: () => proxy.close(),
    };
  } catch (error) {
    await proxy.close();
    throw error;
  }
}

function upstreamUrl(upstream: string | URL): URL {
  const url = new URL(upstream);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the upstream must be an http: or https: URL, not ${url.href}`);
  return url;
}

/** Each Error the proxy answers with itself, by code: a code added to ProxyError and not here fails to compile. */
const OWN_ERRORS: Record<ProxyError['code'], { readonly status: ProxyError['status']; readonly meaning: string }> = {
  bad_gateway: { status: 502, meaning: 'The upstream could not be reached, or broke off its answer.' },
  nonconforming_upstream: { status: 502, meaning: "With --errors: the upstream's answer broke the interface; the message names the rule." },
  gateway_timeout: { status: 504, meaning: 'The upstream did not answer within --timeout.' },
};

/** The served contract's account of the proxy: whose answers these are, and the Errors the proxy gives itself. */
const PROXY_FRONT: ServedFront = {
  name: 'petstore proxy',
  note:
    "This server is `petstore proxy`: its answers are the upstream's, passed on unchanged, and the interface's document says what a conforming upstream may answer. " +
    "The statuses, Error codes and headers marked `x-petstore-decision` are the reference server's: the proxy answers with them only what it refuses itself (with `--refuse-invalid`), and an upstream may decide otherwise where the interface leaves it open. " +
    "Those marked `petstore proxy` are the proxy's own: when the upstream cannot be reached or does not answer in time, and, with `--errors`, in place of an answer that breaks the interface.",
  answers: Object.entries(OWN_ERRORS).map(([code, { status, meaning }]) => ({ status, code, meaning })),
};

/** How deeply a served answer's JSON may nest and still be heard: deeper ones are neither recorded nor remembered. */
const SERVED_DEPTH = 8;

/** The JSON of a 2xx answer to the interface (a Pet or a page of them); undefined otherwise. */
function servedJson(passed: Passed, read: ReadBody | undefined): JsonValue | undefined {
  if (passed.outside || passed.status < 200 || passed.status > 299) return undefined;
  // The judge parsed the same bytes with the same parser, only deeper nesting allowed, unless it undid a content coding.
  if (read !== undefined && read.coding === undefined)
    return read.json !== undefined && nestedWithin(passed.responseBody, SERVED_DEPTH) ? read.json : undefined;
  const parsed = parseJsonBytes(passed.responseBody, { maxDepth: SERVED_DEPTH, maxMembers: 1_000_000 });
  return parsed.ok ? parsed.value : undefined;
}

/**
 * Whether `bytes`, JSON the parser accepted, nests no more than `levels` arrays and objects deep, as the parser's
 * maxDepth counts them. Read off the bytes, as walking the parsed value's prototype-less objects cost twice as much.
 */
function nestedWithin(bytes: Buffer, levels: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > levels) return false;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return true;
}

const [QUOTE, BACKSLASH, OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x22, 0x5c, 0x5b, 0x5d, 0x7b, 0x7d];
