// Issue 17 §1: every schema, parameter and declared response of
// spec/openapi.ts has an example, each valid against its schema and all
// telling one story; and the examples change nothing that is derived from
// the spec (what the server accepts, what the suite generates).
import fc from 'fast-check';
import t, { type Test } from 'tap';
import { invalidValues, valueArbitrary } from '../../../conformance/arbitraries/schema.js';
import { parseJson, type JsonValue } from '../../../spec/json/index.js';
import { openapi } from '../../../spec/openapi.js';
import { derefAll, describeOperations, type Schema } from '../../../spec/operations.js';
import { compileSchema } from '../../../spec/schema/validate.js';

/** The document walked as data. */
type Node = any;
const doc = openapi as Node;

/** An example as it travels: through JSON text and this project's parser, so integers are what the validators see from the wire. */
function wire(value: unknown): JsonValue {
  const parsed = parseJson(JSON.stringify(value), { maxDepth: 32, maxMembers: 10_000 });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

function check(t: Test, where: string, schema: Schema, example: unknown): void {
  const issue = compileSchema(derefAll(openapi, schema) as Schema)(wire(example));
  t.notOk(issue, `${where}: the example is valid${issue ? `: ${issue.path} ${issue.message}` : ''}`);
}

/** Every (where, schema, example) of the document: schemas' `examples`, parameters' `example`, media types' `example` and `examples`. */
function allExamples(): [string, Schema, unknown][] {
  const found: [string, Schema, unknown][] = [];
  for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Node>)) {
    for (const [i, example] of (schema.examples ?? []).entries()) found.push([`schema ${name} examples[${i}]`, schema, example]);
  }
  const media = (where: string, content: Node) => {
    const m = content?.['application/json'];
    if (!m) return;
    if ('example' in m) found.push([`${where} example`, m.schema, m.example]);
    for (const [key, example] of Object.entries((m.examples ?? {}) as Record<string, Node>)) found.push([`${where} examples.${key}`, m.schema, example.value]);
  };
  for (const [name, response] of Object.entries(doc.components.responses as Record<string, Node>)) media(`response ${name}`, response.content);
  for (const [path, item] of Object.entries(doc.paths as Record<string, Node>)) {
    for (const [method, op] of Object.entries(item as Record<string, Node>)) {
      for (const p of op.parameters ?? []) found.push([`${op.operationId} parameter ${p.name}`, p.schema, p.example]);
      media(`${op.operationId} request body`, op.requestBody?.content);
      for (const [status, response] of Object.entries(op.responses as Record<string, Node>)) {
        if (!('$ref' in response)) media(`${method.toUpperCase()} ${path} ${status}`, response.content);
      }
    }
  }
  return found;
}

t.test('every schema, parameter, request body and declared response has an example', async (t) => {
  for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Node>)) t.ok(schema.examples?.length, `schema ${name}`);
  for (const op of describeOperations(openapi)) {
    const raw = doc.paths[op.path][op.method.toLowerCase()];
    t.equal(raw.parameters?.length ?? 0, op.parameters.length);
    for (const p of raw.parameters ?? []) t.ok(p.example !== undefined, `${op.operationId} parameter ${p.name}`);
    for (const r of op.responses) {
      const content = derefAll(openapi, (doc.paths[op.path][op.method.toLowerCase()].responses as Node)[String(r.status)]).content;
      t.ok(content['application/json'].example !== undefined, `${op.operationId} ${r.status}`);
    }
  }
  t.ok(Object.keys(doc.paths['/pets'].post.requestBody.content['application/json'].examples).length, 'createPet request body');
});

t.test('every example is valid against its schema', async (t) => {
  const examples = allExamples();
  t.equal(examples.length, 16, '5 schemas, 3 parameters, 2 request bodies, 3 responses and 3 shared responses');
  for (const [where, schema, example] of examples) check(t, where, schema, example);
});

t.test('the examples tell one story: Rex, created first, is pet 1; each Error example is its own status', async (t) => {
  const rex = doc.components.schemas.Pet.examples[0];
  const { id, ...asCreated } = rex;
  t.strictSame(doc.components.schemas.NewPet.examples[0], asCreated, 'the NewPet is the Pet without its id');
  t.strictSame(doc.paths['/pets'].post.requestBody.content['application/json'].examples.withStatus.value, asCreated, 'the request body example too');
  t.strictSame(doc.paths['/pets'].post.responses['201'].content['application/json'].example, rex, 'createPet answers it');
  t.strictSame(doc.paths['/pets/{petId}'].get.responses['200'].content['application/json'].example, rex, 'getPet answers it');
  t.equal(doc.paths['/pets/{petId}'].get.parameters[0].example, id, 'petId names it');
  t.strictSame(doc.paths['/pets'].get.responses['200'].content['application/json'].example[0], rex, 'listPets lists it first');
  t.equal(doc.paths['/pets'].get.parameters.find((p: Node) => p.name === 'status').example, rex.status, 'the status filter finds it');
  t.equal(doc.paths['/pets'].get.parameters.find((p: Node) => p.name === 'limit').example, 20, 'limit is its default');
  t.strictSame(doc.components.schemas.Pets.examples[0], doc.paths['/pets'].get.responses['200'].content['application/json'].example);
  for (const [name, response] of Object.entries(doc.components.responses as Record<string, Node>)) {
    const uses = Object.values(doc.paths as Record<string, Node>).flatMap((item) =>
      Object.values(item as Record<string, Node>).flatMap((op: Node) =>
        Object.entries(op.responses as Record<string, Node>)
          .filter(([, r]) => r.$ref === `#/components/responses/${name}`)
          .map(([status]) => Number(status)),
      ),
    );
    t.ok(uses.length > 0 && uses.every((status) => status === response.content['application/json'].example.status), `${name}: status ${uses[0]}`);
  }
});

/** The document with every `example` and `examples` taken out. */
function withoutExamples(node: Node): Node {
  if (Array.isArray(node)) return node.map(withoutExamples);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'example' && key !== 'examples')
      .map(([key, value]) => [key, withoutExamples(value)]),
  );
}

t.test('the examples change nothing derived from the spec: validation, the generated values, the invalid classes', async (t) => {
  const bare = withoutExamples(openapi);
  for (const name of ['NewPet', 'Pet', 'PetStatus', 'Error']) {
    const withEx = derefAll(openapi, doc.components.schemas[name]) as Schema;
    const without = derefAll(bare, bare.components.schemas[name]) as Schema;
    const a = fc.sample(valueArbitrary(withEx), { seed: 17, numRuns: 200 });
    const b = fc.sample(valueArbitrary(without), { seed: 17, numRuns: 200 });
    t.strictSame(a, b, `${name}: the suite generates the same values`);
    const invalid = invalidValues(withEx).map((v) => v.label);
    t.strictSame(
      invalid,
      invalidValues(without).map((v) => v.label),
      `${name}: the same invalid classes`,
    );
    const [validate, validateBare] = [compileSchema(withEx), compileSchema(without)];
    t.ok(
      [...a, ...invalidValues(withEx).map((v) => v.value)].every((v) => JSON.stringify(validate(v)) === JSON.stringify(validateBare(v))),
      `${name}: the validator gives the same verdicts`,
    );
  }
  const strip = (ops: ReturnType<typeof describeOperations>) => JSON.stringify(withoutExamples(JSON.parse(JSON.stringify(ops))));
  t.equal(strip(describeOperations(openapi)), strip(describeOperations(bare)), 'the operations the server and suite are built from are the same');
});
