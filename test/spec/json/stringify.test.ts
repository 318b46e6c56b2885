// spec/json/stringify.ts: JSON.stringify, but a bigint is written as its exact digits.
import fc from 'fast-check';
import t from 'tap';
import { parseJson, stringifyJson, type JsonObject, type JsonValue } from '../../../spec/json/index.js';

t.test('a bigint is written as its exact digits', async (t) => {
  t.equal(stringifyJson(9223372036854775807n), '9223372036854775807');
  t.equal(stringifyJson(-9223372036854775808n), '-9223372036854775808');
  t.equal(stringifyJson(9007199254740993n), '9007199254740993');
  t.equal(stringifyJson({ id: 1n, categoryId: 9007199254740993n }), '{"id":1,"categoryId":9007199254740993}');
});

t.test('numbers are written as JSON.stringify writes them; -0 as 0, non-finite as null', async (t) => {
  t.equal(stringifyJson(1.5), '1.5');
  t.equal(stringifyJson(-0), '0');
  t.equal(stringifyJson(1e21), '1e+21');
  t.equal(stringifyJson(Number.NaN), 'null');
  t.equal(stringifyJson(Number.POSITIVE_INFINITY), 'null');
  t.equal(stringifyJson(Number.NEGATIVE_INFINITY), 'null');
});

/** A test message in ASCII: raw U+2028 in a message would break the TAP stream. */
const escapeJson = (s: string) => JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

t.test('strings are escaped as JSON.stringify escapes them, lone surrogates as \\u escapes', async (t) => {
  for (const s of ['', 'Rex', 'a"b\\c', 'line\nbreak\u0000', '🐶', 'a\ud800b', '\udc00', '\u2028']) t.equal(stringifyJson(s), JSON.stringify(s), escapeJson(s));
  t.equal(stringifyJson('\ud800'), '"\\ud800"');
});

t.test('objects keep their key order and leave out undefined members', async (t) => {
  t.equal(stringifyJson({ b: 1n, a: 'x', c: undefined } as unknown as JsonObject), '{"b":1,"a":"x"}');
  t.equal(stringifyJson([null, true, false, [], {}]), '[null,true,false,[],{}]');
  const proto = Object.create(null) as JsonObject;
  proto['__proto__'] = 'own';
  t.equal(stringifyJson(proto), '{"__proto__":"own"}', 'a prototype-less object with a __proto__ key');
});

t.test('it takes what JSON.stringify takes and writes it alike, bigint aside (a bodySerializer gets unknown)', async (t) => {
  const when = new Date(Date.UTC(2030, 11, 5));
  t.equal(stringifyJson({ when }), '{"when":"2030-12-05T00:00:00.000Z"}', 'toJSON is called');
  t.equal(stringifyJson({ size: { toJSON: () => 9007199254740993n } }), '{"size":9007199254740993}', "toJSON's bigint kept exact");
  const skipped = { a: 1, f: () => 1, s: Symbol('s'), u: undefined };
  t.equal(stringifyJson(skipped), JSON.stringify(skipped), 'functions, symbols and undefined left out of an object');
  const holes = [1, undefined, () => 1, Symbol('s')];
  t.equal(stringifyJson(holes), JSON.stringify(holes), 'and written as null in an array');
  t.equal(stringifyJson(new Map([['a', 1]])), '{}', 'a Map has no own enumerable keys, as JSON.stringify finds');
  t.throws(() => stringifyJson(undefined), { name: 'TypeError', message: /undefined has no JSON text/ });
  t.throws(() => stringifyJson(() => 1), { name: 'TypeError', message: /function has no JSON text/ });
});

t.test('property: stringifyJson(parseJson(text)) reads back to the same value', async (t) => {
  const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
  const value: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      int64,
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
      fc.string({ unit: 'binary' }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.string(), tie('v'), { maxKeys: 4 }),
    ),
  })).v;
  const details = fc.check(
    fc.property(value, (v) => {
      const text = stringifyJson(v);
      const again = parseJson(text, { maxDepth: 1000, maxMembers: 1e9 });
      return again.ok && stringifyJson(again.value) === text;
    }),
  );
  // The report names the seed and the counterexample, to replay with fc.check(…, { seed, path }).
  t.notOk(details.failed, fc.defaultReportMessage(details) ?? 'no counterexample');
});
