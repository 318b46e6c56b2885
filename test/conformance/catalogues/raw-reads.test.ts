// The GET and HEAD requests http.*.message writes by hand (conformance/catalogues/raw-reads.ts): each is there for
// an answer RFC 9112 defines (400 without Host or with two, §3.2; the absolute-form accepted, §3.2.2; the connection
// closed after Connection: close, §9.6) or RFC 9110 does (no content to HEAD, §9.3.2), and its judge fails a broken
// answer or records the MUST common servers skip as an advisory. The check running them is in checks/http.test.ts.
import t from 'tap';
import { head } from '../../../conformance/catalogues/message-framings.js';
import { READ_CASES, type ReadCase } from '../../../conformance/catalogues/raw-reads.js';
import type { WireRequest, WireResponse } from '../../../conformance/client.js';
import { operationById } from '../../../spec/operations.js';
import { type Advisory, type CheckContext, Violation } from '../../../conformance/vocabulary.js';

const PARTS = { host: '127.0.0.1:4010', path: '/v1/pets', authorization: 'Bearer k3y-Example_1.~' };
const OP = operationById('listPets');
/** RFC 9110 §5.6.2 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const caseOf = (label: string): ReadCase => {
  const found = READ_CASES.find((c) => c.label === label);
  if (!found) throw new Error(`no case labelled ${label}`);
  return found;
};

/** The request line's parts and the fields of a case, as RFC 9112 §3 and §5 read them. */
function request(c: ReadCase) {
  const [line = '', ...fieldLines] = c.lines(PARTS);
  const [method, target, version, ...extra] = line.split(' ');
  const fields = fieldLines.map((l) => {
    const colon = l.indexOf(':');
    return [l.slice(0, colon), l.slice(colon + 1).trim()] as const;
  });
  const all = (name: string) => fields.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
  return { line, method, target, version, extra, fields, all };
}

/** What the judge of `label` makes of an answer: 'ok', the Violation's message, or the advisory it records. */
function judged(label: string, response: Partial<WireResponse>, connection: { closed?: boolean; more?: boolean } = {}) {
  const advisories: Array<{ advisory: Advisory; conforms: boolean }> = [];
  const c = { unspecified: (advisory: Advisory, conforms: boolean) => advisories.push({ advisory, conforms }) } as unknown as CheckContext;
  const req: WireRequest = { method: 'GET', path: '/pets', headers: {}, operationId: OP.operationId, raw: 'GET /v1/pets HTTP/1.1\r\n\r\n' };
  const res: WireResponse = { status: 200, headers: {}, text: '', json: undefined, durationMs: 1, ...response };
  let verdict = 'ok';
  try {
    caseOf(label).judge(c, { sent: { request: req, response: res }, closed: connection.closed ?? true, more: connection.more ?? false }, OP);
  } catch (error) {
    if (!(error instanceof Violation)) throw error;
    verdict = error.message;
    if (error.exchange?.response !== res) throw new Error('the Violation does not carry the answer judged');
  }
  return { verdict, advisories, request: req, response: res };
}

t.test('every case is an HTTP/1.1 read with the key, without a body, whose lines make a header section', async (t) => {
  for (const c of READ_CASES) {
    const r = request(c);
    t.ok(['GET', 'HEAD'].includes(r.method ?? ''), `${c.label}: ${r.method}, a safe method`);
    t.equal(r.version, 'HTTP/1.1', `${c.label}: HTTP/1.1`);
    t.same(r.extra, [], `${c.label}: method SP target SP version`);
    t.ok(
      r.fields.every(([name]) => TOKEN.test(name)),
      `${c.label}: every field line has a token for a name`,
    );
    t.same(r.all('authorization'), [PARTS.authorization], `${c.label}: the key, once`);
    t.same([...r.all('content-length'), ...r.all('transfer-encoding')], [], `${c.label}: no body`);
    const raw = head(c.lines(PARTS));
    t.ok(raw.endsWith('\r\n\r\n') && raw.indexOf('\r\n\r\n') === raw.length - 4, `${c.label}: one header section, nothing after it`);
  }
  t.equal(new Set(READ_CASES.map((c) => c.label)).size, READ_CASES.length, 'no two labels alike');
  t.equal(new Set(READ_CASES.map((c) => c.lines(PARTS).join('\n'))).size, READ_CASES.length, 'no two requests alike');
});

t.test('each case sends what its label says: no Host, two, HEAD, Connection: close, the absolute form (RFC 9112 §3.2, §3.2.2, §9.6)', async (t) => {
  t.same(request(caseOf('no Host field')).all('host'), [], 'no Host field at all');
  const two = request(caseOf('two Host fields')).all('host');
  t.equal(two.length, 2, 'two Host fields');
  t.equal(two[0], PARTS.host, 'the first the target');
  t.not(two[1], PARTS.host, 'the second another host');
  t.equal(request(caseOf('HEAD')).method, 'HEAD');
  t.same(request(caseOf('Connection: close')).all('connection'), ['close']);
  const absolute = request(caseOf('an absolute-form target'));
  const url = new URL(absolute.target ?? '');
  t.equal(absolute.target, url.href, 'an absolute-URI');
  t.equal(url.pathname, PARTS.path, 'for the same path');
  // §3.2: a Host identical to the target URI's authority.
  t.same(absolute.all('host'), [url.host]);
  t.equal(url.host, PARTS.host);
  for (const label of ['two Host fields', 'HEAD', 'Connection: close']) t.equal(request(caseOf(label)).target, PARTS.path, `${label}: the origin form`);
  t.equal(READ_CASES.length, 5, 'and those five only');
});

t.test('no Host: a server error fails; 400 is what RFC 9112 §3.2 asks, any other answer an advisory', async (t) => {
  for (const status of [500, 503])
    t.match(judged('no Host field', { status }).verdict, new RegExp(`without Host \\(RFC 9112 §3\\.2: 400\\) was answered ${status}`));
  const refused = judged('no Host field', { status: 400 });
  t.equal(refused.verdict, 'ok');
  t.same(
    refused.advisories.map((a) => [a.advisory.decision, a.conforms]),
    [['missing-host', true]],
    'recorded as conforming',
  );
  const served = judged('no Host field', { status: 200 });
  t.equal(served.verdict, 'ok', 'served: no failure');
  const [advisory] = served.advisories;
  t.equal(advisory?.conforms, false, 'served: an advisory that differs from the reference');
  t.equal(advisory?.advisory.referenceBehaviour, '400 bad_request');
  t.equal(advisory?.advisory.observed, 'a request without Host was answered 200');
  t.equal(advisory?.advisory.family, 'http');
  t.equal(advisory?.advisory.operationId, 'listPets');
  t.equal(advisory?.advisory.response, served.response, 'with the answer');
  t.match(advisory?.advisory.seed, /RFC 9112 §3\.2/);
});

t.test('two Host fields: 400 conforms, anything else is an advisory under its own decision', async (t) => {
  t.same(
    judged('two Host fields', { status: 400 }).advisories.map((a) => [a.advisory.decision, a.conforms]),
    [['two-host-fields', true]],
  );
  const served = judged('two Host fields', { status: 200 });
  t.equal(served.verdict, 'ok');
  t.same(
    served.advisories.map((a) => [a.advisory.decision, a.conforms, a.advisory.observed]),
    [['two-host-fields', false, 'a request with two Host fields was answered 200']],
  );
});

t.test('HEAD: content after the header section fails (RFC 9110 §9.3.2), whatever the status; none is fine', async (t) => {
  for (const status of [200, 404]) {
    t.match(judged('HEAD', { status }, { more: true }).verdict, new RegExp(`the answer to HEAD \\(${status}\\) carries content .*RFC 9110 §9\\.3\\.2`));
    t.equal(judged('HEAD', { status }, { more: false }).verdict, 'ok');
  }
  t.same(judged('HEAD', { status: 200 }).advisories, [], 'no advisory either way');
});

t.test('Connection: close: a 200 and the connection closed (RFC 9112 §9.6); left open, or another status, fails', async (t) => {
  t.equal(judged('Connection: close', { status: 200 }, { closed: true }).verdict, 'ok');
  t.match(judged('Connection: close', { status: 200 }, { closed: false }).verdict, /kept the connection open \(RFC 9112 §9\.6\)/);
  t.match(judged('Connection: close', { status: 404 }, { closed: true }).verdict, /Connection: close: expected 200, got 404/);
});

t.test('the absolute form: answered as the origin form (200 with the list) conforms; anything else is an advisory (RFC 9112 §3.2.2)', async (t) => {
  const list = judged('an absolute-form target', { status: 200, json: [] });
  t.same(
    list.advisories.map((a) => [a.advisory.decision, a.conforms]),
    [['absolute-form', true]],
  );
  for (const response of [
    { status: 404, json: { code: 'not_found' } },
    { status: 200, json: { code: 'x' } },
    { status: 200, json: undefined },
  ]) {
    const other = judged('an absolute-form target', response);
    t.equal(other.verdict, 'ok', `${response.status}: no failure`);
    t.same(
      other.advisories.map((a) => [a.advisory.decision, a.conforms]),
      [['absolute-form', false]],
      `${response.status} ${JSON.stringify(response.json)}: an advisory`,
    );
  }
  t.equal(judged('an absolute-form target', { status: 404 }).advisories[0]?.advisory.observed, 'GET with the absolute-form target was answered 404');
});
