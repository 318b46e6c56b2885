// Answers from a store that may be synchronous or not (src/server/store-answer.ts):
// a value is handed on in the same turn, a promise when it resolves; a store
// that is away gets the client a 503 Error with Retry-After, anything else a 500.
import { createServer, type ServerResponse } from 'node:http';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { StoreUnavailableError } from '../../../src/store/store.js';
import { createClock } from '../../../src/server/clock.js';
import { createResponder, type Exchange, type Responder } from '../../../src/server/respond.js';
import { withStoreAnswer, storeFailed } from '../../../src/server/store-answer.js';

/** An exchange and a responder that must not be used: a value is handed on without them. */
const unused = {
  x: {} as Exchange,
  respond: new Proxy({} as Responder, {
    get: (_target, name) => () => {
      throw new Error(`respond.${String(name)} was called`);
    },
  }),
};

/**
 * A server on 127.0.0.1 whose every request is settled with what `answer()`
 * gives; `then` answers 200 with the value. Returns its URL and the errors the responder reported as bugs.
 */
async function startSettling(t: Test, answer: () => unknown, then?: (value: unknown) => void) {
  const failed: unknown[] = [];
  const respond = createResponder(createClock(), { closing: () => false, answered: () => {}, failed: (error) => failed.push(error) });
  const server = createServer((req, res) => {
    const x: Exchange = { req, res, headers: undefined, arrived: 0, toControl: false, seq: 1 };
    withStoreAnswer(x, respond, answer(), then ?? ((value) => respond.send(x, 200, JSON.stringify({ value }))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const get = async () => {
    const res = await request(url);
    return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as Record<string, unknown> };
  };
  return { get, failed };
}

t.test('a value is handed on at once, in the same turn', async (t) => {
  const seen: number[] = [];
  withStoreAnswer(unused.x, unused.respond, 42, (value) => seen.push(value));
  t.strictSame(seen, [42], 'before withStoreAnswer returns');
  withStoreAnswer(unused.x, unused.respond, undefined, (value) => seen.push(value === undefined ? -1 : 0));
  t.strictSame(seen, [42, -1], 'undefined (a pet not found) is a value too');
});

t.test('a promise is handed on when it resolves, not before', async (t) => {
  const seen: string[] = [];
  let resolve: (value: string) => void = () => {};
  const pending = new Promise<string>((r) => (resolve = r));
  withStoreAnswer(unused.x, unused.respond, pending, (value) => seen.push(value));
  await Promise.resolve();
  t.strictSame(seen, [], 'not while it is pending');
  resolve('stored');
  await pending;
  await Promise.resolve();
  t.strictSame(seen, ['stored']);
});

t.test('a store that is away: 503 store_unavailable with Retry-After, never a hang or a 500', async (t) => {
  const { get, failed } = await startSettling(t, () => Promise.reject(new StoreUnavailableError('connection refused')));
  const r = await get();
  t.equal(r.status, 503);
  t.equal(r.headers['retry-after'], '1', 'about one reconnect attempt');
  t.equal(r.headers['content-type'], 'application/json');
  t.strictSame(r.body, { code: 'store_unavailable', message: 'the shared store cannot answer now (connection refused); try again', status: 503 });
  t.strictSame(failed, [], 'not reported as a bug');
});

t.test('any other failure of the store is a bug: 500 internal_error, reported', async (t) => {
  const broken = new TypeError('cannot read properties of undefined');
  const { get, failed } = await startSettling(t, () => Promise.reject(broken));
  const r = await get();
  t.equal(r.status, 500);
  t.equal(r.headers['retry-after'], undefined, 'no Retry-After: trying again will not help');
  t.match(r.body, { code: 'internal_error', status: 500 });
  t.strictSame(failed, [broken], 'the error is reported to the operator');
});

t.test('what then throws after the promise resolved is a 500, not an unhandled rejection', async (t) => {
  const bug = new Error('then broke');
  const { get, failed } = await startSettling(
    t,
    () => Promise.resolve(1),
    () => {
      throw bug;
    },
  );
  const r = await get();
  t.equal(r.status, 500);
  t.match(r.body, { code: 'internal_error' });
  t.strictSame(failed, [bug]);
});

t.test('a resolved promise is answered with its value', async (t) => {
  const { get, failed } = await startSettling(t, () => Promise.resolve(7));
  const r = await get();
  t.equal(r.status, 200);
  t.strictSame(r.body, { value: 7 });
  t.strictSame(failed, []);
});

t.test('a failure after the answer began, or on a connection gone, answers nothing more', async (t) => {
  const calls: string[] = [];
  const respond = { sendError: () => calls.push('sendError'), fail: () => calls.push('fail') } as unknown as Responder;
  const exchange = (res: Partial<ServerResponse>) => ({ res }) as unknown as Exchange;
  storeFailed(exchange({ headersSent: true, destroyed: false }), respond, new StoreUnavailableError('gone'));
  storeFailed(exchange({ headersSent: false, destroyed: true }), respond, new Error('bug'));
  t.strictSame(calls, []);
  storeFailed(exchange({ headersSent: false, destroyed: false }), respond, new StoreUnavailableError('gone'));
  storeFailed(exchange({ headersSent: false, destroyed: false }), respond, new Error('bug'));
  t.strictSame(calls, ['sendError', 'fail'], 'while the answer can still be given: 503 for the store away, fail for a bug');
});
