/**
 * What a run actually covered, per operation: requests sent, the statuses
 * seen (each marked declared or not), the declared responses never observed,
 * and the classes of input exercised. Statuses and query values are read off
 * every exchange; classes only a check can name (a credential form, a class
 * of invalid body, a spelling of the route, a media type) are reported by the
 * check itself through `CheckContext.cover`.
 */
import type { OperationDescriptor, ParameterDescriptor } from '../spec/operations.js';
import { integerRange } from './arbitraries/schema.js';
import type { Exchange } from './client.js';

export interface StatusCoverage {
  readonly status: number;
  readonly count: number;
  /** Whether the spec declares this status for the operation. */
  readonly declared: boolean;
}

export interface InputCoverage {
  /** What varies: a parameter (`limit`), `credential`, `body`, `route spelling`, `Content-Type`, `Accept`. */
  readonly dimension: string;
  /** Each class tried, with how many requests tried it. */
  readonly classes: readonly { readonly value: string; readonly count: number }[];
}

export interface OperationCoverage {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly requests: number;
  readonly statuses: readonly StatusCoverage[];
  /** Statuses the spec declares that no answer had: shown, never hidden. */
  readonly neverObserved: readonly number[];
  readonly inputs: readonly InputCoverage[];
}

export interface Coverage {
  readonly operations: readonly OperationCoverage[];
}

export interface CoverageCollector {
  observe(exchange: Exchange): void;
  /** A check says it exercised `value` of `dimension` on `operationId`. */
  cover(operationId: string, dimension: string, value: string): void;
  snapshot(): Coverage;
}

/** The class of a query value under its parameter's schema: `min (1)`, `default`, `out of range`, an enum value… */
export function queryValueClass(parameter: ParameterDescriptor, text: string | undefined): string {
  const schema = parameter.schema;
  if (text === undefined) return schema['default'] !== undefined ? `absent (default ${String(schema['default'])})` : 'absent';
  if (Array.isArray(schema['enum'])) return (schema['enum'] as unknown[]).includes(text) ? text : 'not in the enum';
  if (schema['type'] === 'integer') {
    if (!/^-?\d+$/.test(text)) return 'not an integer';
    const [min, max] = integerRange(schema);
    const value = BigInt(text);
    if (value < min || value > max) return 'out of range';
    if (value === min) return `minimum (${min})`;
    if (value === max) return `maximum (${max})`;
    return 'within range';
  }
  return 'a value';
}

export function createCoverage(operations: readonly OperationDescriptor[]): CoverageCollector {
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const requests = new Map<string, number>();
  const statuses = new Map<string, Map<number, number>>();
  const inputs = new Map<string, Map<string, Map<string, number>>>();

  function cover(operationId: string, dimension: string, value: string): void {
    let dimensions = inputs.get(operationId);
    if (!dimensions) inputs.set(operationId, (dimensions = new Map()));
    let classes = dimensions.get(dimension);
    if (!classes) dimensions.set(dimension, (classes = new Map()));
    classes.set(value, (classes.get(value) ?? 0) + 1);
  }

  return {
    cover,
    observe({ request, response }) {
      const op = byId.get(request.operationId);
      // An off-spec spelling of the route is not the operation: only its class (route spelling) is recorded, by its check.
      if (!op || request.offSpec) return;
      requests.set(op.operationId, (requests.get(op.operationId) ?? 0) + 1);
      let seen = statuses.get(op.operationId);
      if (!seen) statuses.set(op.operationId, (seen = new Map()));
      seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
      // The query as sent, read against the spec's parameters.
      const q = request.path.indexOf('?');
      const query = new URLSearchParams(q === -1 ? '' : request.path.slice(q + 1));
      for (const parameter of op.parameters.filter((p) => p.in === 'query')) {
        cover(op.operationId, parameter.name, queryValueClass(parameter, query.get(parameter.name) ?? undefined));
      }
    },
    snapshot() {
      return {
        operations: operations.map((op): OperationCoverage => {
          const seen = statuses.get(op.operationId) ?? new Map<number, number>();
          const declared = new Set(op.responses.map((r) => r.status));
          return {
            operationId: op.operationId,
            method: op.method,
            path: op.path,
            requests: requests.get(op.operationId) ?? 0,
            statuses: [...seen].sort(([a], [b]) => a - b).map(([status, count]) => ({ status, count, declared: declared.has(status) })),
            neverObserved: [...declared].filter((status) => !seen.has(status)).sort((a, b) => a - b),
            inputs: [...(inputs.get(op.operationId) ?? new Map<string, Map<string, number>>())].map(([dimension, classes]) => ({
              dimension,
              classes: [...classes].map(([value, count]) => ({ value, count })),
            })),
          };
        }),
      };
    },
  };
}
