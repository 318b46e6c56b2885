// Issue 47 §2 (src/server/respond.ts): an answer says what the request showed.
// Every answer to a request with findings names their codes in
// Petstore-Finding; a 4xx Error's message ends with their hints; the
// refusal's own finding is asked for before the answer is written, so that
// it is in that answer; a request without findings is answered as before.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { createClock } from '../../../../src/server/clock.js';
import type { ErrorCode } from '../../../../src/server/errors.js';
import { createResponder, type Exchange, type Responder, type ResponderHooks } from '../../../../src/server/respond.js';

interface Refused {
  readonly code: ErrorCode;
  readonly message: string;
  /** Whether the answer had been written when the refusal was told. */
  readonly written: boolean;
}

/** A bare node:http server answering through a responder whose `refusing` hook marks the request as `mark` says. */
async function serve(t: Test, route: (respond: Responder, x: Exchange) => void, mark?: (x: Exchange, code: ErrorCode) => void) {
  const refused: Refused[] = [];
  const bodies: (string | Buffer | undefined)[] = [];
  const hooks: ResponderHooks = {
    closing: () => false,
    ...(mark
      ? {
          refusing: (x: Exchange, code: ErrorCode, message: () => string) => {
            refused.push({ code, message: message(), written: x.res.headersSent });
            mark(x, code);
          },
        }
      : {}),
    answered: (_x, _status, _code, _headers, body) => bodies.push(body),
    failed: (error) => t.fail(String(error)),
  };
  const respond = createResponder(createClock(), hooks);
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    route(respond, { req, res, headers: undefined, arrived: performance.now(), toControl: false, seq: 1 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())).then(() => server.closeAllConnections()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path = '/') => {
    const res = await request(origin + path);
    return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
  };
  return { get, refused, bodies };
}

t.test('an answer to a request that showed findings names their codes in Petstore-Finding, its body as it was', async (t) => {
  const s = await serve(t, (respond, x) => {
    if (x.req.url === '/found') x.findingCodes = 'unknown_query_parameter, key_form';
    respond.send(x, 200, '[]');
  });
  const found = await s.get('/found');
  t.equal(found.headers['petstore-finding'], 'unknown_query_parameter, key_form');
  t.equal(found.body, '[]', 'a 2xx body is the one the spec defines: the header alone says it');
  const none = await s.get('/none');
  t.notOk('petstore-finding' in none.headers, 'no finding: no such field');
  t.strictSame(Object.keys(none.headers).sort(), ['connection', 'content-length', 'content-type', 'date', 'keep-alive'], 'the fields as before');
});

t.test('a 4xx Error’s message ends with the request’s hints, its code kept; a 5xx keeps its own message and still names the findings', async (t) => {
  const s = await serve(t, (respond, x) => {
    x.findingCodes = 'unknown_query_parameter';
    x.hints = 'listPets has no query parameter stauts: did you mean status?';
    if (x.req.url === '/away') return respond.sendError(x, 'store_unavailable', 'the shared store cannot answer now');
    respond.sendError(x, 'invalid_parameter', 'query parameter limit must be at least 1');
  });
  const refused = await s.get('/');
  t.equal(refused.status, 400);
  t.strictSame(JSON.parse(refused.body), {
    code: 'invalid_parameter',
    message: 'query parameter limit must be at least 1; listPets has no query parameter stauts: did you mean status?',
    status: 400,
  });
  t.equal(refused.headers['petstore-finding'], 'unknown_query_parameter');
  const away = await s.get('/away');
  t.equal(away.status, 503);
  t.equal(JSON.parse(away.body).message, 'the shared store cannot answer now', 'not the client’s doing: no hint');
  t.equal(away.headers['petstore-finding'], 'unknown_query_parameter');
});

t.test('a refusal is told before its answer is written, so that the finding it makes is in that answer', async (t) => {
  const s = await serve(
    t,
    (respond, x) => respond.sendError(x, 'pet_not_found', 'no animal has id 9007199254740992'),
    (x) => {
      x.findingCodes = 'rounded_id';
      x.hints = 'was it rounded from 9007199254740993, an id this server gave? (JSON.parse keeps 53 bits)';
    },
  );
  const res = await s.get('/v1/pets/9007199254740992');
  t.strictSame(s.refused, [{ code: 'pet_not_found', message: 'no animal has id 9007199254740992', written: false }], 'the Error’s own message, before writing');
  t.equal(res.headers['petstore-finding'], 'rounded_id');
  t.equal(
    JSON.parse(res.body).message,
    'no animal has id 9007199254740992; was it rounded from 9007199254740993, an id this server gave? (JSON.parse keeps 53 bits)',
  );
  t.equal(JSON.parse(res.body).code, 'pet_not_found', 'the code clients branch on is kept');
});

t.test('an Error body made once is answered as it is, unless the request has hints: then its message says them', async (t) => {
  const made = Buffer.from('{"code":"unauthorized","message":"an API key is required","status":401}');
  const s = await serve(
    t,
    (respond, x) => respond.send(x, 401, made, ['www-authenticate', 'Bearer'], 'unauthorized'),
    (x) => {
      x.findingCodes = 'unauthorized';
      if (x.req.url === '/hinted') x.hints = 'a hint';
    },
  );
  const plain = await s.get('/');
  t.equal(plain.headers['petstore-finding'], 'unauthorized');
  t.equal(plain.body, made.toString());
  t.equal(s.bodies[0], made, 'the very body made once: nothing made per request');
  t.match(s.refused, [{ code: 'unauthorized', message: 'an API key is required', written: false }]);
  const hinted = await s.get('/hinted');
  t.strictSame(JSON.parse(hinted.body), { code: 'unauthorized', message: 'an API key is required; a hint', status: 401 });
});

t.test('without a refusing hook (findings off) an Error is answered as it was', async (t) => {
  const s = await serve(t, (respond, x) => respond.sendError(x, 'pet_not_found', 'no animal has id 7'));
  const res = await s.get();
  t.equal(res.body, '{"code":"pet_not_found","message":"no animal has id 7","status":404}');
  t.notOk('petstore-finding' in res.headers);
});
