// spec/json/parse.ts: RFC 8259 JSON with exact integers, bounded depth and size.
import fc from 'fast-check';
import t from 'tap';
import { parseDecimalInteger, parseJson, parseJsonBytes, type JsonValue, type ParseResult } from '../../../spec/json/index.js';

function value(result: ParseResult): JsonValue {
  if (!result.ok) throw new Error(`expected a value, got ${result.message}`);
  return result.value;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

t.test('integers beyond 2^53 keep every digit', async (t) => {
  const r = parseJson('{"a":9007199254740993}');
  t.ok(r.ok);
  if (r.ok) t.equal((r.value as Record<string, unknown>)['a'], 9007199254740993n);
});

t.test('the int64 extremes are read exactly', async (t) => {
  t.equal(value(parseJson('9223372036854775807')), INT64_MAX);
  t.equal(value(parseJson('-9223372036854775808')), INT64_MIN);
  t.equal(value(parseJson('9223372036854775808')), INT64_MAX + 1n, 'one past the maximum is still exact, to be refused by the schema');
});

t.test('every number whose value is an integer becomes a bigint: 7, -0, 1.0, 1e2, 100e-2', async (t) => {
  const cases: ReadonlyArray<readonly [string, bigint]> = [
    ['7', 7n],
    ['0', 0n],
    ['-0', 0n],
    ['-7', -7n],
    ['1.0', 1n],
    ['1.000', 1n],
    ['1e2', 100n],
    ['1E2', 100n],
    ['1e+2', 100n],
    ['100e-2', 1n],
    ['2.50e1', 25n],
    ['0.0', 0n],
    ['0e5', 0n],
    ['-1.0e0', -1n],
    ['9.007199254740993e15', 9007199254740993n],
  ];
  for (const [text, expected] of cases) t.equal(value(parseJson(text)), expected, text);
});

t.test('a number with a fractional part becomes a double', async (t) => {
  const cases: ReadonlyArray<readonly [string, number]> = [
    ['1.5', 1.5],
    ['-0.25', -0.25],
    ['1e-1', 0.1],
    ['15e-1', 1.5], // biome-ignore lint/suspicious/noApproximativeNumericConstant: the decimal the parser reads, not π
    ['3.14159', 3.14159],
  ];
  for (const [text, expected] of cases) {
    const v = value(parseJson(text));
    t.equal(typeof v, 'number', `${text} is a number`);
    t.equal(v, expected, text);
  }
});

t.test('an exponent with leading zeros is read at its value: 1e0000001 is 10, 7e-0000001 is 0.7', async (t) => {
  t.equal(value(parseJson('1e0000001')), 10n);
  t.equal(value(parseJson('-3E+0000002')), -300n);
  t.equal(value(parseJson('5e00000000000000000002')), 500n);
  t.equal(value(parseJson('7e-0000001')), 0.7);
  t.ok((value(parseJson(`1e${'0'.repeat(40)}400`)) as bigint) > INT64_MAX, 'and a large one after many zeros is still large');
});

t.test('integers too large for any int64 (1e400, 30 digits) are clamped just outside int64, never rounded into it', async (t) => {
  for (const text of ['1e400', `1${'0'.repeat(30)}`, '1.5e400', '18446744073709551616000']) {
    const v = value(parseJson(text));
    t.equal(typeof v, 'bigint', text);
    t.ok((v as bigint) > INT64_MAX, `${text} is above int64`);
  }
  for (const text of ['-1e400', `-${'9'.repeat(40)}`]) t.ok((value(parseJson(text)) as bigint) < INT64_MIN, `${text} is below int64`);
  t.equal(value(parseJson('1e-400')), 0, 'a tiny fraction is a double, 0');
});

t.test('number syntax outside RFC 8259 is refused: leading zeros, +, bare dots, NaN, Infinity, hex', async (t) => {
  for (const text of ['01', '-01', '00', '+1', '.5', '1.', '-', '1e', '1e+', '--1', 'NaN', 'Infinity', '-Infinity', '0x10', '1_000', '١']) {
    const r = parseJson(text);
    t.notOk(r.ok, text);
    if (!r.ok) t.equal(r.reason, 'syntax', `${text}: a syntax error`);
  }
});

t.test('literals, strings, arrays and objects parse as JSON.parse does', async (t) => {
  const texts = [
    'true',
    'false',
    'null',
    '"x"',
    '[]',
    '{}',
    '[1,[2,[3]]]',
    '{"a":{"b":[true,null,"c"]}}',
    ' \t\n\r[ 1 , 2 ] \n',
    '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    '"\\u0041\\u00e9\\u4e2d"',
  ];
  for (const text of texts)
    t.strictSame(JSON.parse(JSON.stringify(value(parseJson(text)), (_k, v) => (typeof v === 'bigint' ? Number(v) : v))), JSON.parse(text), text);
});

t.test('malformed documents are refused with the position of the problem', async (t) => {
  const cases = [
    '',
    ' ',
    '{',
    '[1,]',
    '{"a":1,}',
    '{"a" 1}',
    "{'a':1}",
    '{a:1}',
    '[1 2]',
    '"abc',
    '"a\nb"',
    '"\\x"',
    '"\\u12"',
    '"\\u12G4"',
    'tru',
    'nul',
    '[1]]',
    '{} {}',
    '\u00a0[]',
    '\f[]',
    '/*c*/1',
  ];
  for (const text of cases) {
    const r = parseJson(text);
    t.notOk(r.ok, JSON.stringify(text));
    if (!r.ok) t.match(r.message, /position \d+/, `${JSON.stringify(text)}: the message gives a position`);
  }
});

t.test('lone surrogates written as \\u escapes are kept as they are', async (t) => {
  t.equal(value(parseJson('"\\ud800"')), '\ud800');
  t.equal(value(parseJson('"a\\udc00b"')), 'a\udc00b');
  t.equal(value(parseJson('"\\ud83d\\udc36"')), '🐶', 'a surrogate pair escape is one astral character');
});

t.test('objects have no prototype: __proto__, constructor and prototype are ordinary keys', async (t) => {
  const v = value(parseJson('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"prototype":2}')) as Record<string, unknown>;
  t.equal(Object.getPrototypeOf(v), null);
  t.strictSame(Object.keys(v), ['__proto__', 'constructor', 'prototype']);
  t.equal((v as { polluted?: unknown }).polluted, undefined, 'no inherited members');
  t.equal(({} as { polluted?: unknown }).polluted, undefined, 'Object.prototype is untouched');
});

t.test('a duplicate key keeps its last value, in the position of its first', async (t) => {
  const v = value(parseJson('{"a":1,"b":2,"a":3}')) as Record<string, unknown>;
  t.equal(v['a'], 3n);
  t.strictSame(Object.keys(v), ['a', 'b']);
});

t.test('nesting is bounded by maxDepth (32 by default)', async (t) => {
  t.ok(parseJson('['.repeat(32) + ']'.repeat(32)).ok, '32 levels');
  const r = parseJson('['.repeat(33) + ']'.repeat(33));
  t.notOk(r.ok, '33 levels');
  if (!r.ok) t.equal(r.reason, 'depth');
  const objects = parseJson(`${'{"a":'.repeat(33)}1${'}'.repeat(33)}`);
  t.equal(objects.ok ? 'ok' : objects.reason, 'depth', 'objects count too');
  t.ok(parseJson('[[[]]]', { maxDepth: 3, maxMembers: 10 }).ok);
  t.notOk(parseJson('[[[[]]]]', { maxDepth: 3, maxMembers: 10 }).ok, 'a custom maxDepth');
});

t.test('nesting beyond the call stack is reported as depth, not thrown', async (t) => {
  const r = parseJson('['.repeat(200_000) + ']'.repeat(200_000), { maxDepth: Number.MAX_SAFE_INTEGER, maxMembers: Number.MAX_SAFE_INTEGER });
  t.notOk(r.ok);
  if (!r.ok) t.equal(r.reason, 'depth');
});

t.test('members are bounded by maxMembers, counting array elements and object members of the whole document', async (t) => {
  const limits = { maxDepth: 32, maxMembers: 3 };
  t.ok(parseJson('[1,2,3]', limits).ok, '3 elements');
  t.equal(((r) => (r.ok ? 'ok' : r.reason))(parseJson('[1,2,3,4]', limits)), 'members', '4 elements');
  t.equal(((r) => (r.ok ? 'ok' : r.reason))(parseJson('{"a":1,"b":[2,3]}', limits)), 'members', 'nested members add up');
  t.ok(parseJson(`[${Array(10_000).fill(0).join(',')}]`).ok, '10,000 by default');
  t.notOk(parseJson(`[${Array(10_001).fill(0).join(',')}]`).ok, '10,001');
});

t.test('parseJsonBytes ignores a leading UTF-8 BOM and decodes UTF-8', async (t) => {
  t.equal(value(parseJsonBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x31]))), 1n, 'BOM then 1');
  t.equal(value(parseJsonBytes(Buffer.from('"🐶é"'))), '🐶é');
  t.notOk(parseJsonBytes(Buffer.from([0xef, 0xbb, 0xbf])).ok, 'a BOM alone is an empty document');
  t.notOk(parseJsonBytes(Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x31])).ok, 'only one BOM is ignored');
});

t.test('parseJsonBytes refuses invalid UTF-8 instead of replacing it', async (t) => {
  const invalid: ReadonlyArray<readonly [string, number[]]> = [
    ['a lone continuation byte', [0x22, 0x80, 0x22]],
    ['0xff', [0x22, 0xff, 0x22]],
    ['an overlong encoding', [0x22, 0xc0, 0xaf, 0x22]],
    ['an encoded surrogate', [0x22, 0xed, 0xa0, 0x80, 0x22]],
    ['a truncated sequence', [0x22, 0xe2, 0x82, 0x22]],
    ['a UTF-16 BOM', [0xff, 0xfe, 0x31, 0x00]],
  ];
  for (const [what, bytes] of invalid) {
    const r = parseJsonBytes(Buffer.from(bytes));
    t.notOk(r.ok, what);
    if (!r.ok) t.match(r.message, /UTF-8/, `${what}: the message says UTF-8`);
  }
});

t.test('property: every int64 round-trips through its decimal text', async (t) => {
  const details = fc.check(fc.property(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), (n) => parseJson(String(n)).ok && value(parseJson(String(n))) === n));
  // The report names the seed and the counterexample, to replay with fc.check(…, { seed, path }).
  t.notOk(details.failed, fc.defaultReportMessage(details) ?? 'no counterexample');
});

t.test('property: parseJson reads what JSON.stringify writes, as JSON.parse does (integers as bigint)', async (t) => {
  const toNumbers = (v: unknown): unknown =>
    typeof v === 'bigint'
      ? Number(v)
      : Array.isArray(v)
        ? v.map(toNumbers)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toNumbers(x)]))
          : v;
  // Integers of more than 20 digits are clamped on purpose (tested above), so the doubles stay below 1e20.
  const fits = (v: unknown): boolean =>
    typeof v === 'number' ? Math.abs(v) < 1e20 : Array.isArray(v) ? v.every(fits) : v && typeof v === 'object' ? Object.values(v).every(fits) : true;
  const details = fc.check(
    fc.property(fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }).filter(fits), (v) => {
      const text = JSON.stringify(v);
      const r = parseJson(text);
      return r.ok && JSON.stringify(toNumbers(r.value)) === JSON.stringify(JSON.parse(text));
    }),
  );
  // The report names the seed and the counterexample, to replay with fc.check(…, { seed, path }).
  t.notOk(details.failed, fc.defaultReportMessage(details) ?? 'no counterexample');
});

t.test('parseJsonArrayElements yields each element of a top-level array, then reports where the text stops being JSON', async (t) => {
  const { parseJsonArrayElements, JsonParseError } = await import('../../../spec/json/index.js');
  t.same([...parseJsonArrayElements(' [1, {"a":"b"}, [2]] ')], [1n, { a: 'b' }, [2n]]);
  t.strictSame([...parseJsonArrayElements('[]')], []);
  const seen: unknown[] = [];
  let thrown: unknown;
  try {
    for (const v of parseJsonArrayElements('[1, 2, x]')) seen.push(v);
  } catch (error) {
    thrown = error;
  }
  t.ok(thrown instanceof JsonParseError, 'a JsonParseError');
  t.strictSame(seen, [1n, 2n], 'the elements before the error were yielded');
  t.throws(() => [...parseJsonArrayElements('{"a":1}')], /expected a JSON array/);
  t.throws(() => [...parseJsonArrayElements('[1] 2')], /unexpected data after/);
  t.throws(() => [...parseJsonArrayElements(`[${'['.repeat(40)}${']'.repeat(40)}]`, { maxDepth: 32, maxMembers: 100 })], /nested deeper/);
});

t.test('parseDecimalInteger reads plain decimal text exactly, with the same int64 sentinel as JSON integers', async (t) => {
  t.equal(parseDecimalInteger('007'), 7n);
  t.equal(parseDecimalInteger('-0'), 0n);
  t.equal(parseDecimalInteger('9223372036854775807'), 9223372036854775807n);
  t.equal(parseDecimalInteger('-9223372036854775809'), -9223372036854775809n);
  t.equal(parseDecimalInteger('1'.repeat(30)), 2n ** 64n, 'past 20 digits: just outside any int64');
  for (const text of ['', '-', '1.5', '1e3', ' 1', '+1', '0x10', 'abc']) t.equal(parseDecimalInteger(text), undefined, JSON.stringify(text));
});

t.test('parseDecimalInteger agrees with the exact reading of its text, digits and signs in any mix', async (t) => {
  // The exact reading: plain decimal digits, leading zeros dropped, read as a JSON integer (same int64 sentinel).
  const exact = (text: string): bigint | undefined => {
    const match = /^(-?)0*(\d+)$/.exec(text);
    if (!match) return undefined;
    const parsed = parseJson(`${match[1]}${match[2]}`);
    return parsed.ok ? (parsed.value as bigint) : undefined;
  };
  const digits = fc.string({ unit: fc.constantFrom('0', '1', '5', '7', '9'), maxLength: 25, size: 'max' });
  const text = fc.oneof(
    digits,
    digits.map((d) => `-${d}`),
    fc.string({ unit: fc.constantFrom('0', '9', '-', '+', 'e', '.', ' ', '٣'), maxLength: 12 }),
  );
  const result = fc.check(
    fc.property(text, (s) => parseDecimalInteger(s) === exact(s)),
    { numRuns: 5000, seed: 20261122 },
  );
  t.equal(result.failed, false, result.failed ? `counterexample: ${JSON.stringify(result.counterexample)}` : 'agrees on 5000 texts');
});

t.test('each malformed document is refused with the position of the problem and its name (the message a client gets)', async (t) => {
  const cases: ReadonlyArray<readonly [string, number, string]> = [
    ['', 0, 'unexpected end of input'],
    [' ', 1, 'unexpected end of input'],
    ['[', 1, 'unexpected end of input'],
    ['{"a":', 5, 'unexpected end of input'],
    ['x', 0, 'unexpected character "x"'],
    ['+1', 0, 'unexpected character "+"'],
    ['[1,/]', 3, 'unexpected character "/"'],
    ['[1,]', 3, 'unexpected character "]"'],
    ['tru', 0, 'invalid literal'],
    ['[nul]', 1, 'invalid literal'],
    ['{', 1, 'expected a string key'],
    ['{"a":1,}', 7, 'expected a string key'],
    ["{'a':1}", 1, 'expected a string key'],
    ['{"a" 1}', 5, "expected ':'"],
    ['{"a"', 4, "expected ':'"],
    ['{"a":1 "b":2}', 7, "expected ',' or '}'"],
    ['{"a":1', 6, "expected ',' or '}'"],
    ['[1 2]', 3, "expected ',' or ']'"],
    ['[1', 2, "expected ',' or ']'"],
    ['[1]]', 3, 'unexpected data after the JSON value'],
    ['{} {}', 3, 'unexpected data after the JSON value'],
    ['"abc', 4, 'unterminated string'],
    ['"\\nab', 5, 'unterminated string'],
    ['"a\nb"', 2, 'control character in string'],
    ['"\\na\u0001"', 4, 'control character in string'],
    ['"\\x"', 2, 'invalid escape'],
    ['"\\u12"', 3, 'invalid \\u escape'],
    ['["a\\u00ZZ"]', 5, 'invalid \\u escape'],
    ['-', 1, 'invalid number'],
    ['-x', 1, 'invalid number'],
    ['1.', 2, 'invalid number'],
    ['1.e5', 2, 'invalid number'],
    ['1e', 2, 'invalid number'],
    ['1e+', 3, 'invalid number'],
  ];
  for (const [text, position, problem] of cases) {
    const r = parseJson(text);
    t.strictSame(r, { ok: false, reason: 'syntax', message: `malformed JSON at position ${position}: ${problem}` }, JSON.stringify(text));
  }
});

t.test('a string with an escape is read to its end: raw control characters after an escape are refused, and so is a missing closing quote', async (t) => {
  t.equal(value(parseJson('"\\n\\t x"')), '\n\t x');
  t.equal(value(parseJson('"a\\"b c"')), 'a"b c');
  for (const text of ['"\\n\u0000"', '"\\n\u001f"', '"\\n\t"', '"\\n', '"\\u0041']) t.notOk(parseJson(text).ok, JSON.stringify(text));
  t.equal(value(parseJson('"\\n\u007f\u0080"')), '\n\u007f\u0080', 'DEL and beyond are ordinary characters');
});

t.test('the hex digits of a \\u escape may be upper or lower case, and only hex digits are read', async (t) => {
  t.equal(value(parseJson('"\\u00C9\\u00e9\\uABCD\\uabcd\\u0009"')), 'Éé\uabcd\uabcd\t');
  for (const text of ['"\\u00G0"', '"\\u-123"', '"\\u 123"', '"\\u+123"', '"\\u1"']) t.notOk(parseJson(text).ok, text);
});

t.test('whitespace is allowed around every token and only there', async (t) => {
  t.strictSame(
    JSON.parse(
      JSON.stringify(value(parseJson(' \t{ \n"a" \r: [ 1 , { } , [ ] , "x" ] , "b" : { "c" : null } } ')), (_k, v) => (typeof v === 'bigint' ? Number(v) : v)),
    ),
    { a: [1, {}, [], 'x'], b: { c: null } },
  );
});

t.test('depth limit counts arrays and objects alike, and an empty one closes its level', async (t) => {
  const limits = { maxDepth: 3, maxMembers: 1000 };
  t.ok(parseJson('[{"a":[]}]', limits).ok, 'array, object, array: 3 levels');
  t.notOk(parseJson('[{"a":[{}]}]', limits).ok, 'a fourth level, an empty object');
  t.notOk(parseJson('{"a":[{"b":[]}]}', limits).ok, 'a fourth level, an empty array');
  const siblings = `[[${'[],{},'.repeat(50)}[]]]`;
  t.ok(parseJson(siblings, limits).ok, '100 empty siblings do not add up');
  t.ok(parseJson(`[${'[[1]],{"a":{"b":1}},'.repeat(50)}1]`, limits).ok, '100 full siblings do not add up');
});

t.test('onDuplicateKey is told of each name repeated in the same object, with the earlier and the later value, and of nothing else', async (t) => {
  const seen: unknown[] = [];
  const limits = { maxDepth: 8, maxMembers: 100, onDuplicateKey: (key: string, earlier: JsonValue, later: JsonValue) => seen.push([key, earlier, later]) };
  const v = value(parseJson('{"a":1,"b":{"a":2,"c":3},"a":"x","c":4,"a":[]}', limits)) as Record<string, unknown>;
  t.strictSame(seen, [
    ['a', 1n, 'x'],
    ['a', 'x', []],
  ]);
  t.strictSame(v['a'], []);
  seen.length = 0;
  t.ok(parseJson('[{"a":1},{"a":2}]', limits).ok);
  t.strictSame(seen, [], 'the same name in two objects is no repeat');
  t.strictSame(value(parseJson('{"a":1,"a":2}', { maxDepth: 8, maxMembers: 100 })), Object.assign(Object.create(null), { a: 2n }), 'without onDuplicateKey');
});

t.test('an error thrown by onDuplicateKey is passed on as it is, not taken for a parse failure', async (t) => {
  const { parseJsonArrayElements } = await import('../../../spec/json/index.js');
  const boom = new TypeError('from the callback');
  const limits = {
    maxDepth: 8,
    maxMembers: 100,
    onDuplicateKey: () => {
      throw boom;
    },
  };
  t.throws(() => parseJson('{"a":1,"a":2}', limits), boom);
  t.throws(() => [...parseJsonArrayElements('[{"a":1,"a":2}]', limits)], boom);
});

t.test('parseJsonArrayElements: whitespace anywhere, limits for each element, and depth beyond the call stack', async (t) => {
  const { parseJsonArrayElements, JsonParseError } = await import('../../../spec/json/index.js');
  t.strictSame([...parseJsonArrayElements('\n[ 1 ,\t2 ]\r\n')], [1n, 2n]);
  t.strictSame([...parseJsonArrayElements(' [ ] ')], []);
  const limits = { maxDepth: 2, maxMembers: 2 };
  t.strictSame(
    [...parseJsonArrayElements('[[1,2],[3,4],{"a":5,"b":6}]', limits)],
    [[1n, 2n], [3n, 4n], Object.assign(Object.create(null), { a: 5n, b: 6n })],
    'two members in each element',
  );
  const thrownBy = (f: () => unknown): unknown => {
    try {
      f();
    } catch (error) {
      return error;
    }
    return undefined;
  };
  t.match(
    thrownBy(() => [...parseJsonArrayElements('[[1,2,3]]', limits)]),
    { reason: 'members' },
    'three in one',
  );
  t.match(
    thrownBy(() => [...parseJsonArrayElements('[[[[]]]]', limits)]),
    { reason: 'depth' },
    'the top-level array is not a level',
  );
  t.match(
    thrownBy(() => [...parseJsonArrayElements('[[[]]]', { maxDepth: 1, maxMembers: 2 })]),
    { reason: 'depth' },
  );
  t.throws(() => [...parseJsonArrayElements('[1 2]')], {
    message: "malformed JSON at position 3: expected ',' or ']'",
    reason: 'syntax',
    code: 'malformed_json',
  });
  t.throws(() => [...parseJsonArrayElements('[1,]')], { message: 'malformed JSON at position 3: unexpected character "]"' });
  let deep: unknown;
  try {
    [...parseJsonArrayElements(`[${'['.repeat(200_000)}${']'.repeat(200_000)}]`, { maxDepth: Number.MAX_SAFE_INTEGER, maxMembers: Number.MAX_SAFE_INTEGER })];
  } catch (error) {
    deep = error;
  }
  t.ok(deep instanceof JsonParseError, 'a JsonParseError');
  t.match(deep, { reason: 'depth', message: 'JSON nested too deeply' });
});

t.test('the depth and member limits are named in their messages', async (t) => {
  t.strictSame(parseJson('[[[]]]', { maxDepth: 2, maxMembers: 10 }), { ok: false, reason: 'depth', message: 'JSON nested deeper than 2 levels' });
  t.strictSame(parseJson('[1,2,3]', { maxDepth: 2, maxMembers: 2 }), { ok: false, reason: 'members', message: 'JSON has more than 2 members' });
  t.strictSame(parseJson('['.repeat(200_000), { maxDepth: Number.MAX_SAFE_INTEGER, maxMembers: Number.MAX_SAFE_INTEGER }), {
    ok: false,
    reason: 'depth',
    message: 'JSON nested too deeply',
  });
});

t.test('an integer is exact up to 20 digits (every uint64) and just outside int64 beyond', async (t) => {
  t.equal(value(parseJson('18446744073709551615')), 2n ** 64n - 1n, 'the uint64 maximum, 20 digits');
  t.equal(value(parseJson('-99999999999999999999')), -(10n ** 20n - 1n), '20 nines');
  t.equal(value(parseJson('1.8446744073709551615e19')), 2n ** 64n - 1n, 'with a fraction and an exponent');
  t.equal(value(parseJson('100000000000000000000')), 2n ** 64n, '21 digits');
  t.equal(value(parseJson('1e20')), 2n ** 64n, '1e20');
  t.equal(value(parseJson('1e19')), 10n ** 19n, '1e19');
  t.equal(parseDecimalInteger(`00000${'1'.repeat(20)}`), BigInt('1'.repeat(20)), 'leading zeros are not digits');
  t.equal(parseDecimalInteger(`-000${'9'.repeat(19)}`), -BigInt('9'.repeat(19)));
});

t.test('the digits of a number are read where they stand: 1.05e2 is 105, 10.50e1 is 105, 0.00120e4 is 12', async (t) => {
  t.equal(value(parseJson('1.05e2')), 105n);
  t.equal(value(parseJson('10.50e1')), 105n);
  t.equal(value(parseJson('0.00120e4')), 12n);
  t.equal(value(parseJson('1000.0e-3')), 1n);
  t.equal(value(parseJson('-0.0e0')), 0n);
  t.equal(value(parseJson('0.05e1')), 0.5);
});

t.test('a string without escapes may hold spaces and any character from U+0020 up', async (t) => {
  t.equal(value(parseJson('" a b "')), ' a b ');
  t.equal(value(parseJson('"!~\u007f\u00a0é🐶"')), '!~\u007f\u00a0é🐶');
});

t.test('an exponent ends where its digits end, before a comma, a bracket or a brace', async (t) => {
  t.strictSame(value(parseJson('[1e2,1E+2,5e-1,2e0]')), [100n, 100n, 0.5, 2n]);
  t.strictSame(value(parseJson('{"a":1e2}')), Object.assign(Object.create(null), { a: 100n }));
});

t.test('zero in any spelling is the integer 0: 0.0e-1, -0.00e-5, 0e-5', async (t) => {
  for (const text of ['0.0e-1', '-0.00e-5', '0e-5', '0.000']) t.equal(value(parseJson(text)), 0n, text);
});

t.test('parseJsonBytes: invalid UTF-8 is a syntax error with its own message', async (t) => {
  t.strictSame(parseJsonBytes(Buffer.from([0x22, 0xff, 0x22])), { ok: false, reason: 'syntax', message: 'body is not valid UTF-8' });
});
