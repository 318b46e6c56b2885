/**
 * One request through undici's dispatcher and its whole answer, for the
 * client (client.ts), and what a request that got no answer is called in a
 * report.
 */
import { type Dispatcher, errors as undiciErrors } from 'undici';

/** What goes on the wire of a request besides its target (a client's WireRequest is one). */
export interface RequestParts {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: string;
}

/**
 * One request and its whole answer, through undici's dispatcher with plain
 * callbacks: a body stream and its events per request would cost the suite
 * more than the judging does. Reading stops as soon as the body passes
 * maxResponseBytes (the rest is not read).
 */
export function roundTrip(agent: Dispatcher, origin: string, path: string, request: RequestParts, maxResponseBytes: number): Promise<DispatchedAnswer> {
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

export interface DispatchedAnswer {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
}

/** The reason a read stopped at maxResponseBytes. */
export class TooLarge extends Error {}

/** Header fields by lower-case name; a repeated field's values joined by ", " (RFC 9110 §5.3). */
function flattenHeaders(fields: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** What kept a request from its answer, in words (a timeout, a refused connection, a certificate not trusted). */
export function describeTransportError(error: unknown, timeoutMs: number): string {
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
