/**
 * A gateway written in a test, in front of a reference server: it forwards
 * each request and may change the answer, or answer itself, the way a
 * misbehaving implementation or a transforming proxy would. Checks are run
 * against it to show what they catch; on 127.0.0.1 and an ephemeral port,
 * closed when the test ends.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';
import { request } from 'undici';
import { type JsonValue, parseJson } from '../../spec/json/index.js';
import { operations } from '../../spec/operations.js';
import { buildRoutes, matchRoute } from '../../src/server/router.js';

export interface FrontRequest {
  readonly method: string;
  /** The target below the base path, such as `/pets?limit=5`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** The spec's operation it names (matched as the reference server's router matches), if any. */
  readonly operationId?: string;
  /** Its path parameters, where its path is one of the spec's (whatever the method), percent-decoded. */
  readonly params?: Readonly<Record<string, string>>;
}

const routes = buildRoutes(operations);

/** What the spec makes of `method path` (below the base path): its operation and path parameters. */
export function specRoute(method: string, path: string): Pick<FrontRequest, 'operationId' | 'params'> {
  const match = matchRoute(routes, path.split('?')[0]!);
  if (!match.found) return {};
  const operationId = match.route.operations.get(method)?.operationId;
  return { params: match.params, ...(operationId ? { operationId } : {}) };
}

export interface FrontAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** The upstream's answer to `req`, or to `req` changed. */
export type Forward = (req?: FrontRequest) => Promise<FrontAnswer>;

export type FrontHandler = (req: FrontRequest, forward: Forward) => Promise<FrontAnswer> | FrontAnswer;

/** Fields a gateway does not pass on as they are: hop-by-hop ones, and the length it sets again. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

const passed = (headers: Record<string, string | string[] | undefined>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name, value]) => value !== undefined && !NOT_FORWARDED.has(name.toLowerCase()))
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value as string)]),
  );

/** An answer's body as JSON, read so that int64 values keep their digits (undefined: not JSON). */
export function jsonOf(answer: FrontAnswer): JsonValue | undefined {
  const read = parseJson(answer.body.toString());
  return read.ok ? read.value : undefined;
}

/** A JSON answer written by the front itself. */
export function jsonAnswer(status: number, value: unknown, headers: Record<string, string> = {}): FrontAnswer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(JSON.stringify(value)) };
}

/** Starts the front before `upstream` (a base URL ending in the base path) and returns its own base URL. */
export async function startFront(t: Test, upstream: string, handler: FrontHandler): Promise<string> {
  const base = new URL(upstream);
  const basePath = base.pathname.replace(/\/$/, '');
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const path = url.startsWith(basePath) ? url.slice(basePath.length) || '/' : url;
    const incoming: FrontRequest = { method, path, headers: req.headers, body: Buffer.concat(chunks), ...specRoute(method, path) };
    const forward: Forward = async (r = incoming) => {
      const answer = await request(new URL(basePath + r.path, base.origin), {
        method: r.method as never,
        headers: passed(r.headers),
        ...(r.body.length > 0 ? { body: r.body } : {}),
      });
      const body = Buffer.from(await answer.body.arrayBuffer());
      return { status: answer.statusCode, headers: passed(answer.headers), body };
    };
    try {
      const answer = await handler(incoming, forward);
      res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
      res.end(req.method === 'HEAD' ? undefined : answer.body);
    } catch (error) {
      t.fail(`the front failed: ${String(error)}`);
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${basePath}`;
}
