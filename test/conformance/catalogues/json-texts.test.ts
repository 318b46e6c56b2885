// The request bodies at the edges of RFC 8259 (conformance/catalogues/json-texts.ts).
// Each says what a server must make of it: `created` (every reading is the
// same valid NewPet), `refused` (no reading is one), `either`. That is
// stated here by two readers the RFC allows: ECMAScript's JSON.parse (the
// last of a repeated member wins; nothing but one JSON text), and a lenient
// reader that takes what §8.1 and §9 let a parser take (a byte order mark
// ignored, the first value of the text, unknown members skipped unread, so
// neither their depth nor a NaN in them matters; the first of a repeated
// member wins).
import t from 'tap';
import { JSON_TEXTS } from '../../../conformance/catalogues/json-texts.js';

const PET = { name: 'conform-pet', categoryId: 7n };
const INT64 = /^-?(0|[1-9]\d*)$/;

interface Reading {
  readonly name: string;
  readonly categoryId: string;
}

/** A reading, when the value is a NewPet with an int64 categoryId. */
function newPet(value: unknown): Reading | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { name, categoryId } = value as Record<string, unknown>;
  if (typeof name !== 'string' || typeof categoryId !== 'number' || !Number.isInteger(categoryId)) return undefined;
  const digits = String(categoryId);
  return INT64.test(digits) && BigInt(digits) < 2n ** 63n ? { name, categoryId: digits } : undefined;
}

function ecmaReading(text: string): Reading | undefined {
  try {
    return newPet(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Where the JSON value that starts at `i` ends: brackets balanced, strings whole, a bare word (NaN) to its end. */
function valueEnd(text: string, i: number): number | undefined {
  if (!/["[{]/.test(text[i] ?? '')) {
    let j = i;
    while (j < text.length && !/[\s,:\]}]/.test(text[j]!)) j++;
    return j > i ? j : undefined;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j]!;
    if (c === '"') {
      for (j++; j < text.length && text[j] !== '"'; j++) if (text[j] === '\\') j++;
      if (j >= text.length) return undefined;
      if (depth === 0) return j + 1;
    } else if (c === '[' || c === '{') depth++;
    else if ((c === ']' || c === '}') && --depth === 0) return j + 1;
  }
  return undefined;
}

/** The lenient reader: the first value, an object whose name and categoryId are read (the first of each) and the rest skipped. */
function lenientReading(text: string): Reading | undefined {
  const s = text.replace(/^\ufeff/, '').trimStart();
  if (!s.startsWith('{')) return undefined;
  const kept: Record<string, unknown> = {};
  let i = 1;
  const space = () => {
    while (/\s/.test(s[i] ?? '')) i++;
  };
  for (;;) {
    space();
    if (s[i] === '}') break;
    const keyEnd = valueEnd(s, i);
    if (keyEnd === undefined || s[i] !== '"') return undefined;
    const key = JSON.parse(s.slice(i, keyEnd)) as string;
    i = keyEnd;
    space();
    if (s[i++] !== ':') return undefined;
    space();
    const end = valueEnd(s, i);
    if (end === undefined) return undefined;
    if ((key === 'name' || key === 'categoryId') && !(key in kept)) {
      try {
        kept[key] = JSON.parse(s.slice(i, end));
      } catch {
        return undefined;
      }
    }
    i = end;
    space();
    if (s[i] === ',') i++;
    else if (s[i] !== '}') return undefined;
  }
  return newPet(kept);
}

const READERS = { 'JSON.parse': ecmaReading, 'the lenient reader': lenientReading };
const same = (a: Reading | undefined, b: Reading) => a !== undefined && a.name === b.name && a.categoryId === b.categoryId;

t.test('each text expects 201, 400 or either, and only a text that may be created lists its readings', async (t) => {
  for (const entry of JSON_TEXTS) {
    t.ok(['created', 'refused', 'either'].includes(entry.expect), `${entry.label}: ${entry.expect}`);
    t.equal(entry.readings !== undefined, entry.expect !== 'refused', `${entry.label}: readings only where a 201 may come`);
  }
});

t.test('a text that may be created is read by a reader the RFC allows as one of its readings; one to be created, by both', async (t) => {
  for (const entry of JSON_TEXTS.filter((e) => e.expect !== 'refused')) {
    const text = entry.text({ name: JSON.stringify(PET.name).slice(1, -1), categoryId: PET.categoryId });
    const readings = entry.readings!({ name: PET.name, categoryId: PET.categoryId });
    t.ok(readings.length > 0, `${entry.label}: readings`);
    const readBy = Object.entries(READERS).filter(([, read]) => readings.some((r) => same(read(text), r)));
    if (entry.expect === 'created') t.equal(readBy.length, 2, `${entry.label}: read alike by both`);
    else t.ok(readBy.length > 0, `${entry.label}: read as one of its readings by ${readBy.map(([n]) => n).join(' and ') || 'neither'}`);
  }
});

t.test('a text to be refused is a valid NewPet to neither reader', async (t) => {
  for (const entry of JSON_TEXTS.filter((e) => e.expect === 'refused')) {
    const text = entry.text({ name: PET.name, categoryId: PET.categoryId });
    for (const [reader, read] of Object.entries(READERS)) t.equal(read(text), undefined, `${entry.label}: not a NewPet to ${reader}`);
  }
});

t.test('what makes each text one a parser may refuse or read otherwise', async (t) => {
  const text = (label: string) => JSON_TEXTS.find((e) => e.label === label)!.text(PET);
  for (const label of ['a byte order mark before the text', 'another JSON value after the object', 'NaN in an unknown member'])
    t.equal(ecmaReading(text(label)), undefined, `${label}: not one JSON text to JSON.parse`);
  const repeated = text('a member name repeated with another value');
  t.not(ecmaReading(repeated)?.name, lenientReading(repeated)?.name, 'a repeated member: the last to one reader, the first to the other');
  const twice = text('categoryId repeated, an integer then a string');
  t.equal(ecmaReading(twice), undefined, 'categoryId repeated: the string, last, is no int64 to JSON.parse');
  t.ok(lenientReading(twice), 'the integer, first, is one to the lenient reader');
  const sameTwice = text('a member name repeated with the same value');
  t.equal((sameTwice.match(/"name":/g) ?? []).length, 2, 'the same name twice');
  t.equal(JSON.parse(sameTwice).name, PET.name, 'with the same value');
  const deep = text('an unknown member nested 10,000 levels deep');
  t.equal(deep.match(/\[/g)?.length, 10_000, 'ten thousand arrays opened');
  t.equal(deep.match(/\]/g)?.length, 10_000, 'and closed');
  t.ok(Object.is(JSON.parse(text('categoryId written as -0')).categoryId, -0), '-0 is negative zero to JSON.parse');
});
