// The store's growable typed arrays (src/store/growable-lists.ts): a UintList
// holds 32-bit unsigned integers and a BigIntList int64s, each growing as pushed
// past its capacity and keeping every entry; `length` set lower forgets the tail.
import fc from 'fast-check';
import t from 'tap';
import { BigIntList, UintList } from '../../../src/store/growable-lists.js';

t.test('a UintList keeps every value pushed, in order, however far it grows', async (t) => {
  const list = new UintList();
  t.equal(list.length, 0, 'empty at first');
  t.ok(list.values instanceof Uint32Array, '4 bytes an entry');
  for (let i = 0; i < 1_000; i++) list.push(i * 7);
  t.equal(list.length, 1_000);
  t.ok(list.values.length >= 1_000, `room for every entry (${list.values.length})`);
  t.strictSame(Array.from(list.values.subarray(0, 10)), [0, 7, 14, 21, 28, 35, 42, 49, 56, 63], 'the first entries survive each growth');
  t.equal(list.values[15], 105, 'the last entry before the first growth');
  t.equal(list.values[16], 112, 'the first entry after it');
  t.equal(list.values[999], 6_993, 'the last entry');
});

t.test('a UintList starts with room for 16 entries and doubles when full', async (t) => {
  const list = new UintList();
  for (let i = 0; i < 16; i++) list.push(i);
  t.equal(list.values.length, 16, 'not grown while there is room');
  list.push(16);
  t.equal(list.values.length, 32, 'doubled on the 17th');
  for (let i = 17; i < 33; i++) list.push(i);
  t.equal(list.values.length, 64, 'doubled again on the 33rd');
  t.equal(list.length, 33);
});

t.test('a UintList holds the whole 32-bit unsigned range', async (t) => {
  const list = new UintList();
  list.push(0);
  list.push(2 ** 32 - 1);
  list.push(2 ** 31);
  t.strictSame(Array.from(list.values.subarray(0, list.length)), [0, 4_294_967_295, 2_147_483_648]);
});

t.test('setting length lower forgets the tail: the next push takes the first forgotten place', async (t) => {
  const list = new UintList();
  for (let i = 1; i <= 20; i++) list.push(i * 10);
  list.length = 5;
  list.push(999);
  t.equal(list.length, 6);
  t.strictSame(Array.from(list.values.subarray(0, list.length)), [10, 20, 30, 40, 50, 999]);
  list.length = 0;
  list.push(1);
  t.strictSame(Array.from(list.values.subarray(0, list.length)), [1], 'from empty again');
});

t.test('a BigIntList keeps every int64 pushed, the extremes included, however far it grows', async (t) => {
  const list = new BigIntList();
  t.equal(list.length, 0, 'empty at first');
  t.ok(list.values instanceof BigInt64Array, '8 bytes an entry');
  const max = 2n ** 63n - 1n;
  const min = -(2n ** 63n);
  list.push(max);
  list.push(min);
  list.push(9_007_199_254_740_993n);
  for (let i = 0n; i < 100n; i++) list.push(i);
  t.equal(list.length, 103);
  t.equal(list.values[0], max, 'the largest int64, exact');
  t.equal(list.values[1], min, 'the smallest int64, exact');
  t.equal(list.values[2], 9_007_199_254_740_993n, 'an id no double holds, exact');
  t.equal(list.values[102], 99n, 'the last entry');
  t.equal(list.values.length, 128, 'doubled from 16 three times');
});

t.test('a BigIntList forgets its tail when length is set lower', async (t) => {
  const list = new BigIntList();
  for (let i = 1n; i <= 40n; i++) list.push(i);
  list.length = 2;
  list.push(-5n);
  t.strictSame(Array.from(list.values.subarray(0, list.length)), [1n, 2n, -5n]);
});

t.test('any sequence of pushes, with truncations between, reads back as the same sequence', async (t) => {
  const step = fc.oneof(
    fc.record({ push: fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 70 }) }),
    fc.record({ keep: fc.nat(200) }),
  );
  fc.assert(
    fc.property(fc.array(step, { maxLength: 8 }), (steps) => {
      const uints = new UintList();
      const bigints = new BigIntList();
      let expected: bigint[] = [];
      for (const s of steps) {
        if ('push' in s) {
          for (const v of s.push) {
            uints.push(Number(BigInt.asUintN(32, v)));
            bigints.push(v);
            expected.push(v);
          }
        } else if (s.keep < expected.length) {
          uints.length = s.keep;
          bigints.length = s.keep;
          expected = expected.slice(0, s.keep);
        }
      }
      return (
        uints.length === expected.length &&
        bigints.length === expected.length &&
        expected.every((v, i) => bigints.values[i] === v && uints.values[i] === Number(BigInt.asUintN(32, v)))
      );
    }),
    { seed: 1, numRuns: 100 },
  );
  t.pass('held for 100 runs');
});
