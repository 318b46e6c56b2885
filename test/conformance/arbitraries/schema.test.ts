// The generators follow the spec (conformance/arbitraries): valid bodies are
// NewPets by the spec's own schema, invalid ones are not, the int64 edges and
// astral-plane names are really generated, and a change to the document
// changes what is generated. Every sample uses a fixed seed.
import fc from 'fast-check';
import t from 'tap';
import { invalidBody, invalidBodyExamples, invalidParameterTexts, pathValue, validBody, validQuery } from '../../../conformance/arbitraries/requests.js';
import { runConformance } from '../../../conformance/index.js';
import { openapi } from '../../../spec/openapi.js';
import { componentSchema, describeOperations, operationById, type OperationDescriptor } from '../../../spec/operations.js';
import { parseJson, type JsonObject, type JsonValue } from '../../../spec/json/index.js';
import { compileSchema } from '../../../spec/schema/validate.js';
import { createServer } from '../../../src/server/index.js';

const SEED = 20240607;
const PREFIX = 'conform-';
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const createPet = operationById('createPet');
const listPets = operationById('listPets');
const getPet = operationById('getPet');
const isNewPet = compileSchema(componentSchema('NewPet'));

const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns = 2000): T[] => fc.sample(arbitrary, { numRuns, seed: SEED });

/** A deep copy of the spec document, changed by `edit`, and its operations. */
function modifiedSpec(edit: (doc: any) => void): { doc: any; operations: OperationDescriptor[] } {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const doc = structuredClone(openapi) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  edit(doc);
  return { doc, operations: describeOperations(doc) };
}

const byId = (operations: readonly OperationDescriptor[], id: string) => operations.find((o) => o.operationId === id)!;

/** The code points of a string beyond the Basic Multilingual Plane. */
const astral = (text: string) => [...text].filter((c) => c.codePointAt(0)! > 0xffff);

t.test('every validBody is a NewPet by the spec schema, sent as exactly that JSON, its name prefixed', async (t) => {
  const bodies = sample(validBody(createPet, PREFIX));
  const problems: string[] = [];
  for (const body of bodies) {
    const issue = isNewPet(body.value as JsonValue);
    if (issue) problems.push(`${body.text}: ${issue.message}`);
    const parsed = parseJson(body.text);
    if (!parsed.ok || isNewPet(parsed.value)) problems.push(`${body.text}: the text sent is not that NewPet`);
    if (!((body.value as JsonObject)['name'] as string).startsWith(PREFIX)) problems.push(`${body.text}: no prefix`);
  }
  t.strictSame(problems.slice(0, 10), [], `${problems.length} of ${bodies.length} bodies are wrong`);
  t.ok(
    bodies.some((b) => (b.value as JsonObject)['status'] === undefined),
    'the optional status is sometimes left out',
  );
  for (const status of ['available', 'pending', 'sold'])
    t.ok(
      bodies.some((b) => (b.value as JsonObject)['status'] === status),
      `status ${status} occurs`,
    );
});

t.test('every invalidBody fails the NewPet schema or is not JSON at all', async (t) => {
  const bodies = [...sample(invalidBody(createPet, PREFIX)), ...invalidBodyExamples(createPet, PREFIX, SEED)];
  const accepted = bodies.filter((body) => {
    const parsed = parseJson(body.text);
    return parsed.ok && isNewPet(parsed.value) === undefined;
  });
  t.strictSame(accepted.map((b) => `${b.label}: ${b.text}`).slice(0, 10), [], `${accepted.length} of ${bodies.length} invalid bodies pass the schema`);
  const labels = new Set(bodies.map((b) => b.label));
  for (const label of [
    'missing required property name',
    'missing required property categoryId',
    'name: a number',
    'categoryId: a numeric string',
    'categoryId: a number with a fraction',
    `categoryId: an integer above the maximum (${INT64_MAX + 1n})`,
    `categoryId: an integer below the minimum (${INT64_MIN - 1n})`,
    'status: a string outside the enum',
    'status: null',
    'a JSON array instead of an object',
    'malformed JSON: truncated',
    'an empty body',
  ]) {
    t.ok(labels.has(label), `the class "${label}" is generated`);
  }
  const examples = new Set(invalidBodyExamples(createPet, PREFIX, SEED).map((b) => b.label));
  t.strictSame(
    [...labels].filter((label) => !examples.has(label)),
    [],
    'the examples tried first cover every class the arbitrary generates',
  );
});

t.test('the int64 extremes are generated: categoryId and petId reach -2^63 and 2^63-1', async (t) => {
  const categoryIds = sample(validBody(createPet, PREFIX)).map((b) => (b.value as JsonObject)['categoryId'] as bigint);
  t.ok(
    categoryIds.every((id) => typeof id === 'bigint' && id >= INT64_MIN && id <= INT64_MAX),
    'every categoryId is an int64 (a bigint, never a rounded double)',
  );
  t.ok(categoryIds.includes(INT64_MIN), 'categoryId -9223372036854775808');
  t.ok(categoryIds.includes(INT64_MAX), 'categoryId 9223372036854775807');
  t.ok(categoryIds.includes(2n ** 53n + 1n), 'categoryId 2^53+1, the first integer a double cannot hold');
  t.ok(
    categoryIds.some((id) => id > 2n ** 53n && id < INT64_MAX - 1n),
    'categoryIds between the edges beyond 2^53',
  );
  const petIds = sample(pathValue(getPet.parameters.find((p) => p.in === 'path')!));
  t.ok(petIds.includes(String(INT64_MIN)) && petIds.includes(String(INT64_MAX)), 'petId reaches both extremes');
  t.ok(
    petIds.every((id) => BigInt(id) >= INT64_MIN && BigInt(id) <= INT64_MAX),
    'every petId is an int64',
  );
});

t.test('names hold astral-plane characters (surrogate pairs) and are always well-formed Unicode', async (t) => {
  const names = sample(validBody(createPet, PREFIX)).map((b) => (b.value as JsonObject)['name'] as string);
  const withAstral = names.filter((name) => astral(name).length > 0);
  t.ok(withAstral.length > names.length / 10, `${withAstral.length} of ${names.length} names hold an astral character`);
  t.ok(
    names.some((name) => name.includes('🐢') || name.includes('𝔘')),
    'the tricky pieces include emoji and mathematical letters',
  );
  t.ok(
    names.some((name) => name !== name.trim()),
    'some names have white space at the edges',
  );
  t.ok(
    names.every((name) => name.isWellFormed()),
    'no lone surrogate (a NewPet name is Unicode text)',
  );
});

t.test('a new required string property on NewPet is in every valid body, and its absence or a wrong type is an invalid class', async (t) => {
  const { doc, operations } = modifiedSpec((d) => {
    d.components.schemas.NewPet.required.push('breed');
    d.components.schemas.NewPet.properties.breed = { type: 'string', minLength: 2, maxLength: 12 };
  });
  const create = byId(operations, 'createPet');
  const isModifiedNewPet = compileSchema(create.requestBody!.schema);
  t.ok(
    isNewPet({ name: 'Rex', categoryId: 1n }) === undefined && isModifiedNewPet({ name: 'Rex', categoryId: 1n }) !== undefined,
    'the modified schema requires breed',
  );
  t.ok(
    doc.components.schemas.NewPet.properties.breed && !(openapi.components.schemas.NewPet.properties as Record<string, unknown>)['breed'],
    'the spec itself is unchanged',
  );

  const valid = sample(validBody(create, PREFIX));
  t.ok(
    valid.every((b) => typeof (b.value as JsonObject)['breed'] === 'string'),
    'breed is in every valid body',
  );
  const wrong = valid.filter((b) => isModifiedNewPet(b.value as JsonValue) !== undefined);
  t.strictSame(wrong.map((b) => b.text).slice(0, 5), [], 'every valid body passes the modified schema (breed 2..12 characters)');
  t.ok(
    valid.every((b) => ((b.value as JsonObject)['name'] as string).startsWith(PREFIX)),
    'the prefix stays on name',
  );

  const invalid = [...sample(invalidBody(create, PREFIX)), ...invalidBodyExamples(create, PREFIX, SEED)];
  const labels = new Set(invalid.map((b) => b.label));
  for (const label of ['missing required property breed', 'breed: a number', 'breed: a string shorter than 2', 'breed: a string longer than 12']) {
    t.ok(labels.has(label), `the class "${label}" is generated`);
  }
  const accepted = invalid.filter((b) => {
    const parsed = parseJson(b.text);
    return parsed.ok && isModifiedNewPet(parsed.value) === undefined;
  });
  t.strictSame(accepted.map((b) => `${b.label}: ${b.text}`).slice(0, 5), [], 'every invalid body fails the modified schema');
});

t.test('a maximum length on name is kept, prefix included', async (t) => {
  const { operations } = modifiedSpec((d) => {
    d.components.schemas.NewPet.properties.name.maxLength = 12;
  });
  const create = byId(operations, 'createPet');
  const isModifiedNewPet = compileSchema(create.requestBody!.schema);
  const valid = sample(validBody(create, PREFIX));
  const wrong = valid.filter((b) => isModifiedNewPet(b.value as JsonValue) !== undefined);
  t.strictSame(wrong.map((b) => b.text).slice(0, 5), [], `every valid body passes the modified schema (${wrong.length} do not)`);
  t.ok(
    valid.every((b) => ((b.value as JsonObject)['name'] as string).startsWith(PREFIX)),
    'every name still carries the prefix',
  );
  t.ok(
    valid.some((b) => [...((b.value as JsonObject)['name'] as string)].length === 12),
    'names reach the maximum length',
  );
  const labels = new Set(sample(invalidBody(create, PREFIX)).map((b) => b.label));
  t.ok(labels.has('name: a string longer than 12'), 'a name over the maximum is an invalid class');
});

t.test('a limit maximum of 50 bounds the generated limits: valid values reach 50, never more, and 51 is tried as out of range', async (t) => {
  const { operations } = modifiedSpec((d) => {
    d.paths['/pets'].get.parameters[0].schema.maximum = 50;
  });
  const list = byId(operations, 'listPets');
  const limitParam = list.parameters.find((p) => p.name === 'limit')!;
  t.equal(limitParam.schema['maximum'], 50);
  const limits = sample(validQuery(list)).flatMap((q) => (q['limit'] === undefined ? [] : [BigInt(q['limit'])]));
  t.ok(limits.length > 100, `${limits.length} limits`);
  t.ok(
    limits.every((l) => l >= 1n && l <= 50n),
    'every generated limit is in 1..50',
  );
  t.ok(limits.includes(50n) && limits.includes(1n), 'both edges are generated');
  const invalid = invalidParameterTexts(limitParam).map((p) => p.text);
  t.ok(invalid.includes('51') && invalid.includes('0'), `out-of-range texts ${invalid.join(', ')}`);
  t.notOk(
    invalidParameterTexts(listPets.parameters.find((p) => p.name === 'limit')!)
      .map((p) => p.text)
      .includes('51'),
    'with the spec as it is, 51 is valid',
  );
});

t.test("the suite's limits checks follow a limit maximum of 50: a server with that spec passes, and no valid limit above 50 is sent", async (t) => {
  const { operations } = modifiedSpec((d) => {
    d.paths['/pets'].get.parameters[0].schema.maximum = 50;
  });
  const server = createServer({ apiKeys: ['limit-key'], operations, onError: (error) => t.fail(String(error)) });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  const sent = new Set<string>();
  server.http.on('request', (req: { url?: string }) => {
    const limit = new URL(req.url!, 'http://x').searchParams.get('limit');
    if (limit !== null) sent.add(limit);
  });
  const result = await runConformance({ baseUrl: url, apiKey: 'limit-key', seed: SEED, runs: 60, families: ['limits'], operations });
  t.ok(result.ok, result.failures.map((f) => `${f.checkId}: ${f.message}`).join('\n') || 'passes');
  const integers = [...sent].filter((s) => /^-?\d{1,4}$/.test(s)).map(Number);
  t.ok(integers.includes(50), 'the maximum, 50, is asked for');
  t.ok(integers.includes(51), '51 is tried as out of range');
  t.strictSame(
    integers.filter((n) => n > 51),
    [],
    'nothing between 52 and 100 is sent',
  );
  t.ok(server.store.size > 50, `the store was filled past the maximum page (${server.store.size} pets)`);
});
