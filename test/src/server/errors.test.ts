// Seed §7 (every error answer carries the Error body {code, message, status});
// decision D9: bodies are `application/json`, an Error's status
// is the HTTP status and its code comes from the one catalogue.
import t, { type Test } from 'tap';
import { StoreUnavailableError, type Store } from '../../../src/store/index.js';
import { errorCatalog, errorJson } from '../../../src/server/index.js';
import { errorMessage } from '../../../src/server/errors.js';
import type { ApiResponse, CallOptions } from '../../helpers/api-client.js';
import { checkAgainstSpec } from '../../helpers/spec-guard.js';
import { connect, parseRawResponse, rawExchange, readAll } from '../../helpers/raw-socket.js';
import { startTestServer } from '../../helpers/server.js';

const JSON_CONTENT_TYPE = 'application/json';

function checkError(t: Test, r: { status: number; headers: Record<string, unknown>; text: string }, code: string): void {
  t.equal(r.headers['content-type'], JSON_CONTENT_TYPE, `${code}: Content-Type`);
  const body = JSON.parse(r.text);
  t.strictSame(Object.keys(body).sort(), ['code', 'message', 'status'], `${code}: exactly code, message, status`);
  t.equal(body.code, code, `${code}: code`);
  t.equal(body.status, r.status, `${code}: status is the HTTP status`);
  t.equal(errorCatalog[code as keyof typeof errorCatalog]?.status, r.status, `${code}: the catalogue's status`);
  t.type(body.message, 'string');
  t.not(body.message, '', `${code}: a message`);
}

t.test('every error code of the catalogue is answered with an Error body whose status is the HTTP status', async (t) => {
  const { api, url, server } = await startTestServer(t, {
    seed: [{ name: 'Rex', categoryId: 1n }],
    limits: { maxPets: 1, headersTimeoutMs: 300, requestTimeoutMs: 300 },
    onError: () => {},
  });
  const seen = new Map<string, ApiResponse | { status: number; headers: Record<string, string>; text: string }>();
  const requests: ReadonlyArray<readonly [string, string, CallOptions]> = [
    ['invalid_parameter', '/pets?limit=0', {}],
    ['malformed_json', '/pets', { body: '{', headers: { 'content-type': 'application/json' } }],
    ['invalid_body', '/pets', { json: { name: 'x' } }],
    ['unauthorized', '/pets', { auth: false }],
    ['route_not_found', '/nope', {}],
    ['pet_not_found', '/pets/99', {}],
    ['method_not_allowed', '/pets', { method: 'DELETE' }],
    ['payload_too_large', '/pets', { body: 'x'.repeat(1024 * 1024 + 1), headers: { 'content-type': 'application/json' } }],
    ['uri_too_long', `/pets?x=${'a'.repeat(9000)}`, {}],
    ['unsupported_media_type', '/pets', { body: 'x', headers: { 'content-type': 'text/plain' } }],
    ['storage_full', '/pets', { json: { name: 'x', categoryId: 1 } }],
  ];
  for (const [code, path, options] of requests) seen.set(code, await api(path, options));

  server.clock.set(new Date('2031-01-01T00:00:00Z'));
  seen.set('gone', await api('/pets/1'));

  // An error injected through the control API, with its default status.
  server.faults.set('listPets', { latencyMs: 0, status: 503, errorRate: 1, dropRate: 0 });
  seen.set('fault_injected', await api('/pets'));
  server.faults.clear();

  const { host, pathname } = new URL(url);
  seen.set('bad_request', parseRawResponse(await rawExchange(url, 'GARBAGE\r\n\r\n')));
  seen.set('header_too_large', parseRawResponse(await rawExchange(url, `GET ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`)));
  // Half a request, then silence: the server gives up after headersTimeoutMs.
  const slow = await connect(url);
  const answer = readAll(slow);
  slow.write(`GET ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\n`);
  seen.set('request_timeout', parseRawResponse(await answer));

  // A failure inside an operation (here a store that throws) must still answer an Error body.
  server.store.list = () => {
    throw new Error('the store failed');
  };
  seen.set('internal_error', await api('/pets'));
  // A shared store that cannot answer (Redis away) is a 503, never a 500.
  (server.store as Store).create = () => Promise.reject(new StoreUnavailableError('Redis is away'));
  seen.set('store_unavailable', await api('/pets', { json: { name: 'Rex', categoryId: 1 } }));

  for (const code of Object.keys(errorCatalog)) {
    const r = seen.get(code);
    if (!r) t.fail(`${code}: not reached by this test`);
    else checkError(t, r, code);
  }
  for (const [code, r] of seen) {
    if (!('body' in r)) await checkAgainstSpec(t, { method: 'GET', path: code === 'header_too_large' ? '/pets' : '', ...r });
  }
});

t.test('an unexpected failure is reported to onError and answered 500 internal_error', async (t) => {
  const reported: unknown[] = [];
  const { api, server } = await startTestServer(t, { onError: (error) => reported.push(error) });
  server.store.get = () => {
    throw new Error('boom');
  };
  const r = await api('/pets/1');
  t.equal(r.status, 500);
  t.equal(r.body.code, 'internal_error');
  t.notMatch(r.text, /boom/, 'the internal message is not shown to the client');
  t.equal(reported.length, 1, 'reported once');
  t.equal((reported[0] as Error).message, 'boom');
  t.equal((await api('/pets')).status, 200, 'the server keeps serving');
});

t.test('a failure once the body has been read (after the request handler returned) is answered 500, not a crash', async (t) => {
  const reported: unknown[] = [];
  const { api, server } = await startTestServer(t, { onError: (error) => reported.push(error) });
  server.store.create = () => {
    throw new Error('boom');
  };
  const r = await api('/pets', { json: { name: 'Rex', categoryId: 1 } });
  t.equal(r.status, 500);
  t.equal(r.body.code, 'internal_error');
  t.equal(reported.length, 1, 'reported once');
  t.equal(r.headers['connection'], 'close', 'the connection closes after a 500');
  t.equal((await api('/pets')).status, 200, 'the server keeps serving');
});

t.test('every answer with a body is application/json (no charset: RFC 8259 §11) and carries a Date', async (t) => {
  const { api } = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n }] });
  const requests: ReadonlyArray<readonly [string, CallOptions]> = [
    ['/pets', {}],
    ['/pets/1', {}],
    ['/pets', { json: { name: 'Tom', categoryId: 2 } }],
    ['/pets', { json: {} }],
    ['/pets?limit=0', {}],
    ['/pets', { auth: false }],
    ['/pets/7', {}],
    ['/x', {}],
    ['/pets', { method: 'PUT' }],
    ['/pets', { body: 'x', headers: { 'content-type': 'text/plain' } }],
  ];
  for (const [path, options] of requests) {
    const r = await api(path, options);
    t.not(r.text, '', `${path} → ${r.status}: has a body`);
    t.equal(r.headers['content-type'], JSON_CONTENT_TYPE, `${path} → ${r.status}: Content-Type`);
    t.equal(r.headers['content-length'], String(Buffer.byteLength(r.text)), `${path} → ${r.status}: Content-Length`);
    t.ok(Number.isFinite(Date.parse(String(r.headers['date']))), `${path} → ${r.status}: Date`);
  }
});

t.test('errorCatalog gives each code one HTTP error status and a meaning', async (t) => {
  for (const [code, entry] of Object.entries(errorCatalog)) {
    t.match(code, /^[a-z]+(_[a-z]+)*$/, `${code}: snake_case`);
    t.ok(entry.status >= 400 && entry.status <= 599, `${code}: an error status`);
    t.ok(entry.meaning.length > 10, `${code}: a meaning`);
  }
});

t.test('errorJson writes {code, message, status} with the status of the code', async (t) => {
  t.strictSame(JSON.parse(errorJson('pet_not_found', 'no animal has id 3')), { code: 'pet_not_found', message: 'no animal has id 3', status: 404 });
  t.strictSame(JSON.parse(errorJson('unauthorized', 'quote " and \\')), { code: 'unauthorized', message: 'quote " and \\', status: 401 });
});

t.test('errorMessage reads back the message errorJson wrote, from text or bytes; of anything else, nothing', async (t) => {
  const body = errorJson('unauthorized', 'quote " and \\');
  t.equal(errorMessage(body), 'quote " and \\');
  t.equal(errorMessage(Buffer.from(body)), 'quote " and \\');
  for (const other of [undefined, '', 'not JSON', '{"code":"x"}', 'null']) t.equal(errorMessage(other), '', String(other));
});
