// Where in spec/openapi.json each finding's rule lives (src/server/findings/pointers.ts):
// RFC 6901 JSON pointers read from the spec (so every one resolves in it), the
// seed's section of each operation, and what a schema expects in a developer's words.
import t from 'tap';
import { openapi } from '../../../../spec/openapi.js';
import { componentSchema, operationById, operations, resolvePointer } from '../../../../spec/operations.js';
import {
  AUTH_RULE,
  AUTH_SEED,
  bodyFieldRule,
  bodySchemaRule,
  describeSchema,
  operationRule,
  PATHS_RULE,
  parameterRule,
  pathRule,
  pointerToken,
  seedSection,
} from '../../../../src/server/findings/pointers.js';

/** The node a pointer names in the spec; throws when it names none. */
const at = (pointer: string) => resolvePointer(openapi, `#${pointer}`);

const listPets = operationById('listPets');
const createPet = operationById('createPet');
const getPet = operationById('getPet');

t.test('a reference token escapes ~ as ~0 and / as ~1 (RFC 6901 §3)', async (t) => {
  t.equal(pointerToken('/pets/{petId}'), '~1pets~1{petId}');
  t.equal(pointerToken('a~b/c'), 'a~0b~1c');
  t.equal(pointerToken('~1'), '~01', '~ first, so an escaped-looking ~1 stays itself');
  t.equal(pointerToken('plain'), 'plain');
});

t.test('operations, paths and parameters are named by pointers into the spec', async (t) => {
  t.equal(operationRule(listPets), '/paths/~1pets/get');
  t.equal(operationRule(createPet), '/paths/~1pets/post');
  t.equal(operationRule(getPet), '/paths/~1pets~1{petId}/get');
  t.equal(pathRule('/pets/{petId}'), '/paths/~1pets~1{petId}');
  t.equal(parameterRule(listPets, 'limit'), '/paths/~1pets/get/parameters/0');
  t.equal(parameterRule(listPets, 'status'), '/paths/~1pets/get/parameters/1');
  t.equal(parameterRule(getPet, 'petId'), '/paths/~1pets~1{petId}/get/parameters/0');
  t.equal(parameterRule(listPets, 'page'), '/paths/~1pets/get/parameters', 'an unknown parameter: the list');
  t.equal(AUTH_RULE, '/components/securitySchemes/bearerAuth');
  t.equal(PATHS_RULE, '/paths');
  t.equal(AUTH_SEED, '§5 Authentication');
});

t.test('every pointer made for the spec’s operations resolves to what it names', async (t) => {
  t.match(at(AUTH_RULE), { type: 'http', scheme: 'bearer' });
  t.ok(at(PATHS_RULE), PATHS_RULE);
  for (const op of operations) {
    t.match(at(operationRule(op)), { operationId: op.operationId }, operationRule(op));
    t.ok(at(pathRule(op.path)), pathRule(op.path));
    for (const p of op.parameters) t.match(at(parameterRule(op, p.name)), { name: p.name }, parameterRule(op, p.name));
  }
});

t.test('a body field’s rule is where the field is declared: the component the body refers to', async (t) => {
  t.equal(bodySchemaRule(createPet), '/components/schemas/NewPet');
  t.equal(bodyFieldRule(createPet, 'name', 'declared'), '/components/schemas/NewPet/properties/name');
  t.equal(bodyFieldRule(createPet, 'categoryId', 'declared'), '/components/schemas/NewPet/properties/categoryId');
  t.equal(bodyFieldRule(createPet, 'name', 'required'), '/components/schemas/NewPet/required');
  t.equal(bodyFieldRule(createPet, 'tags', 'unknown'), '/components/schemas/NewPet/properties');
  t.equal(bodyFieldRule(createPet, undefined, 'declared'), '/components/schemas/NewPet/properties', 'no field: the properties');
  t.equal(bodyFieldRule(createPet, 'a/b', 'declared'), '/components/schemas/NewPet/properties/a~1b', 'a field name escaped');
  t.strictSame(at(bodyFieldRule(createPet, 'name', 'required')), ['name', 'categoryId']);
  t.match(at(bodyFieldRule(createPet, 'categoryId', 'declared')), { type: 'integer', format: 'int64' });
  t.equal(
    bodySchemaRule(listPets),
    '/paths/~1pets/get/requestBody/content/application~1json/schema',
    'an operation without a $ref body: the place a body schema would be',
  );
});

t.test('each operation is told by its section of the seed', async (t) => {
  t.equal(seedSection(listPets), '§4.1 List animals');
  t.equal(seedSection(createPet), '§4.2 Add an animal');
  t.equal(seedSection(getPet), '§4.3 Get an animal');
  t.equal(seedSection({ ...getPet, operationId: 'deletePet' }), '§4 Endpoints', 'an operation the seed does not name');
});

t.test('a schema is described as what a value must be', async (t) => {
  const limit = listPets.parameters.find((p) => p.name === 'limit')?.schema;
  const status = listPets.parameters.find((p) => p.name === 'status')?.schema;
  const petId = getPet.parameters.find((p) => p.name === 'petId')?.schema;
  t.equal(describeSchema(limit), 'an integer from 1 to 100 (20 when not given)');
  t.equal(describeSchema(status), 'one of available, pending, sold');
  t.equal(describeSchema(petId), 'an int64 integer (its digits exactly, at most 9223372036854775807)');
  t.equal(describeSchema(componentSchema('NewPet')), 'a JSON object with name, categoryId, status (optional)');
  t.equal(describeSchema({ type: 'string' }), 'a string');
  t.equal(describeSchema({ type: 'integer' }), 'an integer', 'no bounds, no default');
  t.equal(describeSchema({ type: 'integer', minimum: 1 }), 'an integer', 'a range needs both bounds');
  t.equal(describeSchema({ type: 'boolean' }), 'a value of type boolean');
  t.equal(describeSchema({}), 'a value the spec allows');
  t.equal(describeSchema(undefined), 'a value the spec allows');
});
