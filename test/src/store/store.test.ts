// What the server needs of a store (src/store/store.ts): the in-memory store
// answers with values, the shared one with promises that may fail when Redis is
// away; a store that cannot answer throws StoreUnavailableError, which the
// server answers 503 store_unavailable (how: test/src/server/store-answer.test.ts),
// never a 500.
import t from 'tap';
import { errorCatalog } from '../../../src/server/errors.js';
import { StoreUnavailableError } from '../../../src/store/store.js';

t.test('StoreUnavailableError is an Error with the code of the 503 Error in the catalogue', async (t) => {
  const error = new StoreUnavailableError('redis is away');
  t.ok(error instanceof Error);
  t.equal(error.message, 'redis is away');
  t.equal(error.code, 'store_unavailable');
  t.equal(errorCatalog[error.code].status, 503);
});
