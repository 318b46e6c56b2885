// The spec guard of the server tests must itself catch what it claims to catch;
// otherwise every server test would pass on a broken server.
import t from 'tap';
import { errorBodyProblems, matchesTemplate, specProblems, prismView, type Observed } from './spec-guard.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const ok = (o: Partial<Observed>): Observed => ({ method: 'GET', path: '/pets', status: 200, headers: JSON_HEADERS, text: '[]', ...o });

t.test('a conforming response has no problem', async (t) => {
  t.strictSame(await specProblems(ok({ text: '[{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"sold"}]' })), []);
  t.strictSame(await specProblems(ok({ path: '/pets/1', status: 404, text: '{"code":"pet_not_found","message":"m","status":404}' })), []);
  t.strictSame(
    await specProblems(ok({ status: 400, text: '{"code":"invalid_parameter","message":"m","status":400}' })),
    [],
    'an undeclared 400 with an Error body',
  );
  t.strictSame(await specProblems(ok({ method: 'OPTIONS', status: 204, headers: {}, text: '' })), []);
  t.strictSame(await specProblems(ok({ method: 'HEAD', headers: JSON_HEADERS, text: '' })), []);
});

t.test('Prism catches a body that breaks the schema', async (t) => {
  const problems = await specProblems(ok({ text: '[{"id":"1","name":"Rex"}]' }));
  t.ok(
    problems.some((p) => p.includes('categoryId')),
    'missing categoryId',
  );
  t.ok(
    problems.some((p) => p.includes('id must be integer')),
    'a string id',
  );
  t.ok((await specProblems(ok({ path: '/pets/1', text: '{"id":1,"name":"Rex","categoryId":1,"status":"lost"}' }))).length > 0, 'a status outside PetStatus');
  t.ok((await specProblems(ok({ method: 'POST', status: 201, text: '[]' }))).length > 0, 'an array for a Pet');
});

t.test('an undeclared success status is a problem', async (t) => {
  t.ok((await specProblems(ok({ method: 'POST', status: 200, text: '{"id":1,"name":"Rex","categoryId":1}' }))).length > 0);
});

t.test('a wrong Content-Type, a body that is not JSON and an int64 overflow are problems', async (t) => {
  t.ok((await specProblems(ok({ headers: { 'content-type': 'application/json; charset=utf-8' } }))).some((p) => p.includes('Content-Type')));
  t.ok((await specProblems(ok({ text: '[' }))).some((p) => p.includes('not JSON')));
  t.ok((await specProblems(ok({ text: '[{"id":1,"name":"Rex","categoryId":9223372036854775808}]' }))).some((p) => p.includes('outside int64')));
});

t.test('an error answer must be an Error of the catalogue with the HTTP status', async (t) => {
  t.ok(
    (await specProblems(ok({ status: 405, path: '/pets', method: 'DELETE', text: '{"code":"nope","message":"m","status":405}' }))).length > 0,
    'unknown code',
  );
  t.ok((await specProblems(ok({ status: 404, path: '/x', text: '{"code":"route_not_found","message":"m","status":400}' }))).length > 0, 'status mismatch');
  t.ok((await specProblems(ok({ status: 401, text: '{"code":"unauthorized","status":401}' }))).length > 0, 'no message (Prism and the catalogue check)');
  t.ok((await specProblems(ok({ status: 500, path: '/x', text: '' }))).length > 0, 'no body at all');
  t.ok(errorBodyProblems({ code: 'unauthorized', message: 'm', status: 401, extra: 1 }, 401).length > 0, 'an extra member');
  t.ok(errorBodyProblems({ code: 'unauthorized', message: 'm', status: 401 }, 404).length > 0, 'a code of another status');
});

t.test('a success outside the operations of the spec may not have a body', async (t) => {
  t.ok((await specProblems(ok({ path: '/other', text: '{}' }))).length > 0);
  t.ok((await specProblems(ok({ method: 'HEAD', text: '[]' }))).length > 0, 'HEAD with a body');
});

t.test('prismView hands Prism safe integers but checks int64 digit for digit, ignoring digits in strings', async (t) => {
  t.strictSame(prismView('{"a":9223372036854775807,"b":"9223372036854775808","c":-9223372036854775808}'), {
    body: { a: Number.MAX_SAFE_INTEGER, b: '9223372036854775808', c: -Number.MAX_SAFE_INTEGER },
    outOfInt64: [],
  });
  t.strictSame(prismView('[9223372036854775808,"x\\"1",1.5,-9223372036854775809]').outOfInt64, ['9223372036854775808', '-9223372036854775809']);
});

t.test('matchesTemplate matches a {param} to one non-empty segment', async (t) => {
  t.ok(matchesTemplate('/pets/{petId}', '/pets/1'));
  t.notOk(matchesTemplate('/pets/{petId}', '/pets/'));
  t.notOk(matchesTemplate('/pets/{petId}', '/pets/1/x'));
  t.notOk(matchesTemplate('/pets', '/pet'));
});
