// The requests the suite builds from its catalogues say what they are: each
// refused credential is a field no other entry sends, one of them a wrong key
// that is no near miss of the key; each invalid body of another JSON type
// sends the type its label names; a long name has the length its label says,
// counted in code points as JSON Schema counts (a prefix may hold astral
// characters).
import t from 'tap';
import { invalidBodyExamples, refusedAuthorizationExamples, withLongMarked } from '../../../conformance/arbitraries/requests.js';
import { parseJson, type JsonValue } from '../../../spec/json/index.js';
import { operationById } from '../../../spec/operations.js';

/** Keys as `petstore serve` makes them and as users choose them. */
const KEYS = ['k3Jd9sQpLm2xV7bN', 'test-key', 'ps_live_0123456789abcdef', 'Abc.Def~Ghi/Jkl+Mno='];

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

t.test('no two refused credentials send the same Authorization field, and none sends the key itself', async (t) => {
  for (const key of KEYS) {
    const fields = refusedAuthorizationExamples(key).map((c) => c.header);
    t.equal(new Set(fields).size, fields.length, `${key}: ${fields.length} distinct fields`);
    t.notOk(fields.includes(`Bearer ${key}`), `${key}: the key itself is never among them`);
  }
});

t.test('one refused credential is a well-formed Bearer token (RFC 6750 §2.1 b64token) that is no near miss of the key', async (t) => {
  for (const key of KEYS) {
    const wrong = refusedAuthorizationExamples(key).filter(({ header }) => {
      const token = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/.exec(header ?? '')?.[1];
      // Case aside (a near miss of its own): at least half of the key's characters differ.
      return token !== undefined && editDistance(token.toLowerCase(), key.toLowerCase()) * 2 >= key.length;
    });
    t.ok(wrong.length > 0, `${key}: ${wrong.map((c) => c.header).join(', ') || 'none'}`);
  }
});

t.test('each body of another JSON type than an object sends the type its label names', async (t) => {
  const is: Record<string, (v: JsonValue) => boolean> = {
    array: Array.isArray,
    string: (v) => typeof v === 'string',
    number: (v) => typeof v === 'number' || typeof v === 'bigint',
    null: (v) => v === null,
    true: (v) => v === true,
    false: (v) => v === false,
  };
  const bodies = invalidBodyExamples(operationById('createPet'), 'conform-', 1).filter((b) => / instead of an object$/.test(b.label));
  t.ok(bodies.length >= 5, `${bodies.length} bodies of another type`);
  for (const body of bodies) {
    const named = /(\w+) instead of an object$/.exec(body.label)![1]!;
    const read = parseJson(body.text);
    t.ok(read.ok && is[named]?.(read.value), `${body.label}: ${body.text}`);
  }
});

t.test('a long name has the length its label gives, in code points, whatever its prefix', async (t) => {
  for (const prefix of ['', 'conform-', 'ps-🐕-', '🐈'.repeat(20)]) {
    for (const length of [1, 64, 10_000]) {
      const body = withLongMarked({ categoryId: 1 }, 'name', prefix, Math.max(length, [...prefix].length));
      const name = body.value['name'] as string;
      const expected = Math.max(length, [...prefix].length);
      t.equal([...name].length, expected, `${JSON.stringify(prefix)}, ${expected}: ${body.label}`);
      t.ok(name.startsWith(prefix) && body.label.includes(`${expected} characters`));
    }
  }
});
