/**
 * Requests to the control API (`/__control`) with undici, each answer checked
 * against spec/control-openapi.ts the way http.ts checks the interface's: the
 * body of a declared status must match that response's schema; any other
 * status (405, 413, 415, an unknown path) must carry an Error body whose
 * `status` is the HTTP status and whose `code` is in the catalogue. Bodies are
 * parsed with spec/json, so int64 values keep their digits.
 */
import type { Test } from 'tap';
import { request } from 'undici';
import { controlOpenapi } from '../../spec/control-openapi.js';
import { derefAll, type Schema } from '../../spec/operations.js';
import { parseJson, type JsonValue } from '../../spec/json/index.js';
import { compileSchema, type Validator } from '../../spec/schema/validate.js';
import { errorCatalog } from '../../src/server/index.js';
import { requestParts } from './api-client.js';
import { matchesTemplate } from './spec-guard.js';

export const CONTROL_JSON = 'application/json';

export interface ControlCallOptions {
  /** The Authorization header: by default `Bearer <key>`; `false` sends none. */
  auth?: string | false;
  headers?: Record<string, string>;
  /** Sent as `JSON.stringify(json)` with `Content-Type: application/json`. */
  json?: unknown;
  /** JSON text sent as is with `Content-Type: application/json` (for int64 digits JSON.stringify cannot write). */
  jsonText?: string;
  /** Sent as is, with no Content-Type added. */
  body?: string;
}

export interface ControlResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body through spec/json's parseJson (integers are bigints, objects plain); undefined when empty. */
  readonly value: JsonValue | undefined;
  /** The body through JSON.parse, for comparisons where int64 precision does not matter. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly body: any;
}

/** `method` `path` (below /__control, query allowed) → the checked answer. */
export type Control = (method: string, path: string, options?: ControlCallOptions) => Promise<ControlResponse>;

type Paths = Record<string, Record<string, { responses: Record<string, { content?: { 'application/json': { schema: unknown } } }> }>>;
const paths = controlOpenapi.paths as unknown as Paths;
const validators = new Map<unknown, Validator>();
function validatorFor(schema: unknown): Validator {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = compileSchema(derefAll(controlOpenapi, schema) as Schema)));
  return validate;
}
const validateError = validatorFor(controlOpenapi.components.schemas.Error);

/** Every (method, template) the control spec declares, e.g. ['GET', '/state']. */
export const controlRoutes: readonly (readonly [string, string])[] = Object.entries(paths).flatMap(([template, item]) =>
  Object.keys(item).map((method) => [method.toUpperCase(), template] as const),
);

/** Checks one control answer against the spec; returns nothing, reports through `t`. */
export function checkControlAnswer(t: Test, method: string, path: string, r: ControlResponse): void {
  const where = `${method} /__control${path} → ${r.status}`;
  if (r.status === 204) {
    t.equal(r.text, '', `${where}: no body`);
    return;
  }
  t.equal(r.headers['content-type'], CONTROL_JSON, `${where}: JSON`);
  t.ok(r.value !== undefined, `${where}: the body parses as JSON`);
  if (r.value === undefined) return;
  const template = Object.keys(paths).find((p) => matchesTemplate(p, path.split('?')[0] as string));
  const declared = template ? paths[template]?.[method.toLowerCase()]?.responses[String(r.status)] : undefined;
  if (declared?.content) {
    const issue = validatorFor(declared.content['application/json'].schema)(r.value);
    t.notOk(issue, `${where}: the body matches the spec's schema${issue ? `: ${issue.message}` : ''}`);
  }
  if (r.status >= 400) {
    const issue = validateError(r.value);
    t.notOk(issue, `${where}: an Error body${issue ? `: ${issue.message}` : ''}`);
    const body = r.body as { code?: string; status?: number };
    t.equal(body.status, r.status, `${where}: the Error's status is the HTTP status`);
    t.ok(body.code !== undefined && body.code in errorCatalog, `${where}: code ${body.code} is in the catalogue`);
  }
}

/** `value` with its objects given the usual prototype (parseJson makes them prototype-less), for deep comparisons. */
export function plain(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
}

/** A client for the control API of the server whose base URL is `baseUrl`. */
export function controlClient(t: Test, baseUrl: string, key: string): Control {
  const root = `${new URL(baseUrl).origin}/__control`;
  return async (method, path, options = {}) => {
    const { headers, body } = requestParts(key, options);
    const res = await request(root + path, { method, headers, body });
    const text = await res.body.text();
    const parsed = text === '' ? undefined : parseJson(text, { maxDepth: 64, maxMembers: Number.MAX_SAFE_INTEGER });
    const r: ControlResponse = {
      status: res.statusCode,
      headers: res.headers,
      text,
      value: parsed?.ok ? plain(parsed.value) : undefined,
      body: parsed?.ok ? JSON.parse(text) : undefined,
    };
    checkControlAnswer(t, method, path, r);
    return r;
  };
}
