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
  const { dispatcher, maxJudgedBytes } = options;
  const extra = Object.entries(options.headers).map(([name, value]) => [name.toLowerCase(), value] as const);
  const replaced = new Set(extra.map(([name]) => name));

  /** The answer's Location as the client must see it to stay behind the proxy; judged as the upstream gave it. */
  const relocated = (fields: (string | number)[], x: Exchange) => {
    const at = fields.indexOf('location');
    if (at !== -1 && at % 2 === 0 && x.req.headers.host) fields[at + 1] = clientLocation(String(fields[at + 1]), options.upstream, options.basePath, `http://${x.req.headers.host}`);
    return fields;
  };

  return function forward(x: Exchange, hooks: RelayHooks): void {
    const { answered } = hooks;
    const { req, res } = x;
    const target = upstreamTarget(req.url ?? '/', options.basePath, options.upstream);
    const requestHeaders = requestFields(req.rawHeaders, replaced, extra);
    const body = bodyOf(x);
    const abort = new AbortController();
    // Only a client gone before its answer ended cancels the upstream's: an abort builds an exception, too dear for every request.
    res.once('close', () => res.writableFinished || abort.abort());
    const started = performance.now();
    const base = { method: req.method ?? 'GET', target: req.url ?? '/', requestHeaders, requestBody: x.requestBody, outside: target.outside };
    dispatcher
      .request({ origin: options.upstream.origin, path: target.path, method: base.method as Dispatcher.HttpMethod, headers: requestHeaders, body, signal: abort.signal })
      .then(async (answer) => {
        const fields = responseFields(answer.headers);
        const read = await readUpTo(answer.body, maxJudgedBytes, Number(answer.headers['content-length'] ?? Number.NaN));
        x.upstreamMs = round(performance.now() - started);
        if (read.rest) {
          options.unjudged(x, answer.statusCode);
          return streamOn(x, answer.statusCode, relocated(fields, x), read, answered);
        }
        const passed: Passed = { ...base, status: answer.statusCode, responseHeaders: fields, responseBody: read.head, durationMs: x.upstreamMs };
        const error = options.judge(x, passed, hooks.refused);
        if (error) return answerError(x, error, answered);
        write(x, answer.statusCode, relocated(fields, x), read.head, answered);
      })
      .catch((error: unknown) => {
        if (res.destroyed || res.writableEnded) return;
        if (res.headersSent) return void res.destroy();
        x.upstreamMs = round(performance.now() - started);
        const failure = failureOf(error, options.upstream, options.through);
        options.unreachable(x, { ...base, durationMs: x.upstreamMs }, failure);
        answerError(x, failure, answered);
      });
  };
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
function requestFields(raw: readonly string[], replaced: ReadonlySet<string>, extra: readonly (readonly [string, string])[]): Record<string, string | string[]> {
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

interface Read {
  /** What was read, up to the limit (and the chunk that passed it). */
  readonly head: Buffer;
  /** The rest of the body, still unread, when it was longer than the limit. */
  readonly rest: AsyncIterator<Buffer> | undefined;
}

/** Reads `body` whole, unless it passes `limit`: then what was read, and the rest to stream. */
async function readUpTo(body: Dispatcher.ResponseData['body'], limit: number, declared: number): Promise<Read> {
  // Nearly every answer says its length, within the limit: read at once, without a chunk at a time.
  if (declared <= limit) return { head: Buffer.from(await body.arrayBuffer()), rest: undefined };
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { head: Buffer.concat(chunks, size), rest: undefined };
    chunks.push(next.value);
    size += next.value.length;
    if (size > limit) return { head: Buffer.concat(chunks, size), rest: iterator };
  }
}

function write(x: Exchange, status: number, fields: (string | number)[], body: Buffer, answered: RelayHooks['answered']): void {
  if (x.res.destroyed) return;
  if (x.findingCodes !== undefined) fields.push(FINDING_HEADER, x.findingCodes);
  x.res.writeHead(status, fields);
  x.res.end(body);
  answered(x, status, undefined, fields, body);
}

/** An answer too large to judge: its head, then the rest as it comes. */
function streamOn(x: Exchange, status: number, fields: (string | number)[], read: Read, answered: RelayHooks['answered']): void {
  if (x.findingCodes !== undefined) fields.push(FINDING_HEADER, x.findingCodes);
  const { res } = x;
  res.writeHead(status, fields);
  res.write(read.head);
  const rest = read.rest as AsyncIterator<Buffer>;
  Readable.from({ [Symbol.asyncIterator]: () => rest })
    .on('error', () => res.destroy())
    .on('end', () => answered(x, status, undefined, fields, read.head))
    .pipe(res);
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
    return { status: 502, code: 'bad_gateway', message: `${where} has a TLS certificate the proxy does not trust (${detail}): give its CA with --ca FILE, or --insecure` };
  }
  return { status: 502, code: 'bad_gateway', message: `${where} could not be reached or broke off its answer (${detail})` };
}

/** Node's codes for a certificate that does not verify. */
const TLS_TRUST = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME/;

const round = (ms: number) => Math.round(ms * 100) / 100;
