// Ids a client rounded with JSON.parse (src/server/findings/rounding.ts).
import t from 'tap';
import { findGiven, roundingCandidates } from '../../../../src/server/findings/rounding.js';

t.test('the ids JSON.parse reads as a given double are found, and only they', async (t) => {
  t.strictSame(roundingCandidates(9007199254740992n), [9007199254740993n], '2^53 + 1 reads as 2^53 (ties to even)');
  t.strictSame(roundingCandidates(9007199254740996n), [9007199254740995n, 9007199254740997n]);
  for (const id of [2n ** 60n + 123456789n * 256n, 2n ** 62n]) {
    const candidates = roundingCandidates(id);
    t.ok(candidates.length > 0, `${id} has candidates`);
    t.ok(
      candidates.every((c) => Number(c) === Number(id) && c !== id),
      'each reads as the same double',
    );
  }
});

t.test('an id a double cannot be, or one below 2^53, has no candidates', async (t) => {
  t.strictSame(roundingCandidates(7n), []);
  t.strictSame(roundingCandidates(9007199254740991n), []);
  t.strictSame(roundingCandidates(9007199254740993n), [], 'not a double: no client rounded to it');
});

t.test('findGiven answers the nearest candidate a store has, now or later', async (t) => {
  let found: bigint | undefined = 0n;
  findGiven(
    [1n, 2n, 3n],
    (id) => id === 2n,
    (given) => (found = given),
  );
  t.equal(found, 2n);
  findGiven(
    [1n],
    () => false,
    (given) => (found = given),
  );
  t.equal(found, undefined);
  const later = await new Promise<bigint | undefined>((resolve) => findGiven([1n, 2n, 3n], async (id) => id === 3n, resolve));
  t.equal(later, 3n, 'from a store whose answers are promises');
  const failing = await new Promise<bigint | undefined>((resolve) => findGiven([1n], async () => Promise.reject(new Error('away')), resolve));
  t.equal(failing, undefined, 'a store that cannot answer: no rounding said');
});
