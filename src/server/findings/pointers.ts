/**
 * Where in spec/openapi.json each finding's rule lives (RFC 6901 JSON
 * pointers), the seed's section for it, and what a schema expects, said in a
 * client developer's words. Read from the spec, so a parameter or field
 * added there is named here without an edit.
 */
import { openapi } from '../../../spec/openapi.js';
import type { OperationDescriptor, Schema } from '../../../spec/operations.js';

/** RFC 6901 §3: `~` and `/` escaped within a reference token. */
export function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export const AUTH_RULE = '/components/securitySchemes/bearerAuth';
export const PATHS_RULE = '/paths';
export const AUTH_SEED = '§5 Authentication';

/** The seed's section of each operation of the spec. */
const SEED_SECTIONS: Record<string, string> = {
  listPets: '§4.1 List animals',
  createPet: '§4.2 Add an animal',
  getPet: '§4.3 Get an animal',
};

export function seedSection(op: OperationDescriptor): string {
  return SEED_SECTIONS[op.operationId] ?? '§4 Endpoints';
}

export function operationRule(op: OperationDescriptor): string {
  return `/paths/${pointerToken(op.path)}/${op.method.toLowerCase()}`;
}

export function pathRule(path: string): string {
  return `/paths/${pointerToken(path)}`;
}

/** A parameter by its place in the operation's list, as the document has it. */
export function parameterRule(op: OperationDescriptor, name: string): string {
  const index = op.parameters.findIndex((p) => p.name === name);
  return index === -1 ? `${operationRule(op)}/parameters` : `${operationRule(op)}/parameters/${index}`;
}

/**
 * The schema of the operation's JSON body: the component it refers to
 * (`/components/schemas/NewPet`) when it is a `$ref`, so a field's rule is
 * where the field is declared.
 */
export function bodySchemaRule(op: OperationDescriptor): string {
  const at = `${operationRule(op)}/requestBody/content/application~1json/schema`;
  const paths = openapi.paths as unknown as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } }>>;
  const ref = paths[op.path]?.[op.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema?.$ref;
  return ref?.startsWith('#/') ? ref.slice(1) : at;
}

/** A body field's rule: its declaration, or the schema's `required` list when it is missing, or its `properties` when it is unknown. */
export function bodyFieldRule(op: OperationDescriptor, field: string | undefined, kind: 'declared' | 'required' | 'unknown'): string {
  const schema = bodySchemaRule(op);
  if (kind === 'required') return `${schema}/required`;
  if (kind === 'unknown' || field === undefined) return `${schema}/properties`;
  return `${schema}/properties/${pointerToken(field)}`;
}

/** What a value of `schema` must be, as a sentence's object: "an integer from 1 to 100". */
export function describeSchema(schema: Schema | undefined): string {
  if (!schema) return 'a value the spec allows';
  const values = schema['enum'] as readonly unknown[] | undefined;
  if (values) return `one of ${values.map(String).join(', ')}`;
  const type = schema['type'];
  if (type === 'integer') {
    const min = schema['minimum'];
    const max = schema['maximum'];
    const range = min !== undefined && max !== undefined ? ` from ${min} to ${max}` : '';
    const kind = schema['format'] === 'int64' ? 'an int64 integer (its digits exactly, at most 9223372036854775807)' : 'an integer';
    const fallback = schema['default'] !== undefined ? ` (${schema['default']} when not given)` : '';
    return `${kind}${range}${fallback}`;
  }
  if (type === 'string') return 'a string';
  if (type === 'object') {
    const properties = Object.keys((schema['properties'] ?? {}) as object);
    const required = (schema['required'] ?? []) as readonly string[];
    const fields = properties.map((name) => `${name}${required.includes(name) ? '' : ' (optional)'}`);
    return `a JSON object with ${fields.join(', ')}`;
  }
  return typeof type === 'string' ? `a value of type ${type}` : 'a value the spec allows';
}
