// The control API's OpenAPI 3.1 document (spec/control-openapi.ts): served
// under /__control, guarded by the interface's bearer keys, its request bodies
// validated from it, and NewPet, PetStatus and Error the interface's own schemas.
import t from 'tap';
import { controlOpenapi } from '../../spec/control-openapi.js';
import { parseJson } from '../../spec/json/index.js';
import { openapi } from '../../spec/openapi.js';
import { derefAll, describeOperations, type Schema } from '../../spec/operations.js';
import { compileSchema } from '../../spec/schema/validate.js';

const operations = describeOperations(controlOpenapi);
const schemaOf = (name: keyof typeof controlOpenapi.components.schemas) =>
  compileSchema(derefAll(controlOpenapi, controlOpenapi.components.schemas[name]) as Schema);
/** Whether `validate` accepts the JSON `text` (integers read as bigints, as the server reads them). */
const accepts = (validate: ReturnType<typeof compileSchema>, text: string) => {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(`bad test JSON ${text}`);
  return validate(parsed.value) === undefined;
};

t.test('it is an OpenAPI 3.1 document of the control API, served under /__control', async (t) => {
  t.equal(controlOpenapi.openapi, '3.1.0');
  t.equal(controlOpenapi.servers[0].url, 'http://127.0.0.1:4010/__control');
  t.strictSame(controlOpenapi.components.securitySchemes, { bearerAuth: { type: 'http', scheme: 'bearer' } });
});

t.test('its operations, each with a unique operationId', async (t) => {
  t.strictSame(
    operations.map((o) => `${o.method} ${o.path} ${o.operationId}`),
    [
      'GET /openapi.json readControlSpec',
      'GET /state readState',
      'POST /reset reset',
      'POST /pets loadPets',
      'PUT /clock setClock',
      'GET /faults listFaults',
      'DELETE /faults clearFaults',
      'PUT /faults/{operationId} setFault',
      'DELETE /faults/{operationId} clearFault',
      'GET /findings readFindings',
      'DELETE /findings clearFindings',
      'POST /shutdown shutdown',
      'GET /journal.har readJournalHar',
      'GET /journal readJournal',
      'DELETE /journal clearJournal',
      'POST /mark mark',
      'GET /stubs listStubs',
      'POST /stubs addStub',
      'DELETE /stubs clearStubs',
    ],
  );
  t.equal(new Set(operations.map((o) => o.operationId)).size, operations.length, 'no operationId twice');
});

t.test('every operation is guarded by the API keys and answers 401 with an Error', async (t) => {
  const error = derefAll(openapi, openapi.components.schemas.Error);
  for (const op of operations) {
    t.ok(op.requiresAuth, `${op.operationId} requires the bearer scheme`);
    t.strictSame(op.responses.find((r) => r.status === 401)?.schema, error, `${op.operationId}: 401 with an Error body`);
  }
});

t.test('what needs the shared store declares 503 (store_unavailable, with Retry-After); what reads memory only does not', async (t) => {
  const with503 = operations.filter((o) => o.responses.some((r) => r.status === 503)).map((o) => o.operationId);
  t.strictSame(with503, ['readState', 'reset', 'loadPets', 'setClock', 'clearFaults', 'setFault', 'clearFault', 'clearFindings', 'clearJournal']);
  for (const op of operations) {
    const r503 = op.responses.find((r) => r.status === 503);
    if (r503) t.match(r503.description, /store_unavailable, with Retry-After/, op.operationId);
  }
});

t.test("NewPet, PetStatus and Error are the interface's own schemas, not copies", async (t) => {
  t.equal(controlOpenapi.components.schemas.NewPet, openapi.components.schemas.NewPet);
  t.equal(controlOpenapi.components.schemas.PetStatus, openapi.components.schemas.PetStatus);
  t.equal(controlOpenapi.components.schemas.Error, openapi.components.schemas.Error);
});

t.test('every $ref resolves within the document, and every schema compiles', async (t) => {
  const resolved = derefAll(controlOpenapi, controlOpenapi);
  t.notMatch(JSON.stringify(resolved), /\$ref/, 'no $ref is left after resolving');
  for (const name of Object.keys(controlOpenapi.components.schemas) as (keyof typeof controlOpenapi.components.schemas)[]) {
    t.type(schemaOf(name), 'function', `${name} compiles`);
  }
});

t.test('a fault: latency up to a minute, an error status 400-599, rates between 0 and 1, nothing else', async (t) => {
  const fault = schemaOf('Fault');
  for (const good of ['{}', '{"latencyMs":0}', '{"latencyMs":60000,"status":503,"errorRate":0.5,"dropRate":0}', '{"status":400}', '{"errorRate":1}']) {
    t.ok(accepts(fault, good), good);
  }
  for (const bad of [
    '{"latencyMs":60001}',
    '{"latencyMs":-1}',
    '{"status":399}',
    '{"status":600}',
    '{"errorRate":1.5}',
    '{"dropRate":-0.1}',
    '{"latency":5}',
    '[]',
  ]) {
    t.notOk(accepts(fault, bad), bad);
  }
});

t.test('a clock setting names an instant as a string, or null for the real time', async (t) => {
  const clock = schemaOf('ClockSetting');
  t.ok(accepts(clock, '{"now":"2030-12-05T00:00:00Z"}'));
  t.ok(accepts(clock, '{"now":null}'));
  for (const bad of ['{}', '{"now":5}', '{"now":null,"speed":2}']) t.notOk(accepts(clock, bad), bad);
});

t.test('a bulk load is an array of NewPet, at most 100,000', async (t) => {
  const load = operations.find((o) => o.operationId === 'loadPets')?.requestBody;
  t.equal(load?.required, true);
  const validate = compileSchema(load?.schema ?? {});
  t.ok(accepts(validate, '[]'));
  t.ok(accepts(validate, '[{"name":"Rex","categoryId":1,"status":"sold"},{"name":"Tom","categoryId":9223372036854775807}]'));
  t.notOk(accepts(validate, '[{"name":"Rex"}]'), 'a NewPet without categoryId');
  t.notOk(accepts(validate, '[{"name":"Rex","categoryId":1,"status":"lost"}]'), 'a status outside PetStatus');
  t.notOk(accepts(validate, '{"name":"Rex","categoryId":1}'), 'one pet, not an array');
  t.equal((load?.schema as { maxItems?: number } | undefined)?.maxItems, 100_000);
});
