// The operation a request that matched no route most likely meant, for the 404's
// finding (src/server/findings/nearest-operation.ts): the nearest path, a
// template's parameters taking the segment sent, paths of as many segments
// first, and of the method sent when the path has it; none when nothing is close.
import t from 'tap';
import { decoyOperation } from '../../../helpers/decoy-operation.js';
import { operations, type HttpMethod, type OperationDescriptor } from '../../../../spec/operations.js';
import { nearestOperation } from '../../../../src/server/findings/nearest-operation.js';

/** A bare operation: only what the search reads. */
const op = (method: HttpMethod, path: string): OperationDescriptor => decoyOperation(method, path);

t.test('a misspelt path is offered the operation at the nearest one, named with the base path', async (t) => {
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1/pet'), 'GET /v1/pets');
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1/Pets'), 'GET /v1/pets', 'another case');
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1/pet/7'), 'GET /v1/pets/{petId}');
  t.equal(nearestOperation(operations, '/api/v3', 'GET', '/api/v3/pet'), 'GET /api/v3/pets', 'another base path');
  t.equal(nearestOperation(operations, '', 'GET', '/pet/3'), 'GET /pets/{petId}', 'no base path');
});

t.test('a template’s parameter takes the segment sent in its place, however long', async (t) => {
  // '/pets/{petId}' itself is far from '/pet/abcdefgh'; '/pets/abcdefgh' is one edit away.
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1/pet/abcdefgh'), 'GET /v1/pets/{petId}');
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1/pet/9007199254740993'), 'GET /v1/pets/{petId}');
});

t.test('of the operations at the nearest path, the one of the method sent; else the first', async (t) => {
  t.equal(nearestOperation(operations, '/v1', 'POST', '/v1/pet'), 'POST /v1/pets');
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1/pet'), 'GET /v1/pets');
  t.equal(nearestOperation(operations, '/v1', 'DELETE', '/v1/pet'), 'GET /v1/pets', 'no DELETE there: the first operation of the path');
  t.equal(nearestOperation(operations, '/v1', 'PUT', '/v1/pet/9'), 'GET /v1/pets/{petId}', 'no PUT there: its only operation');
});

t.test('paths of as many segments as the one sent are preferred; the others are searched when none is close', async (t) => {
  // /pet and /pets/7 are each one edit from /pet/7: the path of three segments wins, though listed second.
  const ops = [op('GET', '/pet'), op('GET', '/pets/{petId}')];
  t.equal(nearestOperation(ops, '/v1', 'GET', '/v1/pet/7'), 'GET /v1/pets/{petId}');
  t.equal(nearestOperation(ops, '/v1', 'GET', '/v1/pett'), 'GET /v1/pet', 'two segments: /pet');
  // No path of the spec has four segments: the nearest of any length.
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1/pets/7/x'), 'GET /v1/pets/{petId}');
});

t.test('a path outside the base path is compared whole', async (t) => {
  t.equal(nearestOperation(operations, '/v1', 'GET', '/pets/1'), 'GET /v1/pets/{petId}', 'the base path left out');
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v2/pets'), 'GET /v1/pets', 'another version');
});

t.test('a path far from every operation’s is offered none', async (t) => {
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1/orders/5'), undefined);
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1/users'), undefined);
  t.equal(nearestOperation(operations, '/v1', 'GET', '/v1'), undefined, 'the base path alone');
  t.equal(nearestOperation([], '/v1', 'GET', '/v1/pets'), undefined, 'no operations at all');
});
