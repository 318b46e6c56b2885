// The rules on dates and validators that contradict the run's own answers
// (conformance/checks/validators.ts), each applied to answers written by
// hand: where each begins to speak, what breaks it, and where its reach ends.
import t from 'tap';
import { deprecationDate, httpDate, validatorRules } from '../../../conformance/checks/validators.js';
import type { Exchange } from '../../../conformance/client.js';
import type { CheckContext } from '../../../conformance/vocabulary.js';
import { ruleVerdict } from '../../helpers/rule-verdict.js';

const KEY = 'Bearer secret-key-123';
const ctx = { client: { authorization: KEY, baseUrl: 'http://127.0.0.1:1/v1' }, operations: [] } as unknown as CheckContext;

interface Sketch {
  method?: string;
  path?: string;
  authorization?: string;
  status?: number;
  answer?: Record<string, string>;
  text?: string;
  undecodable?: string;
  unsupportedCoding?: string;
  fromOrigin?: boolean;
}

const exchange = (s: Sketch): Exchange =>
  ({
    family: 'state',
    request: {
      method: s.method ?? 'GET',
      path: s.path ?? '/pets',
      headers: { authorization: s.authorization ?? KEY },
      operationId: 'listPets',
      ...(s.fromOrigin ? { fromOrigin: true } : {}),
    },
    response: {
      status: s.status ?? 200,
      headers: s.answer ?? {},
      text: s.text ?? '[]',
      json: undefined,
      durationMs: 1,
      ...(s.undecodable ? { undecodable: s.undecodable } : {}),
      ...(s.unsupportedCoding ? { unsupportedCoding: s.unsupportedCoding } : {}),
    },
  }) as unknown as Exchange;

/** One run's rules, by id: the strong-validator rule remembers what the run's answers said. */
const run = () => new Map(validatorRules().map((r) => [r.id, r]));
const verdict = (rules: ReturnType<typeof run>, id: string, s: Sketch) => ruleVerdict(rules.get(id)!, exchange(s), ctx);

const DATE = 'Sun, 29 Nov 2026 06:00:00 GMT';

t.test('every rule is of the http family, under its own id, citing its sections', async (t) => {
  const ids = validatorRules().map((r) => r.id);
  t.same(ids, ['http.last-modified', 'http.strong-validator', 'http.sunset-after-deprecation']);
  for (const r of validatorRules()) t.equal(r.family, 'http', r.id);
  t.same(
    validatorRules().map((r) => r.section),
    ['RFC 9110 §8.8.2.1, §6.6.1', 'RFC 9110 §8.8.1, §8.8.3', 'RFC 9745 §4; RFC 8594 §3; seed §4.3, §9'],
  );
});

t.test('httpDate reads a whole HTTP-date in any of its three forms, white space around it aside, and nothing else', async (t) => {
  const at = Date.parse('2026-11-29T06:00:00Z');
  t.equal(httpDate('Sun, 29 Nov 2026 06:00:00 GMT'), at);
  t.equal(httpDate('  Sun, 29 Nov 2026 06:00:00 GMT '), at, 'the field value without its surrounding white space');
  t.equal(httpDate('Sunday, 29-Nov-26 06:00:00 GMT'), at);
  t.equal(httpDate('Sun Nov 29 06:00:00 2026'), at);
  for (const text of ['xSun, 29 Nov 2026 06:00:00 GMT', 'Sun, 29 Nov 2026 06:00:00 GMTx', 'Sun Nov 29 06:00:00 2026 GMT', '@1795932000', '']) {
    t.equal(httpDate(text), undefined, JSON.stringify(text));
  }
  t.equal(httpDate(undefined), undefined);
});

t.test('http.last-modified: never later than the Date of the same answer', async (t) => {
  const rules = run();
  const at = (modified: string, date = DATE) => verdict(rules, 'http.last-modified', { answer: { 'last-modified': modified, date } });
  t.equal(at('Sun, 29 Nov 2026 06:00:00 GMT'), 'ok', 'the same second');
  t.equal(at('Sat, 28 Nov 2026 06:00:00 GMT'), 'ok', 'a day before');
  t.match(at('Sun, 29 Nov 2026 06:00:01 GMT'), /Last-Modified: Sun, 29 Nov 2026 06:00:01 GMT is later than the answer's own Date/, 'one second after');
  t.match(at('Sunday, 29-Nov-26 07:00:00 GMT'), /later than/, 'in the RFC 850 form too');
  t.match(at('Sun Nov 29 07:00:00 2026'), /later than/, 'in the asctime form, read as UTC');
  t.equal(
    verdict(rules, 'http.last-modified', { answer: { 'last-modified': 'Sun, 29 Nov 2099 06:00:00 GMT' } }),
    undefined,
    'no Date: no clock to compare with',
  );
  t.equal(at('yesterday'), undefined, 'a value that is no date says nothing about time');
  t.equal(verdict(rules, 'http.last-modified', { answer: { date: DATE } }), undefined, 'no Last-Modified');
});

t.test('http.strong-validator: one strong tag, one content, per method and target', async (t) => {
  const rules = run();
  const seen = (s: Sketch) => verdict(rules, 'http.strong-validator', s);
  t.equal(seen({ answer: { etag: '"a"' }, text: '[1]' }), 'ok', 'first seen');
  t.equal(seen({ answer: { etag: '"a"' }, text: '[1]' }), 'ok', 'the same content again');
  t.match(
    seen({ answer: { etag: '"a"' }, text: '[1,2]' }),
    /GET \/pets was answered 200 twice with ETag: "a", but with different content \(3 then 5 characters, first differing at 2/,
  );
  t.equal(seen({ answer: { etag: 'W/"a"' }, text: '[1,2,3]' }), undefined, 'a weak tag may stay while the content changes');
  t.equal(seen({ path: '/pets?limit=5', answer: { etag: '"a"' }, text: '[9]' }), 'ok', 'another target (its query counts) is another resource');
  t.equal(seen({ method: 'HEAD', answer: { etag: '"a"' }, text: '' }), 'ok', 'HEAD carries no content to compare with GET’s');
  t.equal(seen({ status: 206, answer: { etag: '"a"' }, text: '[1' }), undefined, 'a 206 holds part of the content');
  t.equal(seen({ authorization: 'Bearer wrong', answer: { etag: '"a"' }, text: '{}' }), undefined, 'only answers to the valid key');
  t.equal(seen({ answer: { etag: '"a"' }, text: '\u001f\u008b', undecodable: 'bad gzip' }), undefined, 'content the client could not decode');
  t.equal(seen({ answer: { etag: '"b"' }, text: '[1,2]' }), 'ok', 'a new tag for the new content');
  t.equal(seen({ path: '/pets?x=1', answer: { etag: ' "c" ' }, text: '[1]' }), 'ok', 'a strong tag with white space around it');
  t.match(seen({ path: '/pets?x=1', answer: { etag: '"c"' }, text: '[2]' }), /twice with ETag: "c"/, 'is the same strong tag');
  t.equal(seen({ path: '/pets?x=2', answer: { etag: '"d"junk' }, text: '[1]' }), undefined, 'a value that is no entity tag is not judged');
});

t.test('http.strong-validator: what one run saw is not carried into the next', async (t) => {
  const first = run();
  t.equal(verdict(first, 'http.strong-validator', { answer: { etag: '"a"' }, text: '[1]' }), 'ok');
  const next = run();
  t.equal(verdict(next, 'http.strong-validator', { answer: { etag: '"a"' }, text: '[1,2]' }), 'ok', 'a fresh run knows no tag yet');
});

t.test('http.sunset-after-deprecation: a Sunset is never earlier than the Deprecation', async (t) => {
  const rules = run();
  const pair = (deprecation: string, sunset = 'Thu, 05 Dec 2030 00:00:00 GMT') =>
    verdict(rules, 'http.sunset-after-deprecation', { answer: { deprecation, sunset } });
  t.equal(pair('@1735689600'), 'ok', 'deprecated in 2025, removed in 2030');
  t.equal(pair('@1922659200'), 'ok', 'deprecated at the very second of the removal');
  t.match(pair('@1924992000'), /Sunset: Thu, 05 Dec 2030 00:00:00 GMT is earlier than Deprecation: @1924992000 \(Wed, 01 Jan 2031/);
  t.match(pair('Wed, 01 Jan 2031 00:00:00 GMT'), /earlier than/, 'a draft HTTP-date Deprecation is compared too');
  t.equal(pair('true'), undefined, '"true" names no date');
  t.equal(pair('@1924992000', 'soon'), undefined, 'a Sunset that is no date');
  t.equal(verdict(rules, 'http.sunset-after-deprecation', { answer: { deprecation: '@1924992000' } }), undefined, 'no Sunset');
});

t.test('deprecationDate reads the structured date and its drafts’ HTTP-date', async (t) => {
  t.equal(deprecationDate('@1735689600'), Date.parse('2025-01-01T00:00:00Z'));
  t.equal(deprecationDate(' @0 '), 0);
  t.equal(deprecationDate('Wed, 01 Jan 2025 00:00:00 GMT'), Date.parse('2025-01-01T00:00:00Z'));
  t.equal(deprecationDate('@1.5'), undefined);
  t.equal(deprecationDate('true'), undefined);
});

t.test('http.strong-validator: where the two contents part, shown; grouped by method and path, the query aside', async (t) => {
  const rule = run().get('http.strong-validator')!;
  const x = (n: number) => 'x'.repeat(n);
  t.equal(rule.judge(exchange({ path: '/pets?limit=5', answer: { etag: '"abc"' }, text: `${x(50)}A${x(50)}` }), ctx), undefined, 'first seen');
  t.same(rule.judge(exchange({ path: '/pets?limit=5', answer: { etag: '"abc"' }, text: `${x(50)}B${x(50)}` }), ctx), {
    problem: `GET /pets?limit=5 was answered 200 twice with ETag: "abc", but with different content (101 then 101 characters, first differing at 50: ${JSON.stringify(`${x(10)}A${x(29)}`)} then ${JSON.stringify(`${x(10)}B${x(29)}`)}): a strong tag that stays while the content changes is a weak one, which MUST be marked W/`,
    kind: 'strong tag kept for changed content of GET /pets',
  });
});

t.test(
  'http.strong-validator: a path from the origin is another resource than the same path under the base; content in a coding not undone is not judged',
  async (t) => {
    const rules = run();
    const seen = (s: Sketch) => verdict(rules, 'http.strong-validator', s);
    t.equal(seen({ answer: { etag: '"o"' }, text: '[1]' }), 'ok');
    t.equal(seen({ fromOrigin: true, answer: { etag: '"o"' }, text: '[2]' }), 'ok', '/pets at the origin is not /v1/pets');
    t.equal(seen({ path: '/pets?m=1', answer: { etag: '"many-chars"' }, text: '[1]' }), 'ok');
    t.match(
      seen({ path: '/pets?m=1', answer: { etag: '"many-chars"' }, text: '[2]' }),
      /twice with ETag: "many-chars"/,
      'a tag of many characters is strong too',
    );
    t.equal(seen({ answer: { etag: '"o"', 'content-encoding': 'zstd' }, text: '\u0028', unsupportedCoding: 'zstd' }), undefined);
  },
);

t.test('deprecationDate reads @<seconds> whole, or an HTTP-date', async (t) => {
  t.equal(deprecationDate('@1735689600'), 1735689600000);
  t.equal(deprecationDate('x@1735689600'), undefined, 'not a structured date when anything precedes it');
});
