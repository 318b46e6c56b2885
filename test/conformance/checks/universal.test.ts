// The rules over every answer (conformance/checks/universal.ts): a server
// error or a 4xx without the Error body fails wherever the run meets it, and
// only a row of the tolerance table excuses one, counted under its id.
import t from 'tap';
import { universalChecks, universalRules, type ToleratedCounts } from '../../../conformance/checks/universal.js';
import type { Exchange } from '../../../conformance/client.js';
import { TOLERANCES } from '../../../conformance/tolerances.js';
import type { Check, CheckContext } from '../../../conformance/vocabulary.js';
import { operations } from '../../../spec/operations.js';
import { ruleVerdict } from '../../helpers/rule-verdict.js';

const ctx = { operations } as unknown as CheckContext;
const ERROR = (status: number) => ({ code: 'x', message: 'y', status: BigInt(status) });

const exchange = (s: { method?: string; path?: string; raw?: string; fromOrigin?: boolean; status: number; json?: unknown; text?: string }): Exchange =>
  ({
    family: 'http',
    request: {
      method: s.method ?? 'GET',
      path: s.path ?? '/pets',
      headers: {},
      operationId: 'listPets',
      offSpec: true,
      ...(s.raw ? { raw: s.raw } : {}),
      ...(s.fromOrigin ? { fromOrigin: true } : {}),
    },
    response: { status: s.status, headers: {}, text: s.text ?? (s.json ? 'json' : ''), json: s.json, durationMs: 1 },
  }) as unknown as Exchange;

function judge(table = TOLERANCES) {
  const tolerated: ToleratedCounts = new Map();
  const [serverError, errorBody] = universalRules(table, tolerated) as [never, never];
  return { tolerated, serverError: (e: Exchange) => ruleVerdict(serverError, e, ctx), errorBody: (e: Exchange) => ruleVerdict(errorBody, e, ctx) };
}

t.test('a server error fails on any request, on the spec or off it, with a key or not', async (t) => {
  const { serverError } = judge();
  t.match(serverError(exchange({ status: 500, json: ERROR(500) })), /GET \/pets was answered 500, a server error/);
  t.match(serverError(exchange({ method: 'POST', status: 503, json: ERROR(503) })), /answered 503/, 'with an Error body too');
  t.match(serverError(exchange({ raw: 'GET /v1/pets HTTP/1.1\r\n\r\n', status: 502 })), /502/, 'to a message written by hand');
  t.equal(serverError(exchange({ status: 404, json: ERROR(404) })), 'ok', 'it judges every answer, and only a 5xx breaks it');
});

t.test('a 501 is excused only for a method the interface uses on no path', async (t) => {
  const { serverError, tolerated } = judge();
  t.equal(serverError(exchange({ method: 'PROPFIND', status: 501 })), 'ok');
  t.equal(serverError(exchange({ method: 'PUT', status: 501 })), 'ok');
  t.match(serverError(exchange({ method: 'GET', status: 501 })), /501/, 'not for GET');
  t.match(serverError(exchange({ method: 'HEAD', status: 501 })), /501/, 'not for HEAD, which GET brings');
  t.match(serverError(exchange({ method: 'PROPFIND', status: 500 })), /500/, 'and never another 5xx');
  t.same([...tolerated], [['unimplemented-method', 2]], 'each excused answer counted under its row');
});

t.test("a 4xx without the Error body fails on the interface's paths and methods", async (t) => {
  const { errorBody } = judge();
  t.match(errorBody(exchange({ status: 400, text: '<html>Bad</html>' })), /400 answer to GET \/pets has no valid Error body: the body is not JSON/);
  t.match(errorBody(exchange({ path: '/pets/12?x=1', status: 412 })), /412 .* the body is empty/, 'a precondition failed');
  t.match(errorBody(exchange({ method: 'POST', status: 415, json: { error: 'nope' } })), /`code` is missing/);
  t.match(errorBody(exchange({ status: 401, json: ERROR(403) })), /`status` is 403 but the HTTP status is 401/);
  t.equal(errorBody(exchange({ status: 401, json: ERROR(401) })), 'ok');
  t.equal(errorBody(exchange({ status: 500, text: 'x' })), 'ok', "a 5xx is the other rule's");
});

t.test('what the tolerance table excuses from the Error body', async (t) => {
  const { errorBody, tolerated } = judge();
  t.equal(errorBody(exchange({ method: 'HEAD', status: 401 })), 'ok', 'HEAD: no content');
  t.equal(errorBody(exchange({ raw: 'GET /v1/pets HTTP/1.1\r\n\r\n', status: 400 })), 'ok', "the HTTP stack's 400 to a message written by hand");
  t.match(errorBody(exchange({ raw: 'GET /v1/pets HTTP/1.1\r\nHost: a\r\n\r\n', status: 401 })), /401/, 'but not a 401 to one: the service answered it');
  t.equal(errorBody(exchange({ path: '/pets/', status: 404, text: 'Cannot GET' })), 'ok', 'a path the interface does not have');
  t.equal(errorBody(exchange({ path: '/PETS', status: 404, text: 'Cannot GET' })), 'ok');
  t.equal(errorBody(exchange({ path: '/pets', fromOrigin: true, status: 404, text: 'Cannot GET' })), 'ok', 'outside the base path');
  t.equal(errorBody(exchange({ method: 'PROPFIND', status: 404, text: '{}' })), 'ok', 'a method the interface uses nowhere');
  t.equal(errorBody(exchange({ method: 'DELETE', path: '/pets/1', status: 405, text: '' })), 'ok', 'DELETE is no method of the interface either');
  t.match(errorBody(exchange({ path: '/pets/1', status: 404, text: 'Not Found' })), /404/, "but getPet's own 404 needs its Error body");
  t.same(Object.fromEntries(tolerated), { 'head-without-content': 1, 'parser-refusal': 1, 'outside-interface': 3, 'method-outside-interface': 2 });
});

t.test('without the table, every one of those answers fails', async (t) => {
  const { errorBody, serverError } = judge([]);
  t.match(errorBody(exchange({ method: 'HEAD', status: 401 })), /401/);
  t.match(errorBody(exchange({ path: '/pets/', status: 404, text: 'Cannot GET' })), /404/);
  t.match(serverError(exchange({ method: 'PROPFIND', status: 501 })), /501/);
});

t.test("as a run's checks: one failure per status and operation, the other answers counted in it", async (t) => {
  const listeners: ((e: Exchange) => void)[] = [];
  const run = {
    operations,
    options: { strict: false },
    client: { observe: (l: (e: Exchange) => void) => listeners.push(l) },
    unspecified() {},
  } as unknown as CheckContext;
  const [serverError, errorBody] = universalChecks(run, TOLERANCES, new Map()) as [Check, Check];
  const bare = (path: string, status: number) => exchange({ path, status, text: 'Not Found' });
  for (const e of [bare('/pets/1', 500), bare('/pets/2', 500), bare('/pets/3', 503), bare('/pets/1', 404), bare('/pets/2', 404), bare('/pets/3', 400)])
    for (const listener of listeners) listener(e);
  // Another pet's id is the same problem; another status is another, though the wording differs only in its numbers.
  for (const [check, statuses] of [
    [serverError, [500, 503]],
    [errorBody, [404, 400]],
  ] as const) {
    const outcome = await check.run(run);
    t.equal(outcome.status, 'failed', check.id);
    t.same(
      [outcome.failure, ...(outcome.extraFailures ?? [])].map((f) => [f?.family, f?.response?.status, f?.occurrences]),
      [
        ['responses', statuses[0], 2],
        ['responses', statuses[1], 1],
      ],
    );
  }
});
