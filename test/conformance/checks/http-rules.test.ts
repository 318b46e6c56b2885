// The rules the http family holds every answer of a run to
// (conformance/checks/http-rules.ts), each applied here to answers written by
// hand: some that no fixture in the corpus gives (a 304 to an invariants
// request, a Location on a 200, a 500 without Date), and where each rule's
// reach ends.
import t from 'tap';
import { HTTP_RULES } from '../../../conformance/checks/http-rules.js';
import type { Exchange } from '../../../conformance/client.js';
import type { CheckContext } from '../../../conformance/vocabulary.js';
import { ruleVerdict } from '../../helpers/rule-verdict.js';

const KEY = 'Bearer secret-key-123';
const ctx = { client: { authorization: KEY, baseUrl: 'http://127.0.0.1:1/v1' }, operations: [] } as unknown as CheckContext;
const rule = (id: string) => HTTP_RULES.find((r) => r.id === id)!;

interface Sketch {
  method?: string;
  headers?: Record<string, string>;
  raw?: string;
  status: number;
  answer?: Record<string, string>;
  text?: string;
  json?: unknown;
  coding?: string;
}

const exchange = (s: Sketch): Exchange =>
  ({
    family: 'invariants',
    request: {
      method: s.method ?? 'GET',
      path: '/pets',
      headers: { authorization: KEY, ...s.headers },
      operationId: 'listPets',
      ...(s.raw ? { raw: s.raw } : {}),
    },
    response: { status: s.status, headers: s.answer ?? {}, text: s.text ?? '', json: s.json, durationMs: 1, ...(s.coding ? { coding: s.coding } : {}) },
  }) as unknown as Exchange;

const verdict = (id: string, s: Sketch) => ruleVerdict(rule(id), exchange(s), ctx);

t.test('every rule is of the http family, under its own id', async (t) => {
  t.ok(HTTP_RULES.length >= 8);
  for (const r of HTTP_RULES) t.ok(r.family === 'http' && r.id.startsWith('http.'), r.id);
});

t.test('http.not-modified: a 304 answers only a GET or HEAD with a precondition and the valid key', async (t) => {
  t.equal(verdict('http.not-modified', { status: 200 }), undefined, 'it speaks of 304s only');
  t.equal(verdict('http.not-modified', { status: 304, headers: { 'if-none-match': '*' } }), 'ok', 'GET with If-None-Match');
  t.equal(verdict('http.not-modified', { status: 304, method: 'HEAD', headers: { 'if-none-match': '"a"' } }), 'ok', 'HEAD with If-None-Match');
  t.equal(verdict('http.not-modified', { status: 304, headers: { 'if-modified-since': 'Sun, 01 Jan 2090 00:00:00 GMT' } }), 'ok', 'GET with If-Modified-Since');
  t.match(verdict('http.not-modified', { status: 304, method: 'POST', headers: { 'if-none-match': '*' } }), /304 to POST/, 'never to POST');
  t.match(verdict('http.not-modified', { status: 304, method: 'DELETE', headers: { 'if-none-match': '*' } }), /304 to DELETE/);
  t.match(verdict('http.not-modified', { status: 304 }), /neither If-None-Match nor If-Modified-Since/, 'never without a precondition');
  t.match(
    verdict('http.not-modified', { status: 304, headers: { 'if-none-match': '*', authorization: 'Bearer wrong' } }),
    /without the valid key/,
    'never to a wrong key',
  );
  t.match(
    verdict('http.not-modified', { status: 304, headers: { 'if-modified-since': 'Sun, 01 Jan 2090 00:00:00 GMT', authorization: '' } }),
    /without the valid key/,
    'never to an empty credential',
  );
});

t.test('http.date: every 2xx, 3xx and 4xx carries Date, except the parser’s own 400 to a hand-written message; a 5xx may leave it out', async (t) => {
  t.match(verdict('http.date', { status: 200 }), /without a Date field/);
  t.match(verdict('http.date', { status: 400 }), /without a Date field/, 'an ordinary request’s 400');
  t.match(verdict('http.date', { status: 201, raw: 'POST /v1/pets HTTP/1.1\r\n' }), /without a Date field/, 'a hand-written message’s 201');
  t.equal(verdict('http.date', { status: 400, raw: 'POST /v1/pets HTTP/1.1\r\n' }), undefined, 'the parser’s 400 to a hand-written message');
  t.equal(verdict('http.date', { status: 500 }), undefined, 'a 500 (RFC 9110 §6.6.1: MAY)');
  t.match(verdict('http.date', { status: 499 }), /without a Date field/, 'the last 4xx too');
  t.equal(verdict('http.date', { status: 200, answer: { date: 'Sun, 06 Nov 1994 08:49:37 GMT' } }), 'ok');
});

t.test('http.location: any Location is a URI reference; only a 201 with a pet is held to name that pet', async (t) => {
  const pet = { id: 7n, name: 'Rex', categoryId: 1n };
  t.equal(verdict('http.location', { status: 201, json: pet, answer: { location: '/v1/pets/7' } }), 'ok');
  t.match(verdict('http.location', { status: 201, json: pet, answer: { location: '/v1/pets/8' } }), /names pet 8/);
  t.match(verdict('http.location', { status: 201, json: pet, answer: { location: 'http://[' } }), /not a URI reference/);
  t.match(verdict('http.location', { status: 200, json: pet, answer: { location: 'http://[' } }), /not a URI reference/, 'on any status');
  t.equal(verdict('http.location', { status: 200, json: pet, answer: { location: '/v1/pets/8' } }), 'ok', 'Location means nothing on a 200');
  t.equal(verdict('http.location', { status: 200, json: [pet], answer: { location: '/v1/pets/8' } }), 'ok', 'nor beside a list');
  t.equal(verdict('http.location', { status: 201, json: [pet], answer: { location: '/v1/pets/8' } }), 'ok', 'a 201 without a pet names none');
  t.equal(verdict('http.location', { status: 201, json: { ...pet, id: '7' }, answer: { location: '/v1/pets/8' } }), 'ok', 'nor one whose id is no integer');
  t.equal(verdict('http.location', { status: 201, json: pet, answer: { location: '/elsewhere/8' } }), 'ok', 'a Location outside the pets names no pet');
});

t.test('http.partial-content: a 206 says its range; a coded one is not counted in decoded bytes', async (t) => {
  t.equal(verdict('http.partial-content', { status: 206, text: '[{"id":1}', answer: { 'content-range': 'bytes 0-8/20' } }), 'ok');
  t.match(verdict('http.partial-content', { status: 206, text: '[{"id":1}', answer: { 'content-range': 'bytes 0-3/20' } }), /names 4 bytes/);
  t.equal(
    verdict('http.partial-content', { status: 206, text: '[{"id":1}]', coding: 'gzip', answer: { 'content-range': 'bytes 0-3/30' } }),
    'ok',
    'the range of a gzip representation counts coded bytes, which the decoded text does not show',
  );
});
