/**
 * Passing a request on to the upstream and its answer back (the relay of
 * src/server/relay.ts). The request goes as the client sent it, less the
 * fields of one connection (RFC 9110 §7.6.1), with a Via field (§7.6.3);
 * its body streams through, never held beyond what the pipeline read. The
 * answer is read up to a limit and judged before it is written, so that
 * its findings are in its Petstore-Finding field and `--errors` can answer
 * 502 instead; a larger answer is written as it comes, unjudged.
 */
import { performance } from 'node:perf_hooks';
import { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { Exchange } from '../src/index.js';
import { FINDING_HEADER, type RelayHooks } from '../src/index.js';
import { clientLocation, upstreamTarget } from './upstream-target.js';
import type { Passed, ProxyError } from './exchange.js';

export interface ForwardOptions {
  /** The upstream's base URL, its path the interface's base path there (`https://staging.example/v1`). */
  readonly upstream: URL;
  /** The interface's base path at the proxy. */
  readonly basePath: string;
  readonly dispatcher: Dispatcher;
  /** The forward proxy the upstream is reached through, credentials left out, if any: named when the upstream cannot be reached. */
  readonly through?: string | undefined;
  /** Fields added to every request passed on (`--header`), after the client's own of the same name are dropped. */
  readonly headers: Readonly<Record<string, string>>;
  /** An answer larger than this is passed on as it comes, unjudged. */
  readonly maxJudgedBytes: number;
  /** How long a client may leave a streamed answer unread before its connection, and the upstream's request, are dropped. */
  readonly stalledMs: number;
  /**
   * Judges a whole answer; returns the Error body to answer instead
   * (`--errors`), or undefined to pass the answer on as it came.
   */
  readonly judge: (x: Exchange, passed: Passed, refused: RelayHooks['refused']) => ProxyError | undefined;
  /** Hears of a failure to reach the upstream, already answered with `error`. */
  readonly unreachable: (x: Exchange, passed: Omit<Passed, 'status' | 'responseHeaders' | 'responseBody'>, error: ProxyError) => void;
  /** Hears of an answer too large to judge, passed on unjudged. */
  readonly unjudged: (x: Exchange, status: number) => void;
}

/** RFC 9110 §7.6.1: fields of one connection, never passed on; `expect` is answered by the proxy's own HTTP stack. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'transfer-encoding', 'upgrade', 'trailer', 'host', 'expect']);
const VIA = '1.1 petstore-proxy';

export function createForwarder(options: ForwardOptions) {
  const { dispatcher } = options;
  const extra = Object.entries(options.headers).map(([name, value]) => [name.toLowerCase(), value] as const);
  const replaced = new Set(extra.map(([name]) => name));

  /** The answer's Location as the client must see it to stay behind the proxy; judged as the upstream gave it. */
  const relocated = (fields: (string | number)[], x: Exchange) => {
    const at = fields.indexOf('location');
    if (at !== -1 && at % 2 === 0 && x.req.headers.host)
      fields[at + 1] = clientLocation(String(fields[at + 1]), options.upstream, options.basePath, `http://${x.req.headers.host}`);
    return fields;
  };

  const passing: PassingOptions = { ...options, relocated };
  return function forward(x: Exchange, hooks: RelayHooks): void {
    const { req } = x;
    const target = upstreamTarget(req.url ?? '/', options.basePath, options.upstream);
    const requestHeaders = requestFields(req.rawHeaders, replaced, extra);
    const body = bodyOf(x);
    const base = { method: req.method ?? 'GET', target: req.url ?? '/', requestHeaders, requestBody: x.requestBody, outside: target.outside };
    const handler = new Passing(passing, x, hooks, base, body);
    dispatcher.dispatch(
      { origin: options.upstream.origin, path: target.path, method: base.method as Dispatcher.HttpMethod, headers: requestHeaders, body },
      handler,
    );
    handler.dispatched = true;
  };
}

interface PassingOptions extends ForwardOptions {
  readonly relocated: (fields: (string | number)[], x: Exchange) => (string | number)[];
}

type PassedRequest = Omit<Passed, 'status' | 'responseHeaders' | 'responseBody' | 'durationMs'>;

/**
 * One request passed on and its answer passed back, as undici's handler: the answer comes as chunks, without the
 * stream, promise and abort signal per request of undici's request(), which cost more than the rest of the relay.
 */
class Passing implements Dispatcher.DispatchHandler {
  /** Set once dispatch() returned: a failure reported before it is answered later, as request()'s promise did. */
  dispatched = false;
  private controller: Dispatcher.DispatchController | undefined;
  /** The client went away before its answer ended: the upstream's is cancelled, and nothing more is written. */
  private abandoned = false;
  private readonly started = performance.now();
  private status = 0;
  private fields: (string | number)[] = [];
  private chunks: Buffer[] = [];
  private size = 0;
  /** The answer passed the judging limit: it is being written as it comes. */
  private streaming = false;
  /** While the upstream is paused for a client that is not reading: when to give up on that client. */
  private stalled: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: PassingOptions,
    private readonly x: Exchange,
    private readonly hooks: RelayHooks,
    private readonly base: PassedRequest,
    private readonly body: Buffer | Readable | undefined,
  ) {
    // Only a client gone before its answer ended cancels the upstream's: an abort builds an exception, too dear for every request.
    x.res.once('close', () => {
      clearTimeout(this.stalled);
      if (x.res.writableFinished) return;
      this.abandoned = true;
      this.controller?.abort(new Error('the client closed its connection before its answer ended'));
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abandoned) controller.abort(new Error('the client closed its connection before its answer ended'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, status: number, headers: Dispatcher.ResponseData['headers']): void {
    // An interim answer (103 Early Hints) is not passed on: the final one follows.
    if (status < 200) return;
    this.status = status;
    this.fields = responseFields(headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.streaming) return this.writeOn(controller, chunk);
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size <= this.options.maxJudgedBytes) return;
    // Too large to judge: what was read, then the rest as it comes.
    this.streaming = true;
    this.chunks = [this.head()];
    const { x } = this;
    x.upstreamMs = round(performance.now() - this.started);
    this.guarded(() => {
      this.options.unjudged(x, this.status);
      x.res.writeHead(this.status, closing(x, this.options.relocated(this.fields, x)));
      this.writeOn(controller, this.head());
    });
  }

  onResponseEnd(): void {
    const { x, status } = this;
    if (this.streaming) {
      return this.guarded(() => {
        this.hooks.answered(x, status, undefined, this.fields, this.head());
        x.res.end();
      });
    }
    x.upstreamMs = round(performance.now() - this.started);
    this.guarded(() => {
      const responseBody = this.head();
      const passed: Passed = { ...this.base, status, responseHeaders: this.fields, responseBody, durationMs: x.upstreamMs as number };
      const error = this.options.judge(x, passed, this.hooks.refused);
      if (error) return answerError(x, error, this.hooks.answered);
      write(x, status, this.options.relocated(this.fields, x), responseBody, this.hooks.answered);
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    // A 304 may carry the Content-Length its 200 would have (RFC 9110 §8.6) and never a body; undici counts the
    // missing bytes as a broken answer. It is whole.
    if (this.status === 304 && this.size === 0 && (error as { code?: string }).code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return this.onResponseEnd();
    dropBody(this.body, error);
    if (this.dispatched) this.fail(error);
    else queueMicrotask(() => this.fail(error));
  }

  /** What was read of the answer, in one buffer. */
  private head(): Buffer {
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
  }

  /** Writes a chunk of an answer too large to judge, the upstream paused while the client catches up. */
  private writeOn(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const { res } = this.x;
    if (res.destroyed || res.writableEnded || res.write(chunk)) return;
    controller.pause();
    // The upstream's body timeout does not run while paused: a client that stops reading would hold its request for good.
    this.stalled = setTimeout(() => {
      controller.abort(new Error(`the client read none of its answer for ${this.options.stalledMs} ms`));
      res.destroy();
    }, this.options.stalledMs);
    res.once('drain', () => {
      clearTimeout(this.stalled);
      controller.resume();
    });
  }

  /** Runs a step that writes the answer; its failure is answered as a failure to get one. */
  private guarded(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    const { x } = this;
    const { res } = x;
    if (res.destroyed || res.writableEnded) return;
    this.controller?.abort(error instanceof Error ? error : new Error(String(error)));
    if (res.headersSent) return void res.destroy();
    x.upstreamMs = round(performance.now() - this.started);
    const failure = failureOf(error, this.options.upstream, this.options.through);
    this.options.unreachable(x, { ...this.base, durationMs: x.upstreamMs }, failure);
    answerError(x, failure, this.hooks.answered);
  }
}

/** The request's body, when a stream, is let go once the upstream failed, its client's connection kept (as undici's request() does). */
function dropBody(body: Buffer | Readable | undefined, error: Error): void {
  if (!(body instanceof Readable) || body.destroyed) return;
  body.on('error', () => {});
  if (Object.getPrototypeOf(body) === IncomingMessage.prototype) (body as unknown as { socket: null }).socket = null;
  body.destroy(error);
}

/** The request's body as the upstream gets it: what the pipeline read, then whatever it left in the request. */
function bodyOf(x: Exchange): Buffer | Readable | undefined {
  const { req } = x;
  // A chunked body stays chunked (a stream), so the upstream reads the framing the client chose.
  if (x.requestBody !== undefined && !x.bodyCut) return req.headers['transfer-encoding'] === undefined ? x.requestBody : Readable.from([x.requestBody]);
  if (x.requestBody !== undefined) {
    const head = x.requestBody;
    return Readable.from(
      (async function* () {
        yield head;
        yield* req;
      })(),
    );
  }
  const framed = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  return framed ? req : undefined;
}

/** The client's fields, less those of its connection and those `--header` replaces, with Via. */
function requestFields(
  raw: readonly string[],
  replaced: ReadonlySet<string>,
  extra: readonly (readonly [string, string])[],
): Record<string, string | string[]> {
  const named = connectionOptions(raw);
  const fields: Record<string, string | string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name) || replaced.has(name)) continue;
    const value = raw[i + 1] as string;
    const had = fields[name];
    fields[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  for (const [name, value] of extra) fields[name] = value;
  const via = fields['via'];
  fields['via'] = via === undefined ? VIA : `${Array.isArray(via) ? via.join(', ') : via}, ${VIA}`;
  return fields;
}

/** The field names a Connection field lists: they too are of that connection only (RFC 9110 §7.6.1). */
function connectionOptions(raw: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() !== 'connection') continue;
    for (const option of (raw[i + 1] as string).split(',')) named.add(option.trim().toLowerCase());
  }
  return named;
}

/** The upstream's fields as a header list for writeHead, less those of its connection, with Via. */
function responseFields(headers: Dispatcher.ResponseData['headers']): (string | number)[] {
  const connection = headers['connection'];
  const named = new Set(
    (Array.isArray(connection) ? connection.join(',') : (connection ?? ''))
      .split(',')
      .map((option) => option.trim().toLowerCase())
      .filter(Boolean),
  );
  const list: (string | number)[] = [];
  let via: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || name === FINDING_HEADER) continue;
    if (name === 'via') {
      via = Array.isArray(value) ? value.join(', ') : value;
      continue;
    }
    for (const one of Array.isArray(value) ? value : [value]) list.push(name, one);
  }
  list.push('via', via === undefined ? VIA : `${via}, ${VIA}`);
  return list;
}

function write(x: Exchange, status: number, fields: (string | number)[], body: Buffer, answered: RelayHooks['answered']): void {
  if (x.res.destroyed) return;
  x.res.writeHead(status, closing(x, fields));
  x.res.end(body);
  answered(x, status, undefined, fields, body);
}

/**
 * An answer's fields with the request's findings named, and `Connection: close` when the answer comes before the
 * request's body has all arrived (an upstream's early 413, say): the rest is never read, so the connection cannot
 * carry another request (RFC 9112 §9.6), and the client learns so rather than waiting on it.
 */
function closing(x: Exchange, fields: (string | number)[]): (string | number)[] {
  if (x.findingCodes !== undefined) fields.push(FINDING_HEADER, x.findingCodes);
  if (!x.req.complete) fields.push('connection', 'close');
  return fields;
}

function answerError(x: Exchange, error: ProxyError, answered: RelayHooks['answered']): void {
  const body = Buffer.from(JSON.stringify({ code: error.code, message: error.message, status: error.status }));
  const fields: (string | number)[] = ['content-type', 'application/json', 'content-length', body.length, 'via', VIA];
  write(x, error.status, fields, body, answered);
}

/** What a failure to get an answer from the upstream is answered with: 504 when it did not answer in time, 502 otherwise, saying what to do where it can. */
function failureOf(error: unknown, upstream: URL, through: string | undefined): ProxyError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code ?? '';
  const detail = code || (error instanceof Error ? error.message : String(error));
  const where = `the upstream ${upstream.origin}${through ? ` (through the proxy ${through})` : ''}`;
  if (/TIMEOUT/i.test(code)) return { status: 504, code: 'gateway_timeout', message: `${where} did not answer in time (${detail})` };
  if (TLS_TRUST.test(code)) {
    return {
      status: 502,
      code: 'bad_gateway',
      message: `${where} has a TLS certificate the proxy does not trust (${detail}): give its CA with --ca FILE, or --insecure`,
    };
  }
  return { status: 502, code: 'bad_gateway', message: `${where} could not be reached or broke off its answer (${detail})` };
}

/** Node's codes for a certificate that does not verify. */
const TLS_TRUST = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME/;

const round = (ms: number) => Math.round(ms * 100) / 100;
