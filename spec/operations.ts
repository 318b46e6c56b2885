/**
 * The operations of the spec as plain data, with every `$ref` resolved: what
 * the server routes and validates by, and what the suite generates from.
 * Adding a parameter, a limit or a response to `openapi.ts` changes these
 * descriptors and nothing else needs editing.
 */
import { openapi } from './openapi.js';

/** A JSON Schema with its `$ref`s resolved; loosely typed because it is walked at run time. */
export type Schema = { readonly [key: string]: unknown };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ParameterDescriptor {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly required: boolean;
  readonly schema: Schema;
}

export interface ResponseDescriptor {
  readonly status: number;
  readonly description: string;
  /** Schema of the `application/json` body, when the response has one. */
  readonly schema?: Schema;
  /** The names of the headers the response declares, lower-cased. */
  readonly headers: readonly string[];
}

export interface OperationDescriptor {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path template relative to the base address, such as `/pets/{petId}`. */
  readonly path: string;
  readonly parameters: readonly ParameterDescriptor[];
  readonly requestBody?: { readonly required: boolean; readonly schema: Schema };
  readonly responses: readonly ResponseDescriptor[];
  readonly deprecated: boolean;
  /** The removal date of a deprecated operation (`x-sunset`). */
  readonly sunset?: Date;
  /** The operationId that replaces a deprecated operation (`x-replacement`). */
  readonly replacement?: string;
  /** Whether the operation requires the bearer scheme. */
  readonly requiresAuth: boolean;
}

type Document = { readonly [key: string]: unknown };

/** Follows a local JSON pointer (`#/components/schemas/Pet`) within the document. */
export function resolvePointer(document: Document, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => {
      const next = (node as Document | undefined)?.[part];
      if (next === undefined) throw new Error(`unresolved $ref ${ref}`);
      return next;
    }, document);
}

/** A deep copy of `node` with every `$ref` replaced by what it points to. */
export function derefAll<T>(document: Document, node: T, seen: readonly string[] = []): T {
  if (Array.isArray(node)) return node.map((item) => derefAll(document, item, seen)) as T;
  if (node === null || typeof node !== 'object') return node;
  const ref = (node as Document)['$ref'];
  if (typeof ref === 'string') {
    if (seen.includes(ref)) throw new Error(`circular $ref ${ref}`);
    return derefAll(document, resolvePointer(document, ref), [...seen, ref]) as T;
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, derefAll(document, value, seen)])) as T;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Every operation of an OpenAPI 3.1 document, resolved. */
export function describeOperations(document: Document): OperationDescriptor[] {
  const resolved = derefAll(document, document) as typeof openapi;
  const globalSecurity = (resolved as Document)['security'] as readonly unknown[] | undefined;
  const result: OperationDescriptor[] = [];
  for (const [path, item] of Object.entries(resolved.paths as Record<string, Record<string, Document>>)) {
    for (const method of METHODS) {
      const op = item[method.toLowerCase()];
      if (!op) continue;
      const parameters = ((op['parameters'] ?? []) as ParameterDescriptor[]).map((p) => ({
        name: p.name,
        in: p.in,
        required: p.required === true,
        schema: p.schema,
      }));
      const body = op['requestBody'] as { required?: boolean; content?: Record<string, { schema: Schema }> } | undefined;
      const bodySchema = body?.content?.['application/json']?.schema;
      const responses = Object.entries((op['responses'] ?? {}) as Record<string, Document>).map(([status, response]) => {
        const schema = (response['content'] as Record<string, { schema?: Schema }> | undefined)?.['application/json']?.schema;
        return {
          status: Number(status),
          description: String(response['description'] ?? ''),
          ...(schema ? { schema } : {}),
          headers: Object.keys((response['headers'] ?? {}) as Document).map((name) => name.toLowerCase()),
        };
      });
      const security = (op['security'] ?? globalSecurity ?? []) as readonly object[];
      const sunset = op['x-sunset'];
      const replacement = op['x-replacement'];
      result.push({
        operationId: String(op['operationId']),
        method,
        path,
        parameters,
        ...(bodySchema ? { requestBody: { required: body?.required === true, schema: bodySchema } } : {}),
        responses,
        deprecated: op['deprecated'] === true,
        ...(typeof sunset === 'string' ? { sunset: new Date(sunset) } : {}),
        ...(typeof replacement === 'string' ? { replacement } : {}),
        requiresAuth: security.some((requirement) => Object.keys(requirement).length > 0),
      });
    }
  }
  return result;
}

/** The operations of this project's spec. */
export const operations: readonly OperationDescriptor[] = describeOperations(openapi);

/** A named schema of this project's spec, resolved. */
export function componentSchema(name: keyof typeof openapi.components.schemas): Schema {
  return derefAll(openapi, openapi.components.schemas[name]) as Schema;
}

export function operationById(operationId: string): OperationDescriptor {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`the spec has no operation ${operationId}`);
  return op;
}
