// spec/json/exact-numbers.ts: a number from its decimal digits, on the JSON parser's terms. An integer value is an
// exact bigint (every int64, every uint64: up to 20 digits), a value of more digits is a sentinel just outside any
// int64 (±2^64), never rounded into it; only a value with a fractional part is a double. parseDecimalInteger reads
// plain query and path text on the same terms and refuses anything that is not a sign and decimal digits.
import fc from 'fast-check';
import t from 'tap';
import { exactNumber, parseDecimalInteger, toInteger } from '../../../spec/json/exact-numbers.js';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;
const BEYOND = 2n ** 64n;

/** toInteger's arguments for the decimal text of `n`: its sign and its digits. */
const signAndDigits = (n: bigint): [boolean, string] => [n < 0n, (n < 0n ? -n : n).toString()];

t.test('toInteger keeps every digit of the int64 and uint64 edges, either side of the 18-digit fast path', async (t) => {
  for (const n of [INT64_MAX, INT64_MIN, INT64_MAX + 1n, INT64_MIN - 1n, UINT64_MAX, -UINT64_MAX, 10n ** 18n - 1n, 10n ** 18n, 0n]) {
    const [negative, digits] = signAndDigits(n);
    t.equal(toInteger(negative, digits, 0), n, `${n}`);
  }
  // 2^53 + 1 is the first integer a double cannot hold: a reading through Number would give 2^53.
  t.equal(toInteger(false, '9007199254740993', 0), 9007199254740993n);
  t.equal(toInteger(false, `0000${INT64_MAX}`, 0), INT64_MAX, 'leading zeros are not digits of the value');
  t.equal(toInteger(true, `${'0'.repeat(30)}${-INT64_MIN}`, 0), INT64_MIN, 'however many there are');
});

t.test('toInteger reads digits × 10^zeros exactly while the value has 20 digits at most', async (t) => {
  t.equal(toInteger(false, '922337203685477580', 1), 9223372036854775800n);
  t.equal(toInteger(true, '9223372036854775808', 0), INT64_MIN);
  t.equal(toInteger(false, '1', 19), 10n ** 19n, '1 and 19 zeros: 20 digits, exact');
  t.equal(toInteger(false, '18446744073709551615', 0), UINT64_MAX, 'the uint64 maximum, 20 digits');
  t.equal(toInteger(false, '99999999999999999999', 0), 10n ** 20n - 1n, 'the largest 20-digit value, above the sentinel yet exact');
  t.equal(toInteger(true, '000', 7), 0n, 'zero times any power is 0');
  t.equal(toInteger(false, '0', 400), 0n, 'even past the digit bound');
});

t.test('an integer of more than 20 digits is the sentinel just outside any int64, with its sign, never rounded into range', async (t) => {
  t.equal(toInteger(false, '1', 20), BEYOND, '1e20: 21 digits');
  t.equal(toInteger(true, '1', 20), -BEYOND, '-1e20');
  t.equal(toInteger(false, '100000000000000000000', 0), BEYOND, '21 digits written out');
  t.equal(toInteger(true, '9'.repeat(40), 0), -BEYOND, '40 nines below zero');
  t.equal(toInteger(false, '5', 100_000), BEYOND, 'the largest exponent the parser reads');
  t.equal(toInteger(false, `${'0'.repeat(25)}12`, 18), 12n * 10n ** 18n, 'leading zeros do not count toward the bound');
  for (const v of [BEYOND, -BEYOND]) t.ok(v > INT64_MAX || v < INT64_MIN, `${v} is outside int64`);
});

t.test('property: every int64, split into digits and trailing zeros, is read back as itself', async (t) => {
  fc.assert(
    fc.property(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), fc.nat({ max: 19 }), (n, shift) => {
      const [negative, digits] = signAndDigits(n);
      // Whatever zeros end the digits may be given as a count instead.
      const zeros = Math.min(shift, digits.length - digits.replace(/0+$/, '').length, digits.length - 1);
      return toInteger(negative, digits.slice(0, digits.length - zeros), zeros) === n;
    }),
    { seed: 1, numRuns: 300 },
  );
  t.pass('300 int64 values read back exactly');
});

t.test('exactNumber: a literal whose value is an integer is a bigint, however its digits are placed', async (t) => {
  const cases: ReadonlyArray<readonly [Parameters<typeof exactNumber>, bigint]> = [
    [[false, '9', '223372036854775807', 18, '9.223372036854775807e18'], INT64_MAX],
    [[true, '9', '223372036854775808', 18, '-9.223372036854775808e18'], INT64_MIN],
    [[false, '1', '8446744073709551615', 19, '1.8446744073709551615e19'], UINT64_MAX],
    [[false, '1', '50', 1, '1.50e1'], 15n],
    [[false, '1000', '0', -3, '1000.0e-3'], 1n],
    [[false, '0', '00120', 4, '0.00120e4'], 12n],
    [[true, '0', '0', 0, '-0.0'], 0n],
    [[false, '0', '', 5, '0e5'], 0n],
  ];
  for (const [args, expected] of cases) {
    const v = exactNumber(...args);
    t.equal(typeof v, 'bigint', `${args[4]} is a bigint`);
    t.equal(v, expected, args[4]);
  }
  t.equal(exactNumber(false, '1', '', 400, '1e400'), BEYOND, '1e400: the sentinel, not a double');
  t.equal(exactNumber(true, '1', '5', 400, '-1.5e400'), -BEYOND, '-1.5e400');
  t.equal(exactNumber(false, '1', '', 20, '1e20'), BEYOND, '1e20: 21 digits');
  t.equal(exactNumber(false, '1', '', 19, '1e19'), 10n ** 19n, '1e19: 20 digits, exact');
});

t.test('exactNumber: only a value with a fractional part is a double, read from the literal as written', async (t) => {
  const cases: ReadonlyArray<readonly [Parameters<typeof exactNumber>, number]> = [
    [[false, '12345', '678', 0, '12345.678'], 12345.678],
    [[false, '1', '5', 0, '1.5'], 1.5],
    [[true, '0', '25', 0, '-0.25'], -0.25],
    [[false, '0', '05', 1, '0.05e1'], 0.5],
    [[false, '7', '', -1, '7e-1'], 0.7],
    [[false, '1', '', -400, '1e-400'], 0],
  ];
  for (const [args, expected] of cases) {
    const v = exactNumber(...args);
    t.equal(typeof v, 'number', `${args[4]} is a double`);
    t.equal(v, expected, args[4]);
  }
});

t.test('parseDecimalInteger keeps every digit at the int64 edges and past 2^53, on both sides of its 15-digit fast path', async (t) => {
  for (const n of [INT64_MAX, INT64_MIN, INT64_MAX + 1n, INT64_MIN - 1n, UINT64_MAX, 999_999_999_999_999n, -999_999_999_999_999n, 10n ** 15n]) {
    t.equal(parseDecimalInteger(String(n)), n, String(n));
  }
  t.equal(parseDecimalInteger('9007199254740993'), 9007199254740993n, '2^53 + 1, which a double rounds to 2^53');
  t.equal(parseDecimalInteger('-9007199254740993'), -9007199254740993n);
  t.equal(parseDecimalInteger(`-${'0'.repeat(40)}5`), -5n, 'leading zeros however many');
  t.equal(parseDecimalInteger('100000000000000000000'), BEYOND, '21 digits: the sentinel');
  t.equal(parseDecimalInteger(`-${'9'.repeat(21)}`), -BEYOND, 'below int64: the negative sentinel');
});

t.test('parseDecimalInteger refuses what is not a minus sign and decimal digits, wherever the stray character stands', async (t) => {
  const refused = [
    '/', // U+002F, just below '0'
    ':', // U+003A, just above '9'
    '1/',
    '9:',
    '--1',
    '1-',
    '-+1',
    '1 ',
    '1\n',
    '١٢', // Arabic-Indic digits
    '１２', // fullwidth digits
    `${'1'.repeat(16)}x`, // past the fast path: the stray character is still seen
    `${'9'.repeat(10)}.${'9'.repeat(10)}`,
    `-${'1'.repeat(25)}e`,
  ];
  for (const text of refused) t.equal(parseDecimalInteger(text), undefined, JSON.stringify(text));
});
