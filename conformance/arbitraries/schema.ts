/**
 * fast-check arbitraries derived from JSON Schemas of the spec: values that a
 * schema accepts, and labelled values that it rejects. Nothing here names a
 * field of the interface; change a schema and the generated cases follow.
 * Integers are `bigint` so that int64 extremes are generated exactly.
 */
import fc from 'fast-check';
import type { Schema } from '../../spec/operations.js';
import type { JsonObject, JsonValue } from '../../spec/json/index.js';

const INT_RANGES: Record<string, readonly [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
};

/** The inclusive integer range a schema allows, from its format and bounds. */
export function integerRange(schema: Schema): [bigint, bigint] {
  const [fmin, fmax] = INT_RANGES[String(schema['format'])] ?? INT_RANGES['int64']!;
  let min = fmin;
  let max = fmax;
  if (typeof schema['minimum'] === 'number') min = BigInt(Math.ceil(schema['minimum'] as number));
  if (typeof schema['maximum'] === 'number') max = BigInt(Math.floor(schema['maximum'] as number));
  if (typeof schema['exclusiveMinimum'] === 'number') min = BigInt(Math.floor(schema['exclusiveMinimum'] as number)) + 1n;
  if (typeof schema['exclusiveMaximum'] === 'number') max = BigInt(Math.ceil(schema['exclusiveMaximum'] as number)) - 1n;
  return [min, max];
}

/** Integers across the whole range, with its edges and the 2^53 boundary where JSON.parse starts losing digits. */
export function integerArbitrary(schema: Schema): fc.Arbitrary<bigint> {
  const [min, max] = integerRange(schema);
  const edges = [min, max, min + 1n, max - 1n, 0n, 1n, -1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n].filter((v) => v >= min && v <= max);
  return fc.oneof(
    { weight: 3, arbitrary: fc.bigInt({ min, max }) },
    { weight: 1, arbitrary: fc.constantFrom(...new Set(edges)) },
    { weight: 2, arbitrary: fc.bigInt({ min: min > -1000n ? min : -1000n, max: max < 1000n ? max : 1000n }) },
  );
}

/**
 * Pieces of text that break naive implementations: white space at the edges
 * (trimmed by mistake), combining marks and ZWJ sequences (normalised or cut
 * by mistake), astral-plane characters (UTF-16 surrogate pairs), right-to-left
 * text, quotes and backslashes (escaping), NUL and other control characters,
 * a byte order mark, case that a careless store folds.
 */
const TRICKY_PIECES = [
  ' ',
  '  ',
  '\t',
  '\n',
  'e\u0301',
  '\u0041\u030a',
  '🐢',
  '👩‍👩‍👧',
  '𝔘',
  'שלום',
  'مرحبا',
  '\u200b',
  '\u0000',
  '"',
  '\\',
  "'",
  '\ufeff',
  'ÀÉÎ',
  'ß',
  'İ',
  'Rex',
  'x',
];

/** A Unicode scalar value: any code point but the surrogates. */
const unicodeScalar = fc.integer({ min: 0, max: 0x10ffff - 0x800 }).map((n) => (n >= 0xd800 ? n + 0x800 : n));

// Arbitraries are immutable: one per set of constraints is enough.
const stringArbitraries = new Map<string, fc.Arbitrary<string>>();

/** Strings a schema accepts: ASCII, any Unicode scalar (astral planes included), and tricky pieces joined. */
export function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const key = JSON.stringify([schema['minLength'], schema['maxLength'], schema['pattern']]);
  let arbitrary = stringArbitraries.get(key);
  if (!arbitrary) stringArbitraries.set(key, (arbitrary = buildStringArbitrary(schema)));
  return arbitrary;
}

function buildStringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = typeof schema['minLength'] === 'number' ? (schema['minLength'] as number) : 0;
  const maxLength = typeof schema['maxLength'] === 'number' ? (schema['maxLength'] as number) : Math.max(minLength, 24);
  const constraints = { minLength, maxLength };
  const codePoints = (s: string) => [...s].length;
  const arbitrary = fc.oneof(
    fc.string(constraints),
    // Any Unicode scalar value, astral planes included. (fc's `unit: 'binary'`
    // does the same but maps all 1.1M code points up front, about a second.)
    fc.array(unicodeScalar, constraints).map((points) => String.fromCodePoint(...points)),
    fc
      .array(fc.constantFrom(...TRICKY_PIECES), { maxLength: 6 })
      .map((pieces) => pieces.join(''))
      .filter((s) => codePoints(s) >= minLength && codePoints(s) <= maxLength),
  );
  const pattern = schema['pattern'];
  if (typeof pattern !== 'string') return arbitrary;
  const regex = new RegExp(pattern, 'u');
  return fc.stringMatching(regex).filter((s) => codePoints(s) >= minLength && codePoints(s) <= maxLength);
}

/** Values the schema accepts. Optional properties are sometimes absent. */
export function valueArbitrary(schema: Schema): fc.Arbitrary<JsonValue> {
  const enumValues = schema['enum'] as readonly JsonValue[] | undefined;
  if (enumValues) return fc.constantFrom(...enumValues);
  if ('const' in schema) return fc.constant(schema['const'] as JsonValue);
  const type = Array.isArray(schema['type']) ? (schema['type'] as string[])[0] : (schema['type'] as string | undefined);
  switch (type) {
    case 'integer':
      return integerArbitrary(schema);
    case 'number':
      return fc.oneof(integerArbitrary(schema), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'string':
      return stringArbitrary(schema);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueArbitrary((schema['items'] ?? {}) as Schema), {
        minLength: (schema['minItems'] as number | undefined) ?? 0,
        maxLength: (schema['maxItems'] as number | undefined) ?? 5,
      });
    case 'object':
      return objectArbitrary(schema);
    default:
      return fc.constant(null);
  }
}

export function objectArbitrary(schema: Schema): fc.Arbitrary<JsonObject> {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const required = (schema['required'] ?? []) as string[];
  const model = Object.fromEntries(Object.entries(properties).map(([name, sub]) => [name, valueArbitrary(sub)]));
  return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<JsonObject>;
}

export interface LabelledValue {
  /** What is wrong with it: "categoryId: a numeric string". */
  readonly label: string;
  readonly value: JsonValue;
}

/** Values a schema rejects, each with what makes it wrong. Derived from type, enum, format and bounds. */
export function invalidValues(schema: Schema): LabelledValue[] {
  const out: LabelledValue[] = [];
  const enumValues = schema['enum'] as readonly JsonValue[] | undefined;
  const type = schema['type'] as string | undefined;
  const otherTypes: (LabelledValue & { type: string })[] = [
    { type: 'null', label: 'null', value: null },
    { type: 'boolean', label: 'a boolean', value: true },
    { type: 'array', label: 'an array', value: [] },
    { type: 'object', label: 'an object', value: {} },
  ];
  if (enumValues) {
    const first = String(enumValues[0]);
    out.push(
      { label: 'a string outside the enum', value: 'not-a-valid-value' },
      { label: 'an enum value in other case', value: first.toUpperCase() === first ? first.toLowerCase() : first.toUpperCase() },
      { label: 'an empty string', value: '' },
    );
    if (type !== 'integer') out.push({ label: 'a number', value: 1n });
  }
  switch (type) {
    case 'string':
      out.push({ label: 'a number', value: 5n });
      break;
    case 'integer': {
      const [min, max] = integerRange(schema);
      out.push(
        { label: 'a numeric string', value: '1' },
        { label: 'a number with a fraction', value: 1.5 },
        { label: `an integer above the maximum (${max + 1n})`, value: max + 1n },
        { label: `an integer below the minimum (${min - 1n})`, value: min - 1n },
      );
      break;
    }
    case 'number':
      out.push({ label: 'a numeric string', value: '1' });
      break;
  }
  const minLength = schema['minLength'];
  if (typeof minLength === 'number' && minLength > 0) out.push({ label: `a string shorter than ${minLength}`, value: 'x'.repeat(minLength - 1) });
  const maxLength = schema['maxLength'];
  if (typeof maxLength === 'number') out.push({ label: `a string longer than ${maxLength}`, value: 'x'.repeat(maxLength + 1) });
  for (const { type: t, label, value } of otherTypes) if (t !== type) out.push({ label, value });
  return out;
}
