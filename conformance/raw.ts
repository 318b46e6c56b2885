/**
 * One HTTP/1.1 exchange written byte for byte on a connection of its own:
 * what undici will not send (a chunk extension, a trailer, a request without
 * Host, Content-Length beside Transfer-Encoding). The request is given whole
 * as text; the answer is read as RFC 9112 frames it (§6.3: Content-Length,
 * chunked, or until the connection closes), interim 1xx answers skipped, and
 * whether the server closed the connection after it is recorded. A
 * well-formed follow-up request may be sent after it on the same connection:
 * a server that left part of the first request unread takes those bytes for
 * the start of the next one, which one answer alone never shows.
 */
import { connect as connectTcp, type Socket } from 'node:net';
import { type ConnectionOptions, connect as connectTls } from 'node:tls';
import { type ReadBody, readBody } from './response-body.js';

/** An answer as the client records every answer (client.ts's WireResponse has this shape). */
export type RawResponse = ReadBody & { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly durationMs: number };

export interface RawAnswer {
  readonly response: RawResponse;
  /** The server closed the connection after the answer (or said `Connection: close`). */
  readonly closed: boolean;
  /** More bytes came after the answer: the server read part of what was sent as another request. */
  readonly more: boolean;
  /** What became of the follow-up request; absent when none was given, or when `more` already shows the connection out of step. */
  readonly followUp?: FollowUpAnswer;
}

/**
 * A well-formed request sent after the answer, on the same connection: what
 * a server that left part of the first request unread makes of it shows.
 */
export interface FollowUpAnswer {
  readonly response?: RawResponse;
  /** The server closed the connection instead of answering (after the first answer, or when the follow-up came). */
  readonly closed: boolean;
  /** No answer within the timeout, the connection still open: the server is still reading a request it thinks unfinished. */
  readonly timedOut?: true;
  /** What came back is not an HTTP/1.1 answer (the rest of the first answer's bytes, say). */
  readonly unreadable?: string;
}

export interface RawTarget {
  readonly origin: URL;
  /** The run's CA, client certificate and verification setting, for an https target. */
  readonly tls?: ConnectionOptions;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

/** How long a complete answer is watched for the server closing the connection, or answering again. */
const SETTLE_MS = 200;

/**
 * Sends `bytes` (a whole request, as text) and reads one final answer. Given
 * `followUp` (another whole request), sends it once that answer is complete
 * and the connection is still open, never pipelined, and reads its answer.
 */
export async function sendRaw(target: RawTarget, bytes: string, followUp?: string): Promise<RawAnswer> {
  const started = performance.now();
  const { socket, inbox } = open(target, bytes);
  try {
    // RFC 9112 §6.3: the answer to HEAD ends with its header section, whatever its fields say.
    const parsed = await readAnswer(inbox, 0, bytes.startsWith('HEAD '), target);
    if (!parsed) throw inbox.error ?? new Error('the connection closed before a complete answer');
    const response = toResponse(parsed, started, target.maxResponseBytes);
    // Complete: wait a moment to see whether the server closes the connection (as RFC 9112 §6.3 asks after
    // some requests), or answers again, having read the rest of what was sent as another request.
    await endedWithin(inbox, SETTLE_MS);
    const closed = inbox.ended || /\bclose\b/i.test(parsed.headers['connection'] ?? '');
    const more = inbox.received.length > parsed.end;
    if (followUp === undefined || more) return { response, closed, more };
    return { response, closed, more, followUp: closed ? { closed: true } : await sendFollowUp(socket, inbox, parsed.end, followUp, target) };
  } finally {
    socket.destroy();
  }
}

/** The bytes a connection has brought so far, and whether (and how) it ended. */
interface Inbox {
  received: Buffer;
  ended: boolean;
  error?: Error;
  /** Called when any of the above changes. */
  wake: () => void;
}

/** Connects to the target, writes `bytes` once connected, and collects what comes back. */
function open(target: RawTarget, bytes: string): { socket: Socket; inbox: Inbox } {
  const { hostname, port, protocol } = target.origin;
  const host = hostname.replace(/^\[|\]$/g, '');
  const socket: Socket =
    protocol === 'https:'
      ? connectTls({ ...target.tls, host, port: Number(port || 443), servername: host.match(/^[\d.]+$|:/) ? undefined : host })
      : connectTcp({ host, port: Number(port || 80) });
  const inbox: Inbox = { received: Buffer.alloc(0), ended: false, wake: () => {} };
  socket.once(protocol === 'https:' ? 'secureConnect' : 'connect', () => socket.write(bytes));
  socket.on('data', (chunk: Buffer) => {
    inbox.received = Buffer.concat([inbox.received, chunk]);
    inbox.wake();
  });
  const end = () => {
    inbox.ended = true;
    inbox.wake();
  };
  socket.once('end', end);
  socket.once('close', end);
  socket.on('error', (error) => {
    inbox.error ??= error;
    end();
  });
  return { socket, inbox };
}

/** Resolves when the inbox changes, or after `ms`. */
function changed(inbox: Inbox, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    inbox.wake = () => {
      clearTimeout(timer);
      inbox.wake = () => {};
      resolve();
    };
  });
}

async function endedWithin(inbox: Inbox, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!inbox.ended && performance.now() < deadline) await changed(inbox, deadline - performance.now());
}

class NoAnswer extends Error {}

/**
 * The first final answer in what came after `from`, once complete; undefined
 * when the connection ended first. Throws when none comes within the
 * timeout, when it grows past the limit, or when it is not HTTP/1.1.
 */
async function readAnswer(inbox: Inbox, from: number, head: boolean, target: RawTarget): Promise<Parsed | undefined> {
  const deadline = performance.now() + target.timeoutMs;
  for (;;) {
    const bytes = inbox.received.subarray(from);
    if (bytes.length > target.maxResponseBytes + 65_536) throw new Error(`the answer is larger than ${target.maxResponseBytes} bytes`);
    const parsed = parseAnswer(bytes, inbox.ended, target.maxResponseBytes, head);
    if (parsed) return { ...parsed, end: from + parsed.end };
    if (inbox.ended) return undefined;
    const left = deadline - performance.now();
    if (left <= 0) throw new NoAnswer(`no answer within ${target.timeoutMs} ms`);
    await changed(inbox, left);
  }
}

/** Writes the follow-up once the first answer is in, and reads what the server makes of it. */
async function sendFollowUp(socket: Socket, inbox: Inbox, from: number, followUp: string, target: RawTarget): Promise<FollowUpAnswer> {
  const started = performance.now();
  // A server that has closed its side may reset the connection on this write: that is its closing, not an answer.
  socket.write(followUp, () => {});
  try {
    const parsed = await readAnswer(inbox, from, false, target);
    return parsed ? { closed: false, response: toResponse(parsed, started, target.maxResponseBytes) } : { closed: true };
  } catch (problem) {
    if (problem instanceof NoAnswer) return { closed: false, timedOut: true };
    return { closed: inbox.ended, unreadable: (problem as Error).message };
  }
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Where the answer ends in the bytes received. */
  end: number;
}

/** The first final answer in `bytes`, or undefined while it is incomplete (`ended`: nothing more will come). */
function parseAnswer(bytes: Buffer, ended: boolean, maxBytes: number, head: boolean): Parsed | undefined {
  let offset = 0;
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', offset);
    if (end === -1) return undefined;
    const lines = bytes.subarray(offset, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]);
    if (!Number.isInteger(status)) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(lines[0])}`);
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const start = end + 4;
    if (status >= 100 && status < 200) {
      offset = start;
      continue;
    }
    if (head || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0), end: start };
    const rest = { status, headers, body: bytes.subarray(start), end: bytes.length };
    if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
      const chunked = dechunk(bytes.subarray(start), maxBytes);
      if (chunked) return { status, headers, body: chunked.body, end: start + chunked.length };
      return ended ? rest : undefined;
    }
    const length = headers['content-length'];
    if (length !== undefined) {
      const n = Number(length);
      if (bytes.length - start < n) return ended ? rest : undefined;
      return { status, headers, body: bytes.subarray(start, start + n), end: start + n };
    }
    return ended ? rest : undefined;
  }
}

/** The content of a chunked body (RFC 9112 §7.1) and how many bytes it took, or undefined while incomplete. */
function dechunk(bytes: Buffer, maxBytes: number): { body: Buffer; length: number } | undefined {
  const parts: Buffer[] = [];
  let offset = 0;
  let size = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', offset);
    if (lineEnd === -1) return undefined;
    const chunkSize = Number.parseInt(bytes.subarray(offset, lineEnd).toString('latin1').split(';')[0]!.trim(), 16);
    if (!Number.isFinite(chunkSize)) return undefined;
    // The last chunk, then the trailer section and a blank line.
    if (chunkSize === 0) {
      const end = bytes.indexOf('\r\n\r\n', lineEnd);
      return end === -1 ? undefined : { body: Buffer.concat(parts), length: end + 4 };
    }
    const start = lineEnd + 2;
    if (bytes.length < start + chunkSize + 2) return undefined;
    parts.push(bytes.subarray(start, start + chunkSize));
    size += chunkSize;
    if (size > maxBytes) return { body: Buffer.concat(parts), length: bytes.length };
    offset = start + chunkSize + 2;
  }
}

function toResponse(parsed: Parsed, started: number, maxBytes: number): RawResponse {
  return {
    status: parsed.status,
    headers: parsed.headers,
    ...readBody(parsed.body, parsed.headers['content-encoding'], maxBytes),
    durationMs: performance.now() - started,
  };
}
