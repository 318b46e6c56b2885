// Routes are the spec's path templates: literal segments match exactly, a
// {param} segment is one non-empty, percent-decoded segment, and nothing else
// matches. The router on its own, without a server.
import t from 'tap';
import { decoyOperation } from '../../helpers/decoy-operation.js';
import { type HttpMethod, type OperationDescriptor, operations } from '../../../spec/operations.js';
import { buildRoutes, matchRoute } from '../../../src/server/router.js';

const routes = buildRoutes(operations);

/** An operation for a template the spec does not have, to try shapes it lacks. */
const op = (method: string, path: string): OperationDescriptor => decoyOperation(method as HttpMethod, path);

function found(path: string, from = 0) {
  const match = matchRoute(routes, path, from);
  return match.found ? { template: match.route.template, params: match.params, badEncoding: match.badEncoding } : undefined;
}

t.test('each path of the spec is one route, with its operations by method, HEAD answered by GET', async (t) => {
  t.same(
    routes.map((r) => r.template),
    ['/pets', '/pets/{petId}'],
  );
  const [pets, pet] = routes as [(typeof routes)[0], (typeof routes)[0]];
  t.same([...pets.operations.keys()], ['GET', 'POST', 'HEAD']);
  t.equal(pets.operations.get('HEAD')?.operationId, 'listPets');
  t.equal(pets.operations.get('POST')?.operationId, 'createPet');
  t.equal(pet.operations.get('HEAD')?.operationId, 'getPet');
  t.equal(pets.allow, 'GET, POST, HEAD, OPTIONS');
  t.equal(pet.allow, 'GET, HEAD, OPTIONS');
  t.same(pet.segments, [{ literal: 'pets' }, { param: 'petId' }]);
});

t.test('a path without a GET operation has no HEAD either', async (t) => {
  const [route] = buildRoutes([op('POST', '/things')]);
  t.same([...(route?.operations.keys() ?? [])], ['POST']);
  t.equal(route?.allow, 'POST, OPTIONS');
});

t.test('a segment is a parameter only when braces enclose it whole', async (t) => {
  const [route] = buildRoutes([op('GET', '/a/{b/c}/{d}')]);
  t.same(route?.segments, [{ literal: 'a' }, { literal: '{b' }, { literal: 'c}' }, { param: 'd' }]);
});

t.test('a literal path matches only itself', async (t) => {
  t.same(found('/pets'), { template: '/pets', params: {}, badEncoding: undefined });
  for (const path of ['/pets/', '/petsx', '/pet', '/Pets', '/pets/x/y', '', '/', '//pets', 'pets']) t.equal(found(path), undefined, JSON.stringify(path));
});

t.test('a template matches one non-empty segment per parameter, and no more segments', async (t) => {
  t.same(found('/pets/42'), { template: '/pets/{petId}', params: { petId: '42' }, badEncoding: undefined });
  t.same(found('/pets/abc'), { template: '/pets/{petId}', params: { petId: 'abc' }, badEncoding: undefined }, 'any text: the parameter reader judges it');
  for (const path of ['/pets/42/', '/pets/42/x', '/pets//', '/pets//42', '/petz/42', '/pet/42', '/pets42'])
    t.equal(found(path), undefined, JSON.stringify(path));
});

t.test('a parameter segment is percent-decoded, and one that is not valid percent-encoding still names the route', async (t) => {
  t.same(found('/pets/4%32'), { template: '/pets/{petId}', params: { petId: '42' }, badEncoding: undefined });
  t.same(found('/pets/a%2Fb'), { template: '/pets/{petId}', params: { petId: 'a/b' }, badEncoding: undefined }, 'an encoded slash stays in the segment');
  t.same(found('/pets/%zz'), { template: '/pets/{petId}', params: {}, badEncoding: 'petId' });
  t.same(found('/pets/%E0%A4%A'), { template: '/pets/{petId}', params: {}, badEncoding: 'petId' });
  t.equal(found('/pets/%zz/x'), undefined, 'a bad segment on a path that matches no route');
});

t.test('matching starts where the base path ends', async (t) => {
  t.same(found('/v1/pets', 3)?.template, '/pets');
  t.same(found('/v1/pets/7', 3)?.params, { petId: '7' });
  t.equal(found('/v1/petsx', 3), undefined);
  t.equal(found('/v1/pets', 2), undefined, 'from inside the base path');
  t.equal(found('/v1/pets/7', 2), undefined);
  t.equal(found('/xxpets', 2), undefined, 'not at a slash');
});

t.test('templates with literals after a parameter, and several parameters', async (t) => {
  const own = buildRoutes([op('GET', '/owners/{ownerId}/pets'), op('GET', '/owners/{ownerId}/pets/{petId}')]);
  const at = (path: string) => {
    const m = matchRoute(own, path);
    return m.found ? [m.route.template, m.params] : undefined;
  };
  t.same(at('/owners/5/pets'), ['/owners/{ownerId}/pets', { ownerId: '5' }]);
  t.same(at('/owners/5/pets/9'), ['/owners/{ownerId}/pets/{petId}', { ownerId: '5', petId: '9' }]);
  for (const path of [
    '/owners/5/petz',
    '/owners/5/pet',
    '/owners/5/petss',
    '/owners/5',
    '/owners/5/',
    '/owners//pets',
    '/owners/5/pets/',
    '/owners/5/pets/9/x',
  ])
    t.equal(at(path), undefined, path);
});

t.test('a literal route is found among several, the first that matches', async (t) => {
  const own = buildRoutes([op('GET', '/a'), op('GET', '/a/b'), op('GET', '/{x}')]);
  const at = (path: string) => {
    const m = matchRoute(own, path);
    return m.found ? m.route.template : undefined;
  };
  t.equal(at('/a'), '/a');
  t.equal(at('/a/b'), '/a/b');
  t.equal(at('/c'), '/{x}');
  t.equal(at('/a/c'), undefined);
  t.equal(at('/ab'), '/{x}');
});
