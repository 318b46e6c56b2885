// The drafts of a deprecated operation (src/server/findings/operation-drafts.ts),
// made once per server: the warning of a call before its sunset and the 410
// refusal after it, each naming the replacement (the spec's x-replacement) and
// the sunset day (x-sunset), with the seed's section and §9 Versioning.
import t from 'tap';
import { decoyOperation } from '../../../helpers/decoy-operation.js';
import { operations, type HttpMethod, type OperationDescriptor, type ParameterDescriptor } from '../../../../spec/operations.js';
import { prepareOperationDrafts } from '../../../../src/server/findings/operation-drafts.js';

const param = (name: string): ParameterDescriptor => ({ name, in: 'query', required: false, schema: { type: 'string' } });

const op = (operationId: string, method: HttpMethod, path: string, more: Partial<OperationDescriptor> = {}): OperationDescriptor =>
  decoyOperation(method, path, { operationId, ...more });

t.test('every operation has an entry; one that is not deprecated has no draft', async (t) => {
  const drafts = prepareOperationDrafts(operations, '/v1');
  t.equal(drafts.size, operations.length);
  for (const o of operations) t.ok(drafts.has(o), `${o.operationId} has an entry`);
  const byId = (id: string) => drafts.get(operations.find((o) => o.operationId === id) as OperationDescriptor);
  t.strictSame(byId('listPets'), {}, 'listPets: none');
  t.strictSame(byId('createPet'), {}, 'createPet: none');
});

t.test('getPet’s warning and refusal name the operation at the base path, the replacement with its status filter, and the sunset day', async (t) => {
  const getPet = operations.find((o) => o.operationId === 'getPet') as OperationDescriptor;
  const drafts = prepareOperationDrafts(operations, '/api');
  t.strictSame(drafts.get(getPet)?.deprecated, {
    rule: '/paths/~1pets~1{petId}/get/deprecated',
    subject: '',
    seed: '§4.3 Get an animal, §9 Versioning',
    operationId: 'getPet',
    code: 'deprecated_operation',
    severity: 'warning',
    sent: 'GET /api/pets/{petId}',
    expected: 'GET /api/pets?status=… (listPets)',
    message: 'getPet is deprecated and will answer 410 Gone from its sunset on Thu, 05 Dec 2030: move to GET /api/pets?status=… (listPets)',
  });
  t.strictSame(drafts.get(getPet)?.gone, {
    rule: '/paths/~1pets~1{petId}/get/x-sunset',
    subject: '',
    seed: '§4.3 Get an animal, §9 Versioning',
    operationId: 'getPet',
    code: 'gone',
    severity: 'error',
    status: 410,
    sent: 'GET /api/pets/{petId}',
    expected: 'GET /api/pets?status=… (listPets)',
    message: 'getPet was removed on Thu, 05 Dec 2030 (its sunset): use GET /api/pets?status=… (listPets)',
  });
});

t.test('a deprecated operation with no sunset is warned of, never refused, and its warning names no day', async (t) => {
  const list = op('listThings', 'GET', '/things', { parameters: [param('status')] });
  const old = op('getThing', 'GET', '/things/{id}', { deprecated: true, replacement: 'listThings' });
  const drafts = prepareOperationDrafts([list, old], '/v1').get(old);
  t.equal(drafts?.gone, undefined, 'no 410 draft');
  t.equal(drafts?.deprecated?.message, 'getThing is deprecated and will answer 410 Gone from its sunset: move to GET /v1/things?status=… (listThings)');
  t.equal(drafts?.deprecated?.seed, '§4 Endpoints, §9 Versioning', 'an operation the seed does not name: its endpoints section');
});

t.test('the replacement is shown without a status filter when it has none, and as “another operation” when the spec names none', async (t) => {
  const sunset = new Date('2031-02-03T00:00:00Z');
  const plain = op('listThings', 'GET', '/things', { parameters: [param('limit')] });
  const viaPlain = op('getThing', 'GET', '/things/{id}', { deprecated: true, replacement: 'listThings', sunset });
  const orphan = op('deleteThing', 'DELETE', '/things/{id}', { deprecated: true, replacement: 'nowhere', sunset });
  const drafts = prepareOperationDrafts([plain, viaPlain, orphan], '/v1');
  t.equal(drafts.get(viaPlain)?.deprecated?.expected, 'GET /v1/things (listThings)');
  t.equal(drafts.get(viaPlain)?.gone?.message, 'getThing was removed on Mon, 03 Feb 2031 (its sunset): use GET /v1/things (listThings)');
  t.equal(drafts.get(orphan)?.deprecated?.expected, 'another operation');
  t.equal(drafts.get(orphan)?.gone?.expected, 'another operation');
  t.equal(drafts.get(orphan)?.gone?.rule, '/paths/~1things~1{id}/delete/x-sunset');
  t.equal(drafts.get(orphan)?.gone?.sent, 'DELETE /v1/things/{id}');
});

t.test('a sunset at another time than midnight is shown with its time', async (t) => {
  const old = op('getThing', 'GET', '/things/{id}', { deprecated: true, sunset: new Date('2031-02-03T12:30:00Z') });
  const drafts = prepareOperationDrafts([old], '/v1').get(old);
  t.match(drafts?.gone?.message, /^getThing was removed on Mon, 03 Feb 2031 12:30:00 GMT \(its sunset\)/);
});
