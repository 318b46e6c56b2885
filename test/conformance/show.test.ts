// Values as the wire shows them, in every report (conformance/show.ts):
// integers as their digits (a bigint never `3n`), strings quoted, objects and
// arrays the way JSON writes them, and long texts cut with a marker that says
// how long they were.
import t from 'tap';
import { cut, showValue, whereTheyDiffer } from '../../conformance/show.js';

t.test('a bigint is its digits, however large', async (t) => {
  t.equal(showValue(3n), '3');
  t.equal(showValue(-9223372036854775808n), '-9223372036854775808');
  t.equal(showValue(2n ** 64n), '18446744073709551616');
});

t.test('strings are quoted and escaped as JSON; other scalars as JavaScript writes them', async (t) => {
  t.equal(showValue('a "b"\n'), '"a \\"b\\"\\n"');
  t.equal(showValue(''), '""');
  t.equal(showValue(1.5), '1.5');
  t.equal(showValue(true), 'true');
  t.equal(showValue(null), 'null');
  t.equal(showValue(undefined), 'undefined');
  t.equal(showValue(Number.NaN), 'NaN');
});

t.test('arrays and objects are written as JSON, members without a value left out', async (t) => {
  t.equal(showValue([1n, 'x', null, [2n]]), '[1,"x",null,[2]]');
  t.equal(
    showValue({ id: 9007199254740993n, name: 'Rex', tag: undefined, nested: { a: [true] } }),
    '{"id":9007199254740993,"name":"Rex","nested":{"a":[true]}}',
  );
  t.equal(showValue({ 'a"b': 1 }), '{"a\\"b":1}', 'member names are quoted too');
  const bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: 1n });
  t.equal(showValue(bare), '{"k":1}', 'a parsed body (no prototype) is written like any object');
  t.equal(showValue({}), '{}');
  t.equal(showValue([]), '[]');
});

t.test('a value that says what it is through toString is shown so (a fast-check command)', async (t) => {
  const command = { check: () => true, toString: () => 'createPet({"name":"a"})' };
  t.equal(showValue(command), 'createPet({"name":"a"})');
  t.equal(showValue([command]), '[createPet({"name":"a"})]');
});

t.test('a long text is cut to its maximum with a marker of its length; a short one is left whole', async (t) => {
  t.equal(cut('abcdef', 3), 'abc… [cut: 6 characters in all]');
  t.equal(cut('abc', 3), 'abc');
  t.equal(cut('ab', 3), 'ab');
  t.equal(cut('', 0), '');
  const long = 'x'.repeat(10_000);
  t.equal(cut(long, 100).length, 100 + '… [cut: 10000 characters in all]'.length);
});

t.test('two strings that print alike are told apart by their code points where they part', async (t) => {
  t.equal(whereTheyDiffer('conform-\u00c5', 'conform-A\u030a'), ' (they differ from character 9: U+00C5, then U+0041 U+030A)');
  t.equal(whereTheyDiffer('a b', 'a\u00a0b'), ' (they differ from character 2: U+0020 U+0062, then U+00A0 U+0062)');
  t.equal(whereTheyDiffer('Rex', 'Rex\u200d'), ' (they differ from character 4: (the end), then U+200D)');
  t.equal(whereTheyDiffer('abcdefgh', 'Xbcdefgh'), ' (they differ from character 1: U+0061 U+0062 U+0063 U+0064 …, then U+0058 U+0062 U+0063 U+0064 …)');
  t.equal(whereTheyDiffer('same', 'same'), '', 'equal: nothing to add');
  t.equal(whereTheyDiffer(1n, 2n), '', 'not strings: the values say it');
  t.equal(whereTheyDiffer('a', undefined), '');
});
