// The Accept-Encoding fields the suite sends (conformance/catalogues/codings.ts).
// Whether a coded answer is acceptable is what the checks read off each
// entry (`allowsCoding`), so each entry's field is read here by RFC 9110
// §12.5.3, and must say what the entry claims. A broken fixture that fails on
// one field's exact text alone would be tuned to it (see docs/mutation.md):
// what each field is, is stated here instead.
import t from 'tap';
import { ACCEPT_ENCODINGS } from '../../../conformance/catalogues/codings.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const CODINGS = ['gzip', 'deflate', 'br', 'zstd'];

/** RFC 9110 §12.5.3: each member a coding (or *) with an optional weight; undefined when the field is malformed. */
function members(field: string): Map<string, number> | undefined {
  const out = new Map<string, number>();
  if (field.trim() === '') return out;
  for (const member of field.split(',')) {
    const [coding = '', ...params] = member.split(';').map((p) => p.trim());
    if (!TOKEN.test(coding)) return undefined;
    let q = 1;
    for (const param of params) {
      const m = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i.exec(param);
      if (!m) return undefined;
      q = Number(m[1]);
    }
    out.set(coding.toLowerCase(), q);
  }
  return out;
}

/** Whether the field leaves `coding` acceptable (RFC 9110 §12.5.3): named with a weight above 0, or matched by `*`. */
function accepts(field: string | null, coding: string): boolean {
  if (field === null) return true;
  const m = members(field);
  if (!m) return false;
  if (m.has(coding)) return m.get(coding)! > 0;
  return (m.get('*') ?? 0) > 0;
}

t.test('every field is well formed, none sent twice, and only the first is no field at all', async (t) => {
  ACCEPT_ENCODINGS.forEach((entry, i) => {
    if (i === 0) t.equal(entry.value, null, 'the first sends no Accept-Encoding');
    else t.ok(typeof entry.value === 'string' && members(entry.value) !== undefined, `${JSON.stringify(entry.value)} is an Accept-Encoding field`);
    t.equal(typeof entry.allowsCoding, 'boolean');
  });
  const values = ACCEPT_ENCODINGS.map((e) => e.value);
  t.equal(new Set(values).size, values.length, 'no field twice');
});

t.test('allowsCoding says what RFC 9110 §12.5.3 reads in the field', async (t) => {
  for (const entry of ACCEPT_ENCODINGS) {
    const allowed = CODINGS.filter((c) => accepts(entry.value, c));
    t.equal(entry.allowsCoding, allowed.length > 0, `${JSON.stringify(entry.value)} allows ${allowed.join(', ') || 'no coding'}`);
  }
});

t.test('the fields refuse a coding each in its own way: naming identity, empty, every coding weighted 0', async (t) => {
  const refusing = ACCEPT_ENCODINGS.filter((e) => !e.allowsCoding).map((e) => e.value!);
  t.ok(
    refusing.some((v) => members(v)!.size === 0),
    'an empty field',
  );
  t.ok(
    refusing.some((v) => [...members(v)!.keys()].join() === 'identity'),
    'identity alone',
  );
  t.ok(
    refusing.some((v) => CODINGS.every((c) => members(v)!.get(c) === 0)),
    'every coding named with q=0',
  );
});

t.test('the fields that allow a coding are those real clients send, gzip in each, br in some, weights in one', async (t) => {
  const allowing = ACCEPT_ENCODINGS.filter((e) => e.allowsCoding && e.value !== null).map((e) => e.value!);
  t.ok(allowing.length >= 5, `${allowing.length} fields`);
  t.ok(
    allowing.every((v) => accepts(v, 'gzip')),
    'gzip is acceptable to each (every client that codes takes it)',
  );
  t.ok(
    allowing.some((v) => members(v)!.size === 1),
    'one names gzip alone (Go net/http)',
  );
  t.ok(
    allowing.some((v) => members(v)!.has('zstd')),
    'one names zstd (Chrome, Firefox)',
  );
  t.ok(
    allowing.some((v) => members(v)!.has('br') && !members(v)!.has('zstd') && members(v)!.size === 3),
    'one names gzip, deflate and br (Safari, Node.js fetch)',
  );
  t.ok(
    allowing.some((v) => [...members(v)!.keys()].join() === 'gzip,deflate'),
    'one names gzip and deflate (curl, Python requests, axios)',
  );
  t.ok(
    allowing.some((v) => members(v)!.has('*') && new Set(members(v)!.values()).size > 1),
    'one weighs its codings and names * (OkHttp-style)',
  );
});
