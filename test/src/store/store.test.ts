// What the server needs of a store (src/store/store.ts): the in-memory store
// answers with values, the shared one with promises that may fail when Redis is
// away; a store that cannot answer throws StoreUnavailableError, which the
// server answers 503 store_unavailable (server/store-answer.ts), never a 500.
import t from 'tap';
import { errorCatalog } from '../../../src/server/errors.js';
import type { Exchange, Responder } from '../../../src/server/respond.js';
import { withStoreAnswer, storeFailed } from '../../../src/server/store-answer.js';
import { type Maybe, StoreUnavailableError } from '../../../src/store/store.js';

/** A responder that records what it was asked to answer. */
function recorder() {
  const calls: unknown[][] = [];
  const respond = {
    send: (...args: unknown[]) => calls.push(['send', ...args.slice(1)]),
    answer: (...args: unknown[]) => calls.push(['answer', ...args.slice(1)]),
    sendError: (...args: unknown[]) => calls.push(['sendError', ...args.slice(1)]),
    fail: (_x: unknown, error: unknown) => calls.push(['fail', error]),
    drop: () => calls.push(['drop']),
  } as unknown as Responder;
  const x = { res: { headersSent: false, destroyed: false } } as unknown as Exchange;
  return { calls, respond, x };
}

t.test('StoreUnavailableError is an Error with the code of the 503 Error in the catalogue', async (t) => {
  const error = new StoreUnavailableError('redis is away');
  t.ok(error instanceof Error);
  t.equal(error.message, 'redis is away');
  t.equal(error.code, 'store_unavailable');
  t.equal(errorCatalog[error.code].status, 503);
});

t.test('a store that cannot answer gets the client a 503 with Retry-After; any other failure is a bug (500)', async (t) => {
  const away = recorder();
  storeFailed(away.x, away.respond, new StoreUnavailableError('connection refused'));
  t.strictSame(away.calls, [['sendError', 'store_unavailable', 'the shared store cannot answer now (connection refused); try again', ['retry-after', '1']]]);

  const bug = recorder();
  const error = new Error('not a store failure');
  storeFailed(bug.x, bug.respond, error);
  t.strictSame(bug.calls, [['fail', error]], 'a plain Error is not a store being away');
});

t.test('a value answered now is settled in the same turn; a promise when it resolves or fails', async (t) => {
  const now = recorder();
  const seen: number[] = [];
  const value: Maybe<number> = 3;
  withStoreAnswer(now.x, now.respond, value, (n) => seen.push(n));
  t.strictSame(seen, [3], 'a synchronous store never waits on a promise');

  const later = recorder();
  let resolve!: (n: number) => void;
  const promise: Maybe<number> = new Promise<number>((r) => (resolve = r));
  withStoreAnswer(later.x, later.respond, promise, (n) => seen.push(n));
  t.strictSame(seen, [3], 'not yet');
  resolve(4);
  await promise;
  await Promise.resolve();
  t.strictSame(seen, [3, 4]);

  const failed = recorder();
  const rejected: Maybe<number> = Promise.reject(new StoreUnavailableError('timed out'));
  withStoreAnswer(failed.x, failed.respond, rejected, () => seen.push(0));
  await rejected.catch(() => {});
  await Promise.resolve();
  t.match(failed.calls, [['sendError', 'store_unavailable']], 'a rejected StoreUnavailableError: 503');
  t.strictSame(seen, [3, 4], 'then is not called');
});
