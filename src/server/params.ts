/**
 * Query and path parameters, read and validated as the spec describes them:
 * defaults applied, integers parsed exactly, every schema rule checked.
 */
import type { OperationDescriptor } from '../../spec/operations.js';
import { parseDecimalInteger, type JsonValue } from '../../spec/json/index.js';
import { compileSchema } from '../../spec/schema/validate.js';

export type ParamValues = Record<string, JsonValue>;
/** A refusal names the parameter and what was sent for it (`limit=200`), for its finding. */
export type ParamsResult = { ok: true; values: ParamValues } | { ok: false; message: string; name: string; sent: string };
/**
 * Told of each query parameter the operation does not have (D3 ignores them;
 * findings report them), with the reader's `context` (the request), so that
 * no closure is made per request.
 */
export type UnknownParameter = (name: string, value: string, context: unknown) => void;
/**
 * `query` is the request target's query, without its `?`; `unknown`, when
 * given, hears of every query parameter the operation does not declare.
 */
export type ParamsReader = (pathParams: Record<string, string>, query: string | undefined, unknown?: UnknownParameter, context?: unknown) => ParamsResult;

/**
 * The name-value pairs of a query, exactly as URLSearchParams reads them. A
 * query with nothing to decode (no `%`, no `+`) is split here in one pass,
 * which costs a fraction of building a URLSearchParams on every request.
 */
export function queryPairs(query: string): [string, string][] {
  const pairs: [string, string][] = [];
  let start = 0;
  let eq = -1;
  for (let i = 0; i <= query.length; i++) {
    const c = i === query.length ? 0x26 : query.charCodeAt(i);
    if (c === 0x26 /* & */) {
      if (i > start) pairs.push(eq === -1 ? [query.slice(start, i), ''] : [query.slice(start, eq), query.slice(eq + 1, i)]);
      start = i + 1;
      eq = -1;
    } else if (c === 0x3d /* = */) {
      if (eq === -1) eq = i;
    } else if (c === 0x25 /* % */ || c === 0x2b /* + */ || (c === 0x3f /* ? */ && i === 0) || (c >= 0xd800 && c <= 0xdfff)) {
      // Something to decode (or a leading `?`, or a lone surrogate): the standard's reader.
      return [...new URLSearchParams(query)];
    }
  }
  return pairs;
}

/**
 * A parameter's text as the JSON value its schema expects. Integers must be
 * plain decimal digits (`5`, `-3`, `007`); anything else stays a string, and
 * the schema check then says "must be an integer".
 */
function coerce(text: string, schema: Record<string, unknown>): JsonValue {
  return schema['type'] === 'integer' ? (parseDecimalInteger(text) ?? text) : text;
}

const NO_PAIRS: readonly [string, string][] = [];

export function compileParamsReader(operation: OperationDescriptor): ParamsReader {
  const params = operation.parameters
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => {
      const fallback = p.schema['default'] as JsonValue | undefined;
      // A default integer is a bigint like any integer read from a request.
      return { ...p, validate: compileSchema(p.schema), fallback: typeof fallback === 'number' ? BigInt(fallback) : fallback };
    });
  const queryNames = params.filter((p) => p.in === 'query').map((p) => p.name);
  return (pathParams, query, unknown, context) => {
    const values: ParamValues = {};
    const pairs = query ? queryPairs(query) : NO_PAIRS;
    // Before the parameters are judged, so that a refused request still tells of a misspelt name beside the bad value.
    if (unknown) for (const [name, value] of pairs) if (!queryNames.includes(name)) unknown(name, value, context);
    for (const p of params) {
      let text: string | undefined;
      if (p.in === 'path') text = pathParams[p.name];
      else {
        for (const [name, value] of pairs) {
          if (name !== p.name) continue;
          if (text !== undefined)
            return { ok: false, message: `query parameter ${p.name} must be given at most once`, name: p.name, sent: `${p.name} given more than once` };
          text = value;
        }
      }
      if (text === undefined) {
        if (p.required) return { ok: false, message: `${p.in} parameter ${p.name} is required`, name: p.name, sent: `no ${p.name}` };
        if (p.fallback !== undefined) values[p.name] = p.fallback;
        continue;
      }
      const value = coerce(text, p.schema);
      const issue = p.validate(value, p.name);
      if (issue)
        return { ok: false, message: `${p.in} parameter ${issue.message}`, name: p.name, sent: p.in === 'query' ? `${p.name}=${text}` : `${p.name} ${text}` };
      values[p.name] = value;
    }
    return { ok: true, values };
  };
}
