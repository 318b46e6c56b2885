// Query strings are read as the WHATWG URL standard reads them (what every
// client library produces), whether the server takes its fast path or not.
import t from 'tap';
import fc from 'fast-check';
import { queryPairs } from '../../src/server/params.js';

const pieces = fc.constantFrom('limit', 'status', '=', '&', '%', '%2', '%20', '%zz', '%E2%82%AC', '+', 'é', '😀', '5', 'sold', '', '?', '#', ' ');

t.test('queryPairs reads any query exactly as URLSearchParams does', async (t) => {
  fc.assert(
    fc.property(fc.oneof(fc.array(pieces).map((p) => p.join('')), fc.string({ unit: 'binary' })), (query) => {
      t.same(queryPairs(query), [...new URLSearchParams(query)], JSON.stringify(query));
    }),
    { numRuns: 2000 },
  );
  t.pass('agreed on every query tried');
});

t.test('queryPairs on the common shapes', async (t) => {
  t.same(queryPairs('limit=5&status=sold'), [['limit', '5'], ['status', 'sold']]);
  t.same(queryPairs('limit'), [['limit', '']]);
  t.same(queryPairs('&&limit=&='), [['limit', ''], ['', '']]);
  t.same(queryPairs('a=b=c'), [['a', 'b=c']]);
  t.same(queryPairs('status=on+sale&x=%41'), [['status', 'on sale'], ['x', 'A']]);
});
