// The spellings of a page size (conformance/catalogues/page-sizes.ts). Each is
// there for a pair that real services have: a validator that reads the text
// one way and a reader behind it that reads it another, so that a page past
// the maximum gets through. Such a pair fails on that one spelling, and the
// corpus holds a broken fixture for the pairs that fail on several (see
// docs/mutation.md); what each spelling is, is stated here, with the readers
// that make it dangerous modelled, so a spelling that stops being one fails
// here whether or not a fixture meets it.
import t from 'tap';
import { integerRange } from '../../../conformance/arbitraries/schema.js';
import { PAGE_SIZE_FORMS } from '../../../conformance/catalogues/page-sizes.js';
import { pageSizeParameter } from '../../../conformance/checks/family-requests.js';
import { operationById } from '../../../spec/operations.js';

// The page size as the spec has it: its name and its maximum.
const SIZE = pageSizeParameter(operationById('listPets'))!;
const NAME = SIZE.name;
const MAX = integerRange(SIZE.schema)[1];

/** The query the catalogue sends for `label`, and what a form decoder reads from it. */
function spelled(label: string): { query: string; params: URLSearchParams } {
  const form = PAGE_SIZE_FORMS.find((f) => f.label === label);
  if (!form) throw new Error(`no spelling labelled ${label}`);
  const query = form.query(NAME, MAX);
  return { query, params: new URLSearchParams(query) };
}

const one = (label: string): string => {
  const { params } = spelled(label);
  const values = [...params.entries()];
  if (values.length !== 1 || values[0]![0] !== NAME) throw new Error(`${label}: not one ${NAME}: ${JSON.stringify(values)}`);
  return values[0]![1];
};

const overMax = (n: number | bigint): boolean => Number(n) > Number(MAX);
/** Whether the text is an integer as the spec writes one (ASCII digits, an optional minus). */
const plainInteger = (text: string): boolean => /^-?\d+$/.test(text);
/** Python's int() and .NET's char.IsDigit: any Unicode decimal digit, by its value. */
const unicodeDigits = (text: string): bigint | undefined => {
  if (!/^\p{Nd}+$/u.test(text)) return undefined;
  let value = 0n;
  for (const ch of text) {
    // Every Unicode decimal digit block is ten code points from zero to nine.
    const cp = ch.codePointAt(0)!;
    let zero = cp;
    while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1)) && cp - (zero - 1) <= 9) zero--;
    value = value * 10n + BigInt(cp - zero);
  }
  return value;
};

t.test('every spelling is a query of its own, none the same as another', async (t) => {
  const queries = PAGE_SIZE_FORMS.map((f) => f.query(NAME, MAX));
  t.ok(
    queries.every((q) => typeof q === 'string' && q.length > 0),
    'each is a text',
  );
  t.equal(new Set(queries).size, queries.length, 'no two alike');
  t.ok(
    queries.every((q) => q.toLowerCase().startsWith(NAME)),
    'each names the parameter first, in some case',
  );
});

t.test('plain and signed readings: far above, zero, minus one', async (t) => {
  const far = one('far above the maximum');
  t.ok(plainInteger(far) && overMax(BigInt(far)), `${far}: a plain integer past the maximum`);
  t.equal(one('zero (no limit, to some stores)'), '0');
  t.equal(one('minus one (no limit, to some stores)'), '-1');
});

t.test('the maximum with a zero fraction: the maximum to a number reader, past it to a reader that drops what is not a digit', async (t) => {
  const text = one('the maximum with a zero fraction');
  t.notOk(plainInteger(text), `${text} is not an integer as the spec writes one`);
  t.equal(Number(text), Number(MAX));
  t.ok(overMax(Number(text.replace(/\D/g, ''))), 'digits only, it is past the maximum');
});

t.test('an exponent: past the maximum to Number(), small to parseInt()', async (t) => {
  const text = one('an exponent');
  t.ok(overMax(Number(text)), `Number(${text}) is past the maximum`);
  t.notOk(overMax(Number.parseInt(text, 10)), `parseInt(${text}) is not`);
});

t.test('a plus sign, leading white space, hexadecimal: past the maximum to Number(), not plain integers', async (t) => {
  const plus = one('a plus sign');
  t.ok(plus.startsWith('+') && overMax(Number(plus)), `${plus}: a sign, then a number past the maximum`);
  const space = one('leading white space');
  t.ok(space !== space.trimStart() && overMax(Number(space)), `${JSON.stringify(space)}: white space, then a number past the maximum`);
  const hex = one('hexadecimal');
  t.ok(/^0x[0-9a-f]+$/i.test(hex) && overMax(Number(hex)), `${hex}: a 0x number past the maximum`);
  t.equal(Number.parseInt(hex, 10), 0, 'which a decimal reader takes for zero');
  for (const text of [plus, space, hex]) t.notOk(plainInteger(text), `${JSON.stringify(text)} is not a plain integer`);
});

t.test('a thousands separator: small to parseInt(), past the maximum without the separators', async (t) => {
  const text = one('a thousands separator');
  t.ok(text.includes(','));
  t.notOk(overMax(Number.parseInt(text, 10)), `parseInt(${text}) is within the maximum`);
  t.ok(overMax(Number(text.replaceAll(',', ''))), 'without the separators, past it');
});

t.test('Arabic-Indic digits: no ASCII digit, a number past the maximum to a reader of any Unicode digit', async (t) => {
  const text = one('Arabic-Indic digits');
  t.notOk(/[0-9]/.test(text), 'no ASCII digit');
  t.ok(
    [...text].every((ch) => ch >= '\u0660' && ch <= '\u0669'),
    `${text}: Arabic-Indic digits (U+0660 to U+0669) only`,
  );
  const value = unicodeDigits(text);
  t.ok(value !== undefined && overMax(value), `read as ${String(value)}, past the maximum`);
});

t.test('the parameter twice: the valid value first, then last', async (t) => {
  const first = spelled('twice, the valid value first').params.getAll(NAME);
  t.equal(first.length, 2);
  t.ok(!overMax(Number(first[0])) && Number(first[0]) >= 1 && overMax(Number(first[1])), `${first.join(', ')}: valid, then past the maximum`);
  const last = spelled('twice, the valid value last').params.getAll(NAME);
  t.equal(last.length, 2);
  t.ok(overMax(Number(last[0])) && !overMax(Number(last[1])) && Number(last[1]) >= 1, `${last.join(', ')}: past the maximum, then valid`);
});

t.test('framework syntax: an array, an operator', async (t) => {
  const array = [...spelled('as an array (PHP, qs)').params.entries()];
  t.same(
    array.map(([k]) => k),
    [`${NAME}[]`],
  );
  t.ok(overMax(Number(array[0]![1])), 'past the maximum');
  const operator = [...spelled('as an operator (qs, MongoDB)').params.entries()];
  t.same(
    operator.map(([k]) => k),
    [`${NAME}[$gt]`],
  );
  t.ok(Number.isFinite(Number(operator[0]![1])), 'a number for the operator');
});

t.test('the name in other letter cases, each with a value past the maximum', async (t) => {
  for (const [label, name] of [
    ['in upper case', NAME.toUpperCase()],
    ['capitalised', NAME.charAt(0).toUpperCase() + NAME.slice(1)],
  ] as const) {
    const entries = [...spelled(label).params.entries()];
    t.same(
      entries.map(([k]) => k),
      [name],
      `${label}: ${name}`,
    );
    t.ok(overMax(Number(entries[0]![1])), `${label}: past the maximum`);
  }
});

t.test('numbers that wrap around: negative in 32 bits, one in 32 bits, one in 64 bits, beyond every type', async (t) => {
  const n31 = BigInt(one('2^31, negative in 32 bits'));
  t.ok(Number(n31) > 0 && (Number(n31) | 0) < 0, `${n31} is negative as a 32-bit integer`);
  const n32 = BigInt(one('2^32 + 1, one in 32 bits'));
  t.equal(BigInt.asIntN(32, n32), 1n, `${n32} is one as a 32-bit integer`);
  t.ok(n32 < 2n ** 63n, 'and fits in 64 bits');
  const n64 = BigInt(one('2^64 + 1, one in 64 bits'));
  t.equal(BigInt.asIntN(64, n64), 1n, `${n64} is one as a 64-bit integer`);
  t.ok(overMax(Number(n64)), 'and far past the maximum as a double');
  const huge = BigInt(one('beyond every integer type'));
  t.ok(huge > 2n ** 64n, `${huge} is beyond 64 bits, signed or not`);
});

t.test('no value: empty after =, and no = at all', async (t) => {
  t.equal(spelled('empty').query, `${NAME}=`);
  t.equal(one('empty'), '');
  t.equal(spelled('without a value').query, NAME);
  t.equal(one('without a value'), '');
});

t.test('the non-finite numbers of a float reader (Java, Python float())', async (t) => {
  const nan = one('NaN');
  t.ok(Number.isNaN(Number(nan)) && nan.toLowerCase() === 'nan', `${nan}: what float() reads as NaN`);
  const infinity = one('Infinity');
  t.equal(Number(infinity), Number.POSITIVE_INFINITY, `${infinity}: positive infinity to Number() and float()`);
});

t.test('a NUL after the digits: past the maximum to a reader that stops at the NUL', async (t) => {
  const text = one('a NUL after the digits');
  t.ok(text.endsWith('\0'), 'ends in NUL');
  const cString = text.slice(0, text.indexOf('\0'));
  t.ok(plainInteger(cString) && overMax(Number(cString)), `${cString}: past the maximum to atoi()`);
});
