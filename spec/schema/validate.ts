/**
 * A JSON Schema validator for the keywords the spec uses, compiled once at
 * start-up into plain closures so that a request costs a few comparisons.
 *
 * It validates values from `parseJson`, where an integer is a `bigint` and
 * only a number with a fraction is a `number`: `type: integer` therefore
 * means "a bigint", and `format: int64` is checked exactly, digit for digit.
 *
 * Keywords: type, enum, const, required, properties, additionalProperties
 * (false or a schema), items, minItems, maxItems, minimum, maximum,
 * exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, and the
 * formats int32 and int64. A keyword outside this list makes `compileSchema`
 * throw, so a spec change can never be silently unvalidated.
 */
import type { JsonValue } from '../json/index.js';
import type { Schema } from '../operations.js';

export interface SchemaIssue {
  /** Where the problem is: `categoryId`, `tags[2]`, or `` for the value itself. */
  readonly path: string;
  /** A sentence that names the field: "categoryId must be an integer". */
  readonly message: string;
}

export type Validator = (value: JsonValue | undefined, path?: string) => SchemaIssue | undefined;

const INT_RANGES: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
]);

function label(path: string): string {
  return path === '' ? 'the value' : path;
}

function typeOf(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'integer';
  return typeof value;
}

function matchesType(value: JsonValue, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'bigint';
    case 'number':
      return typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value));
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** What a checker says of a value: the value as the type its schema describes, or the first issue. */
export type Checked<T> = { ok: true; value: T } | { ok: false; issue: SchemaIssue };

/**
 * A validator that narrows: `T` is the type the schema describes (from
 * FromSchema), and a value it passes is returned as one. The one place that
 * asserts the type is the one that has just proven it.
 */
export function compileChecker<T>(schema: Schema): (value: JsonValue | undefined) => Checked<T> {
  const validate = compileSchema(schema);
  return (value) => {
    const issue = validate(value);
    return issue === undefined ? { ok: true, value: value as T } : { ok: false, issue };
  };
}

export function compileSchema(schema: Schema): Validator {
  for (const key of Object.keys(schema)) {
    if (!HANDLED.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-')) {
      throw new Error(`compileSchema: the keyword "${key}" is not supported`);
    }
  }
  // In the order an issue is reported: what the value is, then its bounds, then what it holds.
  const checks = [...valueChecks(schema), ...numberChecks(schema), ...stringChecks(schema), ...objectChecks(schema), ...arrayChecks(schema)];

  return (value, path = '') => {
    if (value === undefined) return { path, message: `${label(path)} is required` };
    for (const check of checks) {
      const issue = check(value, path);
      if (issue) return issue;
    }
    return undefined;
  };
}

/** type, enum, const and an integer format's range. */
function valueChecks(schema: Schema): Validator[] {
  const checks: Validator[] = [];
  const type = schema['type'];
  if (type !== undefined) {
    const types = (Array.isArray(type) ? type : [type]) as string[];
    const expected = types.map(article).join(' or ');
    checks.push((value, path = '') => {
      for (const t of types) if (matchesType(value as JsonValue, t)) return undefined;
      return { path, message: `${label(path)} must be ${expected}, got ${typeOf(value as JsonValue)}` };
    });
  }

  const enumValues = schema['enum'] as readonly JsonValue[] | undefined;
  if (enumValues) {
    const list = enumValues.map((v) => String(v)).join(', ');
    checks.push((value, path = '') =>
      enumValues.some((allowed) => allowed === value) ? undefined : { path, message: `${label(path)} must be one of: ${list}` },
    );
  }

  if ('const' in schema) {
    const expected = schema['const'] as JsonValue;
    checks.push((value, path = '') => (value === expected ? undefined : { path, message: `${label(path)} must be ${JSON.stringify(expected)}` }));
  }

  const format = schema['format'];
  if (typeof format === 'string' && format in INT_RANGES) {
    const [min, max] = INT_RANGES[format] as readonly [bigint, bigint];
    checks.push((value, path = '') =>
      typeof value === 'bigint' && (value < min || value > max)
        ? { path, message: `${label(path)} must be within the ${format} range (${min} to ${max})` }
        : undefined,
    );
  }
  return checks;
}

/** minimum, maximum and their exclusive forms, on numbers and bigints alike. */
function numberChecks(schema: Schema): Validator[] {
  const checks: Validator[] = [];
  for (const [keyword, fails, words] of [
    ['minimum', (v: number | bigint, b: number) => v < b, 'at least'],
    ['maximum', (v: number | bigint, b: number) => v > b, 'at most'],
    ['exclusiveMinimum', (v: number | bigint, b: number) => v <= b, 'greater than'],
    ['exclusiveMaximum', (v: number | bigint, b: number) => v >= b, 'less than'],
  ] as const) {
    const bound = schema[keyword];
    if (typeof bound !== 'number') continue;
    checks.push((value, path = '') =>
      (typeof value === 'bigint' || typeof value === 'number') && fails(value, bound)
        ? { path, message: `${label(path)} must be ${words} ${bound}` }
        : undefined,
    );
  }
  return checks;
}

/** minLength, maxLength (in code points) and pattern. */
function stringChecks(schema: Schema): Validator[] {
  const checks: Validator[] = [];
  const minLength = schema['minLength'];
  const maxLength = schema['maxLength'];
  if (typeof minLength === 'number' || typeof maxLength === 'number') {
    checks.push((value, path = '') => {
      if (typeof value !== 'string') return undefined;
      // JSON Schema counts code points, not UTF-16 units.
      const length = [...value].length;
      if (typeof minLength === 'number' && length < minLength) return { path, message: `${label(path)} must have at least ${minLength} characters` };
      if (typeof maxLength === 'number' && length > maxLength) return { path, message: `${label(path)} must have at most ${maxLength} characters` };
      return undefined;
    });
  }

  const pattern = schema['pattern'];
  if (typeof pattern === 'string') {
    const regex = new RegExp(pattern, 'u');
    checks.push((value, path = '') =>
      typeof value === 'string' && !regex.test(value) ? { path, message: `${label(path)} must match ${pattern}` } : undefined,
    );
  }
  return checks;
}

/** required, properties and additionalProperties. */
function objectChecks(schema: Schema): Validator[] {
  const checks: Validator[] = [];
  const required = (schema['required'] ?? []) as readonly string[];
  const properties = Object.entries((schema['properties'] ?? {}) as Record<string, Schema>).map(([name, sub]) => [name, compileSchema(sub)] as const);
  const additional = schema['additionalProperties'];
  const additionalCheck = additional && typeof additional === 'object' ? compileSchema(additional as Schema) : undefined;
  const known = new Set(properties.map(([name]) => name));
  if (required.length || properties.length || additional !== undefined) {
    checks.push((value, path = '') => {
      if (!matchesType(value as JsonValue, 'object')) return undefined;
      const object = value as { [key: string]: JsonValue };
      const prefix = path === '' ? '' : `${path}.`;
      for (const name of required) {
        if (!Object.hasOwn(object, name)) return { path: prefix + name, message: `${prefix + name} is required` };
      }
      for (const [name, check] of properties) {
        if (!Object.hasOwn(object, name)) continue;
        const issue = check(object[name], prefix + name);
        if (issue) return issue;
      }
      if (additional === false || additionalCheck) {
        for (const name of Object.keys(object)) {
          if (known.has(name)) continue;
          if (additional === false) return { path: prefix + name, message: `${prefix + name} is not an allowed property` };
          const issue = additionalCheck?.(object[name], prefix + name);
          if (issue) return issue;
        }
      }
      return undefined;
    });
  }
  return checks;
}

/** items, minItems and maxItems. */
function arrayChecks(schema: Schema): Validator[] {
  const checks: Validator[] = [];
  const items = schema['items'];
  const itemCheck = items && typeof items === 'object' ? compileSchema(items as Schema) : undefined;
  const minItems = schema['minItems'];
  const maxItems = schema['maxItems'];
  if (itemCheck || typeof minItems === 'number' || typeof maxItems === 'number') {
    checks.push((value, path = '') => {
      if (!Array.isArray(value)) return undefined;
      if (typeof minItems === 'number' && value.length < minItems) return { path, message: `${label(path)} must have at least ${minItems} items` };
      if (typeof maxItems === 'number' && value.length > maxItems) return { path, message: `${label(path)} must have at most ${maxItems} items` };
      if (itemCheck) {
        for (let i = 0; i < value.length; i++) {
          const issue = itemCheck(value[i], `${path}[${i}]`);
          if (issue) return issue;
        }
      }
      return undefined;
    });
  }
  return checks;
}
