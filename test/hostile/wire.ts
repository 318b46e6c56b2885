/**
 * HTTP/1.1 on a raw socket for the hostile-input tests: send any bytes, and
 * read back the server's answers with a strict parser, so that "a well-formed
 * HTTP response" is checked byte for byte rather than trusted to a client
 * library that would forgive a missing length or a stray byte.
 */
import net from 'node:net';
import { errorCatalog } from '../../src/server/index.js';

export interface WireResponse {
  readonly status: number;
  /** Lower-cased names; a repeated field keeps every value. */
  readonly headers: Record<string, string[]>;
  readonly body: Buffer;
}

export interface Exchange {
  /** Everything the server sent. */
  readonly data: Buffer;
  /** Whether the server closed the connection before `timeoutMs`. */
  readonly closed: boolean;
  /** A socket error seen on the client side, such as ECONNRESET. */
  readonly error: string | undefined;
}

export interface SendOptions {
  /** Half-close (send FIN) after the bytes; the default. */
  end?: boolean;
  /** Give up waiting for the server to close after this long. */
  timeoutMs?: number;
  /** Stop reading as soon as this many complete responses have arrived. */
  responses?: number;
}

/** Sends `bytes` (in parts, when an array) on a new connection and collects what comes back. */
export function send(port: number, bytes: string | Buffer | ReadonlyArray<string | Buffer>, options: SendOptions = {}): Promise<Exchange> {
  const { end = true, timeoutMs = 5_000, responses } = options;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const socket = net.connect(port, '127.0.0.1', () => {
      for (const part of Array.isArray(bytes) ? bytes : [bytes]) socket.write(part);
      if (end) socket.end();
    });
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), closed, error });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (responses !== undefined && parseResponses(Buffer.concat(chunks)).responses.length >= responses) finish(true);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => finish(true));
  });
}

const STATUS_LINE = /^HTTP\/1\.1 ([1-5]\d\d) [\t !-~\x80-\xff]*$/;
const FIELD_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*([\t -~\x80-\xff]*?)[ \t]*$/;

/**
 * Splits what a server sent into responses, each checked against RFC 9112:
 * a status line, field lines, and a body framed by Content-Length (or
 * chunked); none for 1xx, 204, 304 and answers to HEAD. `heads` says which
 * final responses answer a HEAD, in order. Whatever does not parse is a
 * problem, as are bytes left over after the last response.
 */
export function parseResponses(data: Buffer, heads: readonly boolean[] = []): { responses: WireResponse[]; problems: string[] } {
  const responses: WireResponse[] = [];
  const problems: string[] = [];
  let at = 0;
  let finals = 0;
  while (at < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    if (headEnd === -1) {
      problems.push(`an incomplete header section: ${JSON.stringify(data.subarray(at, at + 80).toString('latin1'))}`);
      break;
    }
    const [statusLine = '', ...lines] = data.subarray(at, headEnd).toString('latin1').split('\r\n');
    const statusMatch = STATUS_LINE.exec(statusLine);
    if (!statusMatch) {
      problems.push(`not a status line: ${JSON.stringify(statusLine.slice(0, 80))}`);
      break;
    }
    const status = Number(statusMatch[1]);
    const headers: Record<string, string[]> = {};
    for (const line of lines) {
      const field = FIELD_LINE.exec(line);
      if (!field) problems.push(`not a field line: ${JSON.stringify(line.slice(0, 80))}`);
      else (headers[(field[1] as string).toLowerCase()] ??= []).push(field[2] as string);
    }
    at = headEnd + 4;
    const interim = status < 200;
    const head = !interim && heads[finals] === true;
    if (!interim) finals++;
    let body: Buffer = Buffer.alloc(0);
    const lengths = headers['content-length'];
    const chunked = headers['transfer-encoding']?.some((v) => /chunked/i.test(v)) ?? false;
    if (lengths && chunked) problems.push('both Content-Length and Transfer-Encoding');
    if (lengths && lengths.length > 1) problems.push(`Content-Length given ${lengths.length} times`);
    if (interim || status === 204 || status === 304 || head) {
      // no body
    } else if (chunked) {
      const decoded = readChunked(data, at);
      if (typeof decoded === 'string') {
        problems.push(decoded);
        break;
      }
      body = decoded.body;
      at = decoded.next;
    } else if (lengths) {
      const length = /^\d+$/.test(lengths[0] as string) ? Number(lengths[0]) : NaN;
      if (!Number.isSafeInteger(length)) {
        problems.push(`an invalid Content-Length: ${lengths[0]}`);
        break;
      }
      if (at + length > data.length) {
        problems.push(`a body shorter than its Content-Length (${data.length - at} < ${length})`);
        break;
      }
      body = data.subarray(at, at + length);
      at += length;
    } else {
      // Only a close-delimited body is left; this server never sends one.
      problems.push(`a ${status} response with neither Content-Length nor chunked framing`);
      body = data.subarray(at);
      at = data.length;
    }
    responses.push({ status, headers, body });
  }
  return { responses, problems };
}

function readChunked(data: Buffer, from: number): { body: Buffer; next: number } | string {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return 'a truncated chunk size line';
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0] as string, 16);
    if (!Number.isFinite(size)) return 'an invalid chunk size';
    at = lineEnd + 2;
    if (size === 0) {
      const trailerEnd = data.indexOf('\r\n', at);
      if (trailerEnd === -1) return 'a truncated last chunk';
      return { body: Buffer.concat(parts), next: trailerEnd + 2 };
    }
    if (at + size + 2 > data.length) return 'a truncated chunk';
    parts.push(data.subarray(at, at + size));
    at += size + 2;
  }
}

/**
 * What is wrong with an error answer's body: it must be
 * `application/json` holding exactly `{code, message, status}`,
 * `status` equal to the HTTP status and `code` from the catalogue with that status.
 */
export function errorBodyProblems(r: WireResponse): string[] {
  const problems: string[] = [];
  if (r.headers['content-type']?.[0] !== 'application/json') problems.push(`${r.status}: Content-Type ${r.headers['content-type']?.[0]}`);
  let body: unknown;
  try {
    body = JSON.parse(r.body.toString('utf8'));
  } catch {
    return [...problems, `${r.status}: the body is not JSON: ${JSON.stringify(r.body.toString('utf8').slice(0, 80))}`];
  }
  const e = body as { code?: unknown; message?: unknown; status?: unknown };
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return [...problems, `${r.status}: the body is not an object`];
  if (Object.keys(e).sort().join() !== 'code,message,status') problems.push(`${r.status}: members ${Object.keys(e).join()}`);
  if (e.status !== r.status) problems.push(`${r.status}: Error.status is ${String(e.status)}`);
  if (typeof e.message !== 'string' || e.message === '') problems.push(`${r.status}: no message`);
  const entry = typeof e.code === 'string' ? (errorCatalog as Record<string, { status: number }>)[e.code] : undefined;
  if (entry?.status !== r.status) problems.push(`${r.status}: code ${String(e.code)} is not a catalogue code of this status`);
  return problems;
}

/** A request with `Host`, the given extra header lines and body, and a Content-Length when a body is given. */
export function request(method: string, target: string, headers: readonly string[] = [], body?: string): string {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', ...headers];
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
