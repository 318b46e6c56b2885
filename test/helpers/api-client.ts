/**
 * Requests to a running server with undici, the way a real client makes
 * them: the body of every response is read in full (an unread body keeps
 * the connection busy), and every response goes through the spec guard.
 */
import type { Test } from 'tap';
import { request } from 'undici';
import { checkAgainstSpec } from './spec-guard.js';

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** The Authorization header: by default `Bearer <key>`; `false` sends none. */
  auth?: string | false;
  /** Sent as `JSON.stringify(json)` with `Content-Type: application/json` (unless `headers` say otherwise). */
  json?: unknown;
  /** Sent as is, with no Content-Type added. */
  body?: string | Buffer;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received: where int64 digits are compared, since JSON.parse rounds them. */
  readonly text: string;
  /** The body through JSON.parse; undefined when there is none. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

/**
 * The headers and body of a request, as every test client builds them:
 * `Bearer <key>` unless `auth` says otherwise, JSON bodies typed as
 * `application/json`, then `headers` last so a test can override anything.
 */
export function requestParts(
  key: string,
  options: Pick<CallOptions, 'auth' | 'headers' | 'json' | 'body'> & { jsonText?: string },
): { headers: Record<string, string>; body: string | Buffer | null } {
  const headers: Record<string, string> = {};
  if (options.auth !== false) headers['authorization'] = options.auth ?? `Bearer ${key}`;
  let body = options.body;
  if (options.json !== undefined || options.jsonText !== undefined) {
    headers['content-type'] = 'application/json';
    body = options.jsonText ?? JSON.stringify(options.json);
  }
  Object.assign(headers, options.headers);
  return { headers, body: body ?? null };
}

/** A request to a path below the base URL, such as `/pets?limit=5`. */
export type Api = (path: string, options?: CallOptions) => Promise<ApiResponse>;

/**
 * One request to `url`; `guardPath` is the path below the base path that the
 * spec guard matches against the spec's path templates.
 */
export async function call(t: Test, url: string, guardPath: string, key: string, options: CallOptions = {}): Promise<ApiResponse> {
  const method = options.method ?? (options.json !== undefined || options.body !== undefined ? 'POST' : 'GET');
  const { headers, body } = requestParts(key, options);
  const res = await request(url, { method, headers, body });
  const text = await res.body.text();
  const response: ApiResponse = {
    status: res.statusCode,
    headers: res.headers,
    text,
    body: text === '' ? undefined : safeParse(text),
  };
  await checkAgainstSpec(t, { method, path: guardPath, status: response.status, headers: response.headers, text });
  return response;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // the spec guard has already said the body is not JSON
  }
}

/** A client for the interface at `baseUrl` (which ends in the base path). */
export function apiClient(t: Test, baseUrl: string, key: string): Api {
  return (path, options) => call(t, baseUrl + path, path.split('?')[0] as string, key, options);
}
