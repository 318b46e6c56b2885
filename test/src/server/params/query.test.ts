// Query strings are read as the WHATWG URL standard reads them (what every
// client library produces), whether the server takes its fast path or not.
import t from 'tap';
import fc from 'fast-check';
import { queryPairs } from '../../../../src/server/params.js';

const agrees = (query: string) => JSON.stringify(queryPairs(query)) === JSON.stringify([...new URLSearchParams(query)]);

t.test('queryPairs splits a query with nothing to decode itself, exactly as URLSearchParams reads it', async (t) => {
  // No `%`, no `+`, no leading `?`, no surrogate: the inputs of the one-pass splitter.
  const plain = fc
    .array(fc.constantFrom('limit', 'status', '=', '&', '5', 'sold', '', 'é', ' ', '#', '?', 'a=b=c', '&&'), { maxLength: 12 })
    .map((pieces) => pieces.join(''))
    .filter((query) => !query.startsWith('?'));
  const details = fc.check(fc.property(plain, agrees), { numRuns: 2000 });
  t.notOk(details.failed, fc.defaultReportMessage(details) ?? '');
});

t.test('queryPairs reads any query exactly as URLSearchParams does', async (t) => {
  const pieces = fc.constantFrom('limit', 'status', '=', '&', '%', '%2', '%20', '%zz', '%E2%82%AC', '+', 'é', '😀', '5', 'sold', '', '?', '#', ' ');
  const details = fc.check(
    fc.property(
      fc.oneof(
        fc.array(pieces).map((p) => p.join('')),
        fc.string({ unit: 'binary' }),
      ),
      agrees,
    ),
    { numRuns: 2000 },
  );
  t.notOk(details.failed, fc.defaultReportMessage(details) ?? '');
});

t.test('queryPairs on the common shapes', async (t) => {
  t.same(queryPairs('limit=5&status=sold'), [
    ['limit', '5'],
    ['status', 'sold'],
  ]);
  t.same(queryPairs('limit'), [['limit', '']]);
  t.same(queryPairs('&&limit=&='), [
    ['limit', ''],
    ['', ''],
  ]);
  t.same(queryPairs('a=b=c'), [['a', 'b=c']]);
  t.same(queryPairs('status=on+sale&x=%41'), [
    ['status', 'on sale'],
    ['x', 'A'],
  ]);
});

t.test('queryPairs reads lone surrogates as URLSearchParams does (as U+FFFD), at either end of the range', async (t) => {
  for (const query of ['a=\ud800', 'a=\udfff', '\ud800=b', 'a=\udbff\ud7ff', 'a=\ue000', 'a=\ud7ff']) t.ok(agrees(query), JSON.stringify(query));
});
