// What a client acts on in an answer, and what a request carried
// (conformance/differential/outcome.ts).
import t from 'tap';
import { exactCredential, isWrite, keyAppears, outcomeOf, servesPetData, unknownNames } from '../../../conformance/differential/outcome.js';
import type { WireRequest, WireResponse } from '../../../conformance/client.js';
import { operations } from '../../../spec/operations.js';

const request = (r: Partial<WireRequest>): WireRequest => ({ method: 'GET', path: '/pets', headers: {}, operationId: 'listPets', ...r });
const response = (status: number, json?: unknown): WireResponse => ({
  status,
  headers: {},
  text: json === undefined ? '' : 'x',
  json: json as never,
  durationMs: 1,
});
const list = operations.find((op) => op.operationId === 'listPets');
const create = operations.find((op) => op.operationId === 'createPet');

t.test('an answer is served, refused for the credential, refused, missing, limited or failed', async (t) => {
  t.same(
    [200, 201, 204, 304, 401, 403, 400, 415, 404, 410, 429, 500, 503, 302, 300, 103].map((status) => outcomeOf({ status })),
    [
      'served',
      'served',
      'served',
      'served',
      'refused-credential',
      'refused',
      'refused',
      'refused',
      'missing',
      'missing',
      'limited',
      'failed',
      'failed',
      'other',
      'other',
      'other',
    ],
    'a 300 offers choices and a 1xx is no final answer: neither serves',
  );
});

t.test('pet data is a 2xx with a list or an object with an id and a name or categoryId', async (t) => {
  t.equal(servesPetData(response(200, [])), true, 'a list, even empty');
  t.equal(servesPetData(response(200, { id: 1n, name: 'Rex' })), true);
  t.equal(servesPetData(response(200, { id: 1n, categoryId: 2n })), true);
  t.equal(servesPetData(response(200, { status: 'ok' })), false, 'a health answer is no pet');
  t.equal(servesPetData(response(401, [])), false, 'only a 2xx serves');
  t.equal(servesPetData(response(300, [])), false, 'a 300 lists choices, not pets');
  t.equal(servesPetData(response(204)), false);
});

t.test('the key appears in the path, any field or the body, as itself, percent-encoded or in base64', async (t) => {
  const key = 'k+y/1';
  t.equal(keyAppears(request({}), key), false);
  t.equal(keyAppears(request({ headers: { authorization: `Bearer ${key}` } }), key), true);
  t.equal(keyAppears(request({ path: `/pets?api_key=${encodeURIComponent(key)}` }), key), true, 'percent-encoded in the query');
  t.equal(keyAppears(request({ headers: { authorization: `Basic ${Buffer.from(`:${key}`).toString('base64')}` } }), key), true, 'as Basic user:key');
  t.equal(keyAppears(request({ headers: { cookie: [`a=1`, `session=${key}`] } }), key), true, 'in a repeated field');
  t.equal(keyAppears(request({ body: `{"token":"${key}"}` }), key), true);
  t.equal(keyAppears(request({ headers: { authorization: 'Bearer k+y/' } }), key), false, 'a part of it is not it');
  t.equal(keyAppears(request({ headers: { authorization: 'Basic a2V5MQ' } }), 'key1'), true, 'in base64 without its padding (a2V5MQ==)');
  t.equal(keyAppears(request({ path: '/' }), 'a'), false, 'a request that carries nothing carries no key, however short');
});

t.test('the credential is exact only as one Authorization field, `Bearer <key>`', async (t) => {
  t.equal(exactCredential(request({ headers: { authorization: 'Bearer k' } }), 'Bearer k'), true);
  t.equal(exactCredential(request({ headers: { accept: 'application/json', authorization: 'Bearer k' } }), 'Bearer k'), true, 'beside other fields');
  t.equal(exactCredential(request({ headers: { authorization: 'bearer k' } }), 'Bearer k'), false);
  t.equal(exactCredential(request({ headers: { authorization: ['Bearer k', 'Bearer k'] } }), 'Bearer k'), false, 'two fields');
  t.equal(exactCredential(request({ headers: { AUTHORIZATION: 'Bearer k' } }), 'Bearer k'), true, 'its name in any case');
  t.equal(exactCredential(request({ headers: { authorization: 'Bearer k', Authorization: 'Bearer k' } }), 'Bearer k'), false, 'two fields, however named');
});

t.test('the names a request carries that the spec does not', async (t) => {
  t.same(unknownNames(request({ path: '/pets?limit=5&status=sold' }), list), []);
  t.same(unknownNames(request({ path: '/pets?limit=5&stauts=sold&page=2' }), list), ['stauts', 'page']);
  t.same(unknownNames(request({ method: 'POST', body: '{"name":"a","categoryId":1,"colour":"red"}' }), create), ['colour']);
  t.same(unknownNames(request({ method: 'POST', body: 'not json' }), create), [], 'a body that is not JSON names nothing');
  t.same(unknownNames(request({ path: '/pets?x=1' }), undefined), [], 'no operation, nothing to compare with');
  const get = operations.find((op) => op.operationId === 'getPet');
  t.same(unknownNames(request({ path: '/pets/1?petId=2', operationId: 'getPet' }), get), ['petId'], 'a path parameter is no query parameter');
  t.same(unknownNames(request({ body: '{"colour":"red"}' }), list), [], 'an operation without a body names no member of one');
  for (const body of ['"ab"', '[{"colour":"red"}]', 'null', '7'])
    t.same(unknownNames(request({ method: 'POST', body }), create), [], `a body that is no object names no member: ${body}`);
});

t.test('a write is any method but the safe ones (RFC 9110 §9.2.1), in any case', async (t) => {
  t.same(
    ['GET', 'HEAD', 'OPTIONS', 'TRACE', 'options'].map((method) => isWrite(request({ method }))),
    [false, false, false, false, false],
  );
  t.same(
    ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'].map((method) => isWrite(request({ method }))),
    [true, true, true, true, true],
  );
});
