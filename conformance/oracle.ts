/**
 * Judging a response against the spec, with two validators that share no
 * code with the reference server's request handling:
 * - @stoplight/prism-http's `validateOutput` (status, media type, body schema);
 * - the exact validator compiled from the same spec (`src/schema`), which sees
 *   the lossless body, so int64 values are checked digit for digit.
 * Prism parses with doubles and bounds `format: int64` to ±(2^53−1), which
 * would fail a correct target whose ids go beyond 2^53; so it is shown the
 * body with every integer replaced by a small stand-in of the same sign, after
 * the exact validator has checked the real digits.
 */
import { createRequire } from 'node:module';
import { openapi } from '../spec/openapi.js';
import type { OperationDescriptor } from '../spec/operations.js';
import type { JsonValue } from '../src/json/index.js';
import { compileSchema, type Validator } from '../src/schema/validate.js';
import type { WireResponse } from './client.js';

// Prism is loaded when an oracle is created, not when this module is
// imported: it takes seconds, and `petstore serve` never needs it.
const require = createRequire(import.meta.url);
type PrismHttp = typeof import('@stoplight/prism-http');
type PrismValidator = typeof import('@stoplight/prism-http/dist/validator/index.js');
type IHttpOperation = Awaited<ReturnType<PrismHttp['getHttpOperationsFromSpec']>>[number];

export interface Oracle {
  /** Problems with `response` as an answer of `operation`; empty when it conforms. */
  judge(operation: OperationDescriptor, response: WireResponse): string[];
}

export async function createOracle(operations: readonly OperationDescriptor[]): Promise<Oracle> {
  const prism = require('@stoplight/prism-http') as PrismHttp;
  const prismValidator = require('@stoplight/prism-http/dist/validator') as PrismValidator;
  const prismOperations = await loadPrismOperations(prism);
  const byId = new Map<string, { prism: IHttpOperation; exact: Map<number, Validator> }>();
  for (const op of operations) {
    const prismOp = prismOperations.find((p) => p.method.toUpperCase() === op.method && p.path === op.path);
    if (!prismOp) throw new Error(`Prism did not load ${op.method} ${op.path}`);
    const exact = new Map<number, Validator>();
    for (const response of op.responses) if (response.schema) exact.set(response.status, compileSchema(response.schema));
    byId.set(op.operationId, { prism: prismOp, exact });
  }

  return {
    judge(operation, response) {
      const entry = byId.get(operation.operationId);
      if (!entry) return [`no such operation ${operation.operationId}`];
      const problems: string[] = [];
      const exact = entry.exact.get(response.status);
      if (exact) {
        if (response.json === undefined) problems.push(`the body is not JSON${response.parseError ? ` (${response.parseError})` : ''}`);
        else {
          const issue = exact(response.json, 'body');
          if (issue) problems.push(issue.message);
        }
      }
      const result = prismValidator.validateOutput({
        resource: entry.prism,
        element: {
          statusCode: response.status,
          headers: response.headers,
          body: response.json === undefined ? response.text : withStandIns(response.json),
        },
      });
      if (result._tag === 'Left') {
        for (const diagnostic of result.left) {
          // Severity 0 is an error; 1 is Prism's "status not declared", judged by the caller.
          if (diagnostic.severity === 0) problems.push(`Prism: ${diagnostic.message}`);
        }
      }
      return [...new Set(problems)];
    },
  };
}

async function loadPrismOperations(prism: PrismHttp): Promise<IHttpOperation[]> {
  // Prism logs resolution problems with console.warn; a clean spec has none,
  // and nothing should leak into the suite's report.
  const warn = console.warn;
  console.warn = () => {};
  try {
    return await prism.getHttpOperationsFromSpec(JSON.parse(JSON.stringify(openapi)));
  } finally {
    console.warn = warn;
  }
}

function withStandIns(value: JsonValue): unknown {
  if (typeof value === 'bigint') return value < 0n ? -1 : value > 0n ? 1 : 0;
  if (Array.isArray(value)) return value.map(withStandIns);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, withStandIns(v)]));
  }
  return value;
}
