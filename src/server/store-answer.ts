/**
 * Answers from a store that may be synchronous (in memory) or not (Redis).
 * A value goes to `then` at once, in the same turn, so the in-memory hot
 * path never waits on a promise; a promise goes to `then` when it resolves.
 * A store that cannot answer (Redis away) gets the client a 503 Error with
 * `Retry-After`, never a hang or a 500; anything else is a bug (500).
 */
import { StoreUnavailableError, type Maybe } from '../store/store.js';
import type { Exchange, Responder } from './respond.js';

/** Seconds a client is told to wait after a 503 for a store that is away: about one reconnect attempt. */
const RETRY_AFTER_SECONDS = '1';

export function withStoreAnswer<T>(x: Exchange, respond: Responder, value: Maybe<T>, then: (value: T) => void): void {
  if (!(value instanceof Promise)) return then(value);
  value.then(
    (settled) => {
      try {
        then(settled);
      } catch (error) {
        respond.fail(x, error);
      }
    },
    (error: unknown) => storeFailed(x, respond, error),
  );
}

/** Answers a store's failure: 503 when the store is away, 500 for anything else. */
export function storeFailed(x: Exchange, respond: Responder, error: unknown): void {
  if (x.res.headersSent || x.res.destroyed) return;
  if (error instanceof StoreUnavailableError) {
    return respond.sendError(x, 'store_unavailable', `the shared store cannot answer now (${error.message}); try again`, ['retry-after', RETRY_AFTER_SECONDS]);
  }
  respond.fail(x, error);
}
