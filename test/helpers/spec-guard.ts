/**
 * The spec guard: every response a server test receives is checked against the
 * spec by Prism's own response validator, so the tests do not only check what
 * they were written to check but also that nothing drifts from the spec.
 *
 * - A status the operation declares, or an undeclared 2xx: Prism's errors
 *   (severity 0) fail the test.
 * - A status it does not declare (400 on listPets, 405, 415, 410…): Prism only
 *   warns ("Unable to match the returned status code"); the body must then be
 *   a valid Error whose `status` is the HTTP status.
 * - No operation at that method and path (unknown routes, 405): the body, if
 *   any, must be a valid Error.
 * - Always (decision D9): a body is `application/json` (no charset: RFC 8259 §11), and an
 *   error body is `{code, message, status}` with a code from the catalogue.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Test } from 'tap';
import { errorCatalog } from '../../src/server/index.js';

const require = createRequire(import.meta.url);

interface PrismDiagnostic {
  readonly message: string;
  readonly severity: number;
  readonly path?: readonly string[];
  readonly code?: string | number;
}
interface PrismOperation {
  readonly method: string;
  readonly path: string;
  readonly iid?: string;
}
type Either = { _tag: 'Left'; left: PrismDiagnostic[] } | { _tag: 'Right'; right: unknown };

// Only the spec loader and the validator: the package's main entry also loads
// Prism's mocker (json-schema-faker, faker), half a second in every test process.
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http/dist/utils/operations') as {
  getHttpOperationsFromSpec(spec: unknown): Promise<PrismOperation[]>;
};
const { validateOutput } = require('@stoplight/prism-http/dist/validator') as {
  validateOutput(input: { resource: PrismOperation; element: { statusCode: number; headers: object; body: unknown } }): Either;
};

export const SPEC_JSON_URL = new URL('../../spec/openapi.json', import.meta.url);
export const JSON_CONTENT_TYPE = 'application/json';

let loaded: Promise<PrismOperation[]> | undefined;

/** Prism's operations for spec/openapi.json, loaded once per test process. */
export function prismOperations(): Promise<PrismOperation[]> {
  loaded ??= getHttpOperationsFromSpec(JSON.parse(readFileSync(SPEC_JSON_URL, 'utf8')));
  return loaded;
}

/** Whether `path` (no query) fits a path template such as `/pets/{petId}`. */
export function matchesTemplate(template: string, path: string): boolean {
  const want = template.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((part, i) => (/^\{.+\}$/.test(part) ? got[i] !== '' : part === got[i]));
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * The body as Prism should see it. Prism's schema converter narrows
 * `format: int64` to ±(2^53 − 1) (@stoplight/http-spec,
 * oas/transformers/schema/keywords/format.js), which would reject the int64
 * values the spec allows. So each integer literal beyond that range is
 * checked here against the real int64 range, digit for digit, and handed to
 * Prism as the largest safe integer of its sign.
 */
export function prismView(text: string): { body: unknown; outOfInt64: string[] } {
  const outOfInt64: string[] = [];
  const rewritten = text.replace(JSON_TOKEN, (token) => {
    if (token.startsWith('"') || !/^-?\d+$/.test(token)) return token;
    const value = BigInt(token);
    if (value >= -BigInt(Number.MAX_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)) return token;
    if (value < INT64_MIN || value > INT64_MAX) outOfInt64.push(token);
    return String(value < 0n ? -Number.MAX_SAFE_INTEGER : Number.MAX_SAFE_INTEGER);
  });
  return { body: JSON.parse(rewritten), outOfInt64 };
}

export interface Observed {
  readonly method: string;
  /** The request path below the base path, without the query. */
  readonly path: string;
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** What is wrong with `body` as an Error of the catalogue for a response of HTTP status `status`. */
export function errorBodyProblems(body: unknown, status: number): string[] {
  const b = body as { code?: unknown; message?: unknown; status?: unknown } | null | undefined;
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return ['the error body is not an object'];
  const problems: string[] = [];
  const extra = Object.keys(b).filter((k) => !['code', 'message', 'status'].includes(k));
  if (extra.length) problems.push(`the error body has unexpected members ${extra.join(', ')}`);
  if (typeof b.code !== 'string') problems.push('code is not a string');
  else if (!Object.hasOwn(errorCatalog, b.code)) problems.push(`code ${b.code} is not in errorCatalog`);
  else if (errorCatalog[b.code as keyof typeof errorCatalog].status !== status) problems.push(`code ${b.code} belongs to another status`);
  if (typeof b.message !== 'string' || b.message === '') problems.push('message is not a non-empty string');
  if (b.status !== status) problems.push(`status is ${String(b.status)}, not the HTTP status ${status}`);
  return problems;
}

/** Everything the spec guard finds wrong with one response; empty when it conforms. */
export async function specProblems(r: Observed): Promise<string[]> {
  const problems: string[] = [];
  let body: unknown;
  if (r.text !== '') {
    if (r.headers['content-type'] !== JSON_CONTENT_TYPE) problems.push(`Content-Type is ${String(r.headers['content-type'])}, not ${JSON_CONTENT_TYPE}`);
    try {
      const view = prismView(r.text);
      body = view.body;
      for (const token of view.outOfInt64) problems.push(`${token} is outside int64`);
    } catch (error) {
      return [...problems, `the body is not JSON: ${(error as Error).message}`];
    }
  }
  if (r.method === 'HEAD') {
    // RFC 9110 §9.3.2: the answer to HEAD is the answer to GET without its body.
    if (r.text !== '') problems.push('a HEAD answer has a body');
    return problems;
  }
  if (r.status >= 400) problems.push(...errorBodyProblems(body, r.status));

  const operation = (await prismOperations()).find((op) => op.method === r.method.toLowerCase() && matchesTemplate(op.path, r.path));
  if (!operation) {
    // Not an operation of the spec: only errors and bodiless answers (HEAD, OPTIONS) may come back.
    if (r.status < 400 && r.text !== '') problems.push('a success outside the operations of the spec has a body');
    return problems;
  }
  const result = validateOutput({ resource: operation, element: { statusCode: r.status, headers: r.headers, body } });
  for (const d of result._tag === 'Left' ? result.left : []) {
    // A status the operation does not declare is only a warning; the Error body was checked above.
    if (d.severity === 1 && d.message.startsWith('Unable to match the returned status code')) continue;
    problems.push(`Prism (${operation.iid ?? operation.path}): ${d.message} (severity ${d.severity})`);
  }
  return problems;
}

/** One assertion per response: the spec guard finds nothing wrong. */
export async function checkAgainstSpec(t: Test, r: Observed): Promise<void> {
  t.strictSame(await specProblems(r), [], `spec guard: ${r.method} ${r.path} → ${r.status} conforms to the spec`);
}
