// The ids not-found sends that are not an int64 as the spec writes one
// (MALFORMED_IDS), built around a pet that exists: each is there for a reader
// that takes it for that pet, or for its neighbour, or for a NUL. What each
// is to the reader it is for is stated here; which ids a lenient reader may
// take a text for (lenientReadings) decides whether a 200 served the right pet.
import t, { type Test } from 'tap';
import { lenientReadings, MALFORMED_IDS } from '../../../conformance/checks/not-found.js';
import { fillPath } from '../../../conformance/arbitraries/requests.js';
import { operationById } from '../../../spec/operations.js';
import { runCheck } from '../../helpers/check-run.js';
import { jsonAnswer, startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

const ID = 42n;
const texts = MALFORMED_IDS.map((form) => form(ID));
const n = Number(ID);
const some = (t: Test, what: string, test: (text: string) => boolean) =>
  t.ok(
    texts.some(test),
    `${what}: ${
      texts
        .filter(test)
        .map((x) => JSON.stringify(x))
        .join(', ') || 'none'
    }`,
  );

t.test('none is an int64 as the spec writes one, and none is sent twice', async (t) => {
  for (const text of texts) {
    const int64 = /^-?(0|[1-9]\d*)$/.test(text) && BigInt(text) >= -(2n ** 63n) && BigInt(text) < 2n ** 63n;
    t.notOk(int64, `${JSON.stringify(text)} is not an int64`);
  }
  t.equal(new Set(texts).size, texts.length);
});

t.test('texts a lenient reader takes for the pet: a zero fraction, an exponent, white space, a sign, hexadecimal', async (t) => {
  some(t, 'a zero fraction (Number, float)', (x) => /\.0+$/.test(x) && Number(x) === n);
  some(t, 'an exponent (Number, parseFloat)', (x) => /e/i.test(x) && !x.startsWith('0x') && Number(x) === n);
  some(t, 'leading white space (Number, BigInt, int())', (x) => x !== x.trimStart() && Number(x) === n);
  some(t, 'a plus sign (Number, BigInt, parseInt)', (x) => x.startsWith('+') && Number(x) === n);
  some(t, 'hexadecimal: the pet to Number(), zero to parseInt(text, 10)', (x) => /^0x/i.test(x) && Number(x) === n && Number.parseInt(x, 10) === 0);
});

t.test('texts a reader takes for the pet or its neighbour: fractions, a tail of letters, 64-bit wrap-around', async (t) => {
  some(t, 'the tie of a rounding reader: half past the id', (x) => Number(x) - n === 0.5);
  some(t, 'past the half: the next pet to every rounding reader, this one to a truncating one', (x) => {
    const v = Number(x);
    return v - n > 0.5 && v - n < 1 && Math.trunc(v) === n;
  });
  some(t, 'digits, then letters: the pet to parseInt, nothing to Number', (x) => Number.parseInt(x, 10) === n && Number.isNaN(Number(x)) && /^\d/.test(x));
  some(t, 'the pet plus 2^64: the pet in 64 bits', (x) => /^\d+$/.test(x) && BigInt(x) !== ID && BigInt.asIntN(64, BigInt(x)) === ID);
});

t.test('texts beyond int64 on either side, one with no digit at all, and the text of a NUL', async (t) => {
  some(t, 'one past the largest int64', (x) => /^\d+$/.test(x) && BigInt(x) === 2n ** 63n);
  some(t, 'one below the smallest', (x) => /^-\d+$/.test(x) && BigInt(x) === -(2n ** 63n) - 1n);
  some(t, 'no digit at all (NaN to every number reader)', (x) => !/\d/.test(x) && Number.isNaN(Number.parseInt(x, 10)));
  some(t, 'a NUL to a reader that decodes the path twice', (x) => decodeURIComponent(x) === '\0');
});

t.test('lenientReadings: the integers a lenient reader may take a text for, and none for a text that is not one', async (t) => {
  const read = (text: string) => [...lenientReadings(text)];
  t.same(read(' 42'), ['42']);
  t.same(read('+42'), ['42']);
  t.same(read('0x2a'), ['42']);
  t.same(read('-0x2A'), ['-42']);
  t.same(read('42.0'), ['42']);
  t.same(read('4.2e1'), ['42']);
  t.same(read('4200e-2'), ['42']);
  t.same(read('42.5'), [], 'a fraction is no integer');
  t.same(read('abc42'), [], 'letters before the digits');
  t.same(read('42abc'), [], 'letters after them');
  t.same(read('0x2ag'), [], 'not hexadecimal');
});

t.test(
  'with no pet to build around (--read-only, the list shows none), the texts are built around 1, the id a first pet gets, so a truncating reader still shows',
  async (t) => {
    const { url, key, api } = await startTestServer(t);
    t.equal((await api('/pets', { json: { name: 'Rex', categoryId: 1 } })).status, 201);
    // A service that lists nothing to this key and reads petId with parseInt: "1.7" is pet 1 to it.
    const front = await startFront(t, url, (req, forward) => {
      if (req.operationId === 'listPets') return jsonAnswer(200, []);
      // A path segment that is not valid percent-encoding has no parameter: the reference server answers it.
      const param = Object.entries(req.params ?? {})[0];
      if (req.operationId !== 'getPet' || param === undefined) return forward();
      const [name, text] = param;
      const id = Number.parseInt(text, 10);
      return Number.isNaN(id)
        ? jsonAnswer(400, { code: 'invalid_parameter', message: name, status: 400 })
        : forward({ ...req, path: fillPath(operationById('getPet').path, { [name]: String(id) }) });
    });
    const { status, message } = await runCheck(front, key, 'not-found.getPet.malformed-ids', { readOnly: true });
    t.equal(status, 'failed');
    t.match(message, /got 200 with the pet with id 1, which that text does not name/);
  },
);
