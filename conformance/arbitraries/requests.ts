/**
 * Request parts generated from an operation's descriptor: bodies valid and
 * invalid, query parameters in and out of their rules, path ids across the
 * int64 range, and credentials that must be refused.
 */
import fc from 'fast-check';
import type { OperationDescriptor, ParameterDescriptor, Schema } from '../../spec/operations.js';
import { stringifyJson, type JsonObject, type JsonValue } from '../../spec/json/index.js';
import { basicCredentials, replaceAt, replaceMiddle, swapCase } from '../key-forms.js';
import { integerArbitrary, integerRange, invalidValues, objectArbitrary, valueArbitrary } from './schema.js';

export interface GeneratedBody {
  readonly label: string;
  /** The JSON value the text holds; absent when the text is not JSON (malformed, empty). */
  readonly value?: JsonValue;
  /** The exact text sent. */
  readonly text: string;
}

function bodySchema(op: OperationDescriptor): Schema {
  if (!op.requestBody) throw new Error(`${op.operationId} has no request body`);
  return op.requestBody.schema;
}

/**
 * The property that carries the run's recognisable prefix: the first
 * required string property of the body (a NewPet's `name`).
 */
export function markedProperty(schema: Schema): string | undefined {
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  return ((schema['required'] ?? []) as string[]).find((name) => properties[name]?.['type'] === 'string');
}

/** Bodies the schema accepts, with the prefix on the marked property. */
export function validBody(op: OperationDescriptor, prefix: string): fc.Arbitrary<GeneratedBody> {
  const schema = bodySchema(op);
  const marked = markedProperty(schema);
  return objectArbitrary(marked ? withRoomForPrefix(schema, marked, prefix) : schema).map((value) => {
    if (marked && typeof value[marked] === 'string') value[marked] = prefix + (value[marked] as string);
    return { label: 'a valid body', value, text: stringifyJson(value) };
  });
}

/** The run's one valid body for `seed`: the same on every call, so scenarios that start from it are repeatable. */
export function sampleValidBody(op: OperationDescriptor, prefix: string, seed: number): GeneratedBody {
  return fc.sample(validBody(op, prefix), { numRuns: 1, seed })[0]!;
}

/** `body` with only the properties the operation's schema requires (a NewPet without status). */
export function requiredOnly(op: OperationDescriptor, body: GeneratedBody): GeneratedBody {
  const required = (bodySchema(op)['required'] ?? []) as string[];
  const value = Object.fromEntries(Object.entries(body.value as JsonObject).filter(([name]) => required.includes(name)));
  return { label: 'a valid body without its optional properties', value, text: stringifyJson(value) };
}

/**
 * The marked property (a NewPet's `name`) when the spec leaves its length
 * unbounded, as the seed does (§8: its maximum length is not shown). When the
 * spec bounds it, a longer one is simply invalid, and the invalid bodies
 * cover it.
 */
export function unboundedMarkedProperty(op: OperationDescriptor): string | undefined {
  const schema = bodySchema(op);
  const marked = markedProperty(schema);
  return marked && typeof (schema['properties'] as Record<string, Schema>)[marked]!['maxLength'] !== 'number' ? marked : undefined;
}

/** `base` with its `marked` property `length` characters long, the prefix included. */
export function withLongMarked(base: JsonObject, marked: string, prefix: string, length: number): GeneratedBody & { value: JsonObject } {
  const value = { ...base, [marked]: prefix + 'x'.repeat(Math.max(0, length - [...prefix].length)) };
  return { label: `${marked} of ${length} characters`, value, text: stringifyJson(value) };
}

/** The longest name the run generates when the spec sets no maximum, its prefix and run token included. */
export const GENERATED_NAME_CODE_POINTS = 32;

/**
 * The schema with the marked property's length bounds less the prefix, so
 * that prefix + generated text keeps them (in code points, as JSON Schema
 * counts): the spec's bounds, or GENERATED_NAME_CODE_POINTS when it sets none.
 */
function withRoomForPrefix(schema: Schema, marked: string, prefix: string): Schema {
  const properties = schema['properties'] as Record<string, Schema>;
  const property = properties[marked]!;
  const used = [...prefix].length;
  const room: Record<string, unknown> = { ...property };
  // Unbounded, a generated name still fits any usual column (docs/decisions.md D16), whatever the prefix holds.
  room['maxLength'] = Math.max(0, (typeof property['maxLength'] === 'number' ? property['maxLength'] : GENERATED_NAME_CODE_POINTS) - used);
  if (typeof property['minLength'] === 'number') room['minLength'] = Math.max(0, property['minLength'] - used);
  return { ...schema, properties: { ...properties, [marked]: room } };
}

function without(object: JsonObject, name: string): JsonObject {
  const copy: JsonObject = { ...object };
  delete copy[name];
  return copy;
}

type Mutation = { label: string; apply: (body: JsonObject) => JsonValue | { raw: string } };

/** Every class of invalid body the schema implies, as a change to an otherwise valid body. */
function invalidBodyClasses(op: OperationDescriptor): Mutation[] {
  const schema = bodySchema(op);
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const required = (schema['required'] ?? []) as string[];
  return [
    ...required.map((name) => ({ label: `missing required property ${name}`, apply: (b: JsonObject) => without(b, name) })),
    ...Object.entries(properties).flatMap(([name, sub]) =>
      invalidValues(sub).map(({ label, value }) => ({ label: `${name}: ${label}`, apply: (b: JsonObject) => ({ ...b, [name]: value }) })),
    ),
    { label: 'an empty object', apply: () => ({}) },
    { label: 'a JSON array instead of an object', apply: (b) => [b] },
    { label: 'a JSON string instead of an object', apply: () => 'pet' },
    { label: 'a JSON number instead of an object', apply: () => 1n },
    { label: 'JSON null instead of an object', apply: () => null },
    { label: 'JSON true instead of an object', apply: () => true },
    { label: 'malformed JSON: truncated', apply: (b) => ({ raw: stringifyJson(b).slice(0, -1) }) },
    { label: 'malformed JSON: trailing comma', apply: (b) => ({ raw: `${stringifyJson(b).slice(0, -1)},}` }) },
    { label: 'malformed JSON: single quotes', apply: (b) => ({ raw: stringifyJson(b).replace(/"/g, "'") }) },
    { label: 'malformed JSON: not JSON at all', apply: () => ({ raw: 'name=Rex&categoryId=1' }) },
    { label: 'an empty body', apply: () => ({ raw: '' }) },
  ];
}

function applyMutation(body: JsonObject, mutation: Mutation): GeneratedBody {
  const result = mutation.apply(body);
  if (result !== null && typeof result === 'object' && 'raw' in result && typeof result.raw === 'string') {
    return { label: mutation.label, text: result.raw };
  }
  const value = result as JsonValue;
  return { label: mutation.label, value, text: stringifyJson(value) };
}

/** Invalid bodies of every class, each on top of an otherwise valid body. */
export function invalidBody(op: OperationDescriptor, prefix: string): fc.Arbitrary<GeneratedBody> {
  return fc
    .tuple(validBody(op, prefix), fc.constantFrom(...invalidBodyClasses(op)))
    .map(([body, mutation]) => applyMutation(body.value as JsonObject, mutation));
}

/** One invalid body of each class (on one valid body from `seed`): run first, so no class is left to chance. */
export function invalidBodyExamples(op: OperationDescriptor, prefix: string, seed: number): GeneratedBody[] {
  const base = sampleValidBody(op, prefix, seed);
  return invalidBodyClasses(op).map((mutation) => applyMutation(base.value as JsonObject, mutation));
}

export function queryParameters(op: OperationDescriptor): ParameterDescriptor[] {
  return op.parameters.filter((p) => p.in === 'query');
}

/** A query string of valid values; each optional parameter is sometimes left out. */
export function validQuery(op: OperationDescriptor): fc.Arbitrary<Record<string, string>> {
  const model = Object.fromEntries(queryParameters(op).map((p) => [p.name, valueArbitrary(p.schema).map(String)]));
  const required = queryParameters(op)
    .filter((p) => p.required)
    .map((p) => p.name);
  return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, string>>;
}

/** Texts a query parameter's schema rejects. */
export function invalidParameterTexts(parameter: ParameterDescriptor): { label: string; text: string }[] {
  const schema = parameter.schema;
  const out: { label: string; text: string }[] = [];
  if (schema['type'] === 'integer') {
    const [min, max] = integerRange(schema);
    out.push(
      { label: `below the minimum (${min - 1n})`, text: String(min - 1n) },
      { label: `above the maximum (${max + 1n})`, text: String(max + 1n) },
      { label: 'not a number', text: 'abc' },
      { label: 'a number with a fraction', text: '1.5' },
      { label: 'empty', text: '' },
      { label: 'far beyond int64', text: '99999999999999999999999' },
    );
    if (min > -(2n ** 63n)) out.push({ label: 'negative', text: '-1' });
  } else {
    for (const { label, value } of invalidValues(schema)) if (typeof value === 'string') out.push({ label, text: value });
  }
  return out;
}

export function queryString(query: Record<string, string>): string {
  const entries = Object.entries(query);
  return entries.length === 0 ? '' : `?${entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

/** Fills a path template such as `/pets/{petId}`. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''));
}

/** Values for a path parameter across its whole schema (int64 extremes included). */
export function pathValue(parameter: ParameterDescriptor): fc.Arbitrary<string> {
  if (parameter.schema['type'] === 'integer') return integerArbitrary(parameter.schema).map(String);
  return valueArbitrary(parameter.schema).map(String);
}

/**
 * Authorization headers that carry no acceptable credential (`null`: no
 * header at all), each labelled. Derived from the key so that near misses
 * (a prefix, a suffix, another scheme) are tried, never the key itself.
 */
export function refusedAuthorization(apiKey: string): fc.Arbitrary<{ label: string; header: string | null }> {
  const near = refusedAuthorizationExamples(apiKey);
  // RFC 6750 b64token characters.
  const randomWrong = fc
    .array(fc.constantFrom(...B64TOKEN_CHARS), { minLength: 1, maxLength: 40 })
    .map((chars) => chars.join(''))
    .filter((token) => token !== apiKey)
    .map((token) => ({ label: 'a random wrong key', header: `Bearer ${token}` }));
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...near) }, { weight: 1, arbitrary: randomWrong });
}

/** The near misses of the key, each labelled: every one is tried on every operation. */
export function refusedAuthorizationExamples(apiKey: string): { label: string; header: string | null }[] {
  return [
    { label: 'no Authorization header', header: null },
    { label: 'an empty Authorization header', header: '' },
    { label: 'the Bearer scheme with no token', header: 'Bearer' },
    { label: 'the key without a scheme', header: apiKey },
    { label: 'the key with the Basic scheme', header: `Basic ${basicCredentials(apiKey)}` },
    { label: 'the key with another scheme', header: `Token ${apiKey}` },
    { label: 'the key with a character appended', header: `Bearer ${apiKey}x` },
    { label: 'the key with a character prepended', header: `Bearer x${apiKey}` },
    { label: 'the key without its last character', header: `Bearer ${apiKey.slice(0, -1)}` },
    { label: 'the key with a character inside it replaced', header: `Bearer ${replaceMiddle(apiKey)}` },
    // A comparison loop one character short at either end takes these (ignores-key-*-character).
    { label: 'the key with its first character replaced', header: `Bearer ${replaceAt(apiKey, 0)}` },
    { label: 'the key with its last character replaced', header: `Bearer ${replaceAt(apiKey, -1)}` },
    { label: 'the key followed by more text after a space', header: `Bearer ${apiKey} x` },
    { label: 'a key that differs in case', header: `Bearer ${swapCase(apiKey)}` },
    { label: 'a wrong key', header: 'Bearer wrong-key-0000' },
    // RFC 9110 §11.4, RFC 6750 §2.1: the scheme is the first token of the field, and nothing else.
    { label: 'the key after a scheme that ends in "bearer" (XBearer)', header: `XBearer ${apiKey}` },
    { label: 'the key after a scheme that starts with "bearer" (BearerX)', header: `BearerX ${apiKey}` },
    { label: 'the key after "Basic bearer"', header: `Basic bearer ${apiKey}` },
  ].filter((c) => c.header === null || c.header.trim() !== `Bearer ${apiKey}`);
}

const B64TOKEN_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'];
