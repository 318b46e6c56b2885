/**
 * One HTTP/1.1 exchange written byte for byte on a connection of its own:
 * what undici will not send (a chunk extension, a trailer, a request without
 * Host, Content-Length beside Transfer-Encoding). The request is given whole
 * as text; the answer is read as RFC 9112 frames it (§6.3: Content-Length,
 * chunked, or until the connection closes), interim 1xx answers skipped, and
 * whether the server closed the connection after it is recorded.
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
}

export interface RawTarget {
  readonly origin: URL;
  /** The run's CA, client certificate and verification setting, for an https target. */
  readonly tls?: ConnectionOptions;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

/** Sends `bytes` (a whole request, as text) and reads one final answer. */
export function sendRaw(target: RawTarget, bytes: string): Promise<RawAnswer> {
  const started = performance.now();
  // RFC 9112 §6.3: the answer to HEAD ends with its header section, whatever its fields say.
  const head = bytes.startsWith('HEAD ');
  return new Promise((resolve, reject) => {
    const { hostname, port, protocol } = target.origin;
    const host = hostname.replace(/^\[|\]$/g, '');
    const socket: Socket =
      protocol === 'https:'
        ? connectTls({ ...target.tls, host, port: Number(port || 443), servername: host.match(/^[\d.]+$|:/) ? undefined : host })
        : connectTcp({ host, port: Number(port || 80) });
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      let parsed: Parsed | undefined;
      try {
        parsed = parseAnswer(received, true, target.maxResponseBytes, head);
      } catch (problem) {
        return reject(problem);
      }
      if (!parsed) return reject(new Error('the connection closed before a complete answer'));
      resolve(toAnswer(parsed, true, false, started, target.maxResponseBytes));
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${target.timeoutMs} ms`)), target.timeoutMs);
    socket.once(protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      socket.write(bytes);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length > target.maxResponseBytes + 65_536) return finish(new Error(`the answer is larger than ${target.maxResponseBytes} bytes`));
      let parsed: Parsed | undefined;
      try {
        parsed = parseAnswer(received, false, target.maxResponseBytes, head);
      } catch (problem) {
        return finish(problem as Error);
      }
      if (!parsed || done) return;
      // Complete: wait a moment to see whether the server closes the connection (as RFC 9112 §6.3 asks after
      // some requests), or answers again, having read the rest of what was sent as another request.
      done = true;
      clearTimeout(timer);
      const closedSoon = new Promise<boolean>((settle) => {
        const wait = setTimeout(() => settle(false), 200);
        socket.once('close', () => {
          clearTimeout(wait);
          settle(true);
        });
      });
      void closedSoon.then((closed) => {
        socket.destroy();
        const more = received.length > parsed.end;
        resolve(toAnswer(parsed, closed || /\bclose\b/i.test(parsed.headers['connection'] ?? ''), more, started, target.maxResponseBytes));
      });
    });
    socket.once('end', () => finish());
    socket.once('error', (error) => finish(error));
  });
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

function toAnswer(parsed: Parsed, closed: boolean, more: boolean, started: number, maxBytes: number): RawAnswer {
  return {
    closed,
    more,
    response: {
      status: parsed.status,
      headers: parsed.headers,
      ...readBody(parsed.body, parsed.headers['content-encoding'], maxBytes),
      durationMs: performance.now() - started,
    },
  };
}
