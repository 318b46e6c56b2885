// The preconditions and ranges http.*.conditional sends on a read (conformance/catalogues/preconditions-and-ranges.ts),
// each with its judge, by RFC 9110: a tag never issued does not match (§13.1.2), an invalid If-Modified-Since is
// ignored (§13.1.3), a 304 carries the ETag (§15.4.5), a Range may be ignored, served or refused (§14.2), and without
// the key preconditions and ranges are not evaluated (§13.2.1): the 401. The check itself is in checks/http.test.ts.
import t from 'tap';
import { imfFixdate } from '../../../conformance/fields.js';
import { CONDITIONAL_CASES, type ConditionalCase } from '../../../conformance/catalogues/preconditions-and-ranges.js';
import type { WireRequest, WireResponse } from '../../../conformance/client.js';
import { Violation } from '../../../conformance/vocabulary.js';

const ETAG = '"v1-abc"';
/** RFC 9110 §8.8.3: entity-tag = [ weak ] opaque-tag; opaque-tag = DQUOTE *etagc DQUOTE. */
const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/;
/** RFC 9110 §5.6.2 token, in lower case as the client's fields are named. */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const UNAUTHORIZED = { code: 'unauthorized', message: 'a valid API key is required', status: 401n };

const caseOf = (label: string): ConditionalCase => {
  const found = CONDITIONAL_CASES.find((c) => c.label === label);
  if (!found) throw new Error(`no case labelled ${label}`);
  return found;
};

/** What the judge of `label` makes of `response` to a read whose plain answer carried `plain.etag`: 'ok' or the Violation's message. */
function judged(label: string, response: Partial<WireResponse>, plain: { etag?: string } = { etag: ETAG }): string {
  const { etag } = plain;
  const request: WireRequest = { method: 'GET', path: '/pets/1', headers: caseOf(label).headers(etag), operationId: 'getPet', offSpec: true };
  const sent = { request, response: { status: 200, headers: {}, text: '', json: undefined, durationMs: 1, ...response } };
  try {
    caseOf(label).judge(sent, etag);
    return 'ok';
  } catch (error) {
    if (!(error instanceof Violation)) throw error;
    if (error.exchange?.response !== sent.response) throw new Error('the Violation does not carry the answer judged');
    return error.message;
  }
}
const unauthorized = (json: WireResponse['json']): Partial<WireResponse> => ({ status: 401, json, text: 'x' });

t.test('every case sends precondition or range fields, named in lower case, with or without the ETag a plain read carried', async (t) => {
  for (const c of CONDITIONAL_CASES) {
    for (const etag of [ETAG, undefined]) {
      const fields = c.headers(etag);
      const names = Object.keys(fields);
      t.ok(names.length > 0, `${c.label}: at least one field`);
      for (const name of names) {
        t.match(name, FIELD_NAME, `${c.label}: ${name} is a field name`);
        t.ok(['if-none-match', 'if-modified-since', 'range'].includes(name), `${c.label}: ${name} is a precondition (§13.1) or Range (§14.2)`);
        t.notMatch(fields[name], /[\r\n\0]/, `${c.label}: a value a field can carry`);
      }
    }
  }
  t.equal(new Set(CONDITIONAL_CASES.map((c) => c.label)).size, CONDITIONAL_CASES.length, 'no two labels alike');
  const requests = CONDITIONAL_CASES.map((c) => JSON.stringify([c.withoutKey === true, c.headers(ETAG)]));
  t.equal(new Set(requests).size, CONDITIONAL_CASES.length, 'no two requests alike');
});

t.test('each field value is what RFC 9110 defines, but the date that is deliberately not one', async (t) => {
  for (const c of CONDITIONAL_CASES) {
    const fields = c.headers(ETAG);
    const inm = fields['if-none-match'];
    if (inm !== undefined) t.ok(inm === '*' || ENTITY_TAG.test(inm), `${c.label}: If-None-Match: ${inm} is * or an entity-tag (§13.1.2)`);
    const range = fields['range'];
    if (range !== undefined) {
      const spec = /^bytes=(\d+)-(\d+)$/.exec(range);
      t.ok(spec && Number(spec[1]) <= Number(spec[2]), `${c.label}: Range: ${range} is one byte range, first to last (§14.1.2)`);
    }
  }
  t.equal(caseOf('If-Modified-Since that is not a date').headers(ETAG)['if-modified-since'], 'not a date');
  t.equal(imfFixdate('not a date'), undefined, 'which is no HTTP-date (§5.6.7)');
  const since = caseOf('the issued tag without the key').headers(ETAG)['if-modified-since'];
  const instant = imfFixdate(since);
  t.ok(instant !== undefined, `${since} is an IMF-fixdate`);
  t.equal(new Date(instant ?? 0).toUTCString(), since, 'with the weekday of its date');
  t.ok((instant ?? 0) > Date.UTC(2080, 0, 1), 'far in the future: the representation has not been modified since');
});

t.test('the tags: one never issued, unlike the ETag given; the ETag just issued, sent back as it came', async (t) => {
  const never = caseOf('If-None-Match with a tag never issued').headers(ETAG)['if-none-match'];
  t.ok(never !== undefined && ENTITY_TAG.test(never) && never !== ETAG, `${never}: an entity-tag other than the one issued`);
  t.equal(caseOf('If-None-Match with the tag just issued').headers(ETAG)['if-none-match'], ETAG);
  t.equal(caseOf('If-None-Match with the tag just issued').headers('W/"weak"')['if-none-match'], 'W/"weak"', 'a weak one too');
  t.equal(caseOf('If-None-Match with the tag just issued').headers(undefined)['if-none-match'], never, 'no ETag issued: the tag never issued');
  t.equal(caseOf('the issued tag without the key').headers(ETAG)['if-none-match'], ETAG);
  t.equal(caseOf('If-None-Match: * without the key').headers(ETAG)['if-none-match'], '*', 'any current representation');
});

t.test('without the key: If-None-Match *, the issued tag with a later date, a Range; the same fields as a case with it', async (t) => {
  const without = CONDITIONAL_CASES.filter((c) => c.withoutKey);
  t.same(
    without.map((c) => c.label),
    ['If-None-Match: * without the key', 'the issued tag without the key', 'Range without the key'],
  );
  t.ok(
    without.every((c) => /without the key/.test(c.label)),
    'each says so',
  );
  t.ok(
    CONDITIONAL_CASES.filter((c) => !c.withoutKey).every((c) => !/without/.test(c.label)),
    'and no other case',
  );
  t.same(caseOf('Range without the key').headers(ETAG), caseOf('Range: bytes=0-3').headers(ETAG), 'the Range sent with the key');
});

t.test('a tag never issued and a date that is not one: only the 200 (§13.1.2, §13.1.3)', async (t) => {
  for (const label of ['If-None-Match with a tag never issued', 'If-Modified-Since that is not a date']) {
    t.equal(judged(label, { status: 200 }), 'ok', `${label}: 200`);
    t.match(judged(label, { status: 304, headers: { etag: ETAG } }), /expected 200, got 304/, `${label}: a 304 fails`);
    t.match(judged(label, { status: 500 }), /expected 200, got 500 \(a server error/, `${label}: a server error fails`);
  }
});

t.test('the tag just issued: 200 or 304, a 304 with its ETag (§15.4.5); with no ETag issued, only the 200', async (t) => {
  const label = 'If-None-Match with the tag just issued';
  t.equal(judged(label, { status: 200 }), 'ok');
  t.equal(judged(label, { status: 304, headers: { etag: ETAG } }), 'ok', 'a 304 with the ETag');
  t.match(judged(label, { status: 304, headers: {} }), /a 304 without the ETag that the 200 carried \(RFC 9110 §15\.4\.5\)/);
  t.match(judged(label, { status: 412 }), /expected 200 or 304, got 412/, 'If-None-Match on GET is never a 412 (§13.1.2)');
  t.match(judged(label, { status: 304, headers: { etag: '"conform-never-issued"' } }, {}), /expected 200, got 304/, 'no tag issued: nothing to match');
});

t.test('a Range on the read: ignored (200), served (206) or refused (416), nothing else (§14.2)', async (t) => {
  for (const status of [200, 206, 416]) t.equal(judged('Range: bytes=0-3', { status }), 'ok', `${status}`);
  for (const status of [304, 400, 500])
    t.match(judged('Range: bytes=0-3', { status }), new RegExp(`expected 200 or 206 or 416, got ${status}`), `${status} fails`);
});

t.test('without the key: a 401 with an Error body, whatever the preconditions say (§13.2.1)', async (t) => {
  for (const c of CONDITIONAL_CASES.filter((c) => c.withoutKey)) {
    t.equal(judged(c.label, unauthorized(UNAUTHORIZED)), 'ok', `${c.label}: 401`);
    for (const status of [200, 206, 304, 412])
      t.match(judged(c.label, { status, headers: { etag: ETAG } }), /expected 401, got/, `${c.label}: ${status} fails`);
    t.match(
      judged(c.label, unauthorized(undefined)),
      /the 401 answer has no valid Error body: the body is not JSON/,
      `${c.label}: a 401 without an Error body fails`,
    );
    t.match(
      judged(c.label, unauthorized({ ...UNAUTHORIZED, status: 403n })),
      /no valid Error body: `status` is 403/,
      `${c.label}: its status as the HTTP status`,
    );
  }
});
