// The json family's rules on answers written by hand: which answers count as
// JSON (application/json, or a +json suffix; not a type that merely contains
// or extends it), and what a repeated member name or a byte order mark in one
// comes to. No correct server of the corpus labels a 5xx oddly, so these
// reaches are stated here.
import t from 'tap';
import { encoding, uniqueNames } from '../../../conformance/checks/json.js';
import type { AnswerRule } from '../../../conformance/checks/rules.js';
import type { Exchange } from '../../../conformance/client.js';
import type { CheckContext } from '../../../conformance/vocabulary.js';
import { ruleVerdict } from '../../helpers/rule-verdict.js';

const ctx = {} as CheckContext;

function verdict(rule: AnswerRule, type: string, response: Record<string, unknown>): string | undefined {
  const e = {
    family: 'json',
    request: { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets' },
    response: { status: 500, headers: { 'content-type': type }, text: '{"a":1,"a":2}', json: { a: 2 }, durationMs: 1, ...response },
  } as unknown as Exchange;
  return ruleVerdict(rule, e, ctx);
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/problem+json', 'application/vnd.pet.v1+json'];
const OTHER_TYPES = ['text/plain', 'x/application/json', 'text/plain; note=application/json', 'application/jsonx', 'application/json-seq', 'application/xjson'];

t.test('json.encoding: a byte order mark or bytes that are not UTF-8 fail an answer labelled JSON, and only such an answer', async (t) => {
  for (const type of JSON_TYPES) {
    t.match(verdict(encoding, type, { bom: true }), /byte order mark/, `${type} with a mark`);
    t.match(verdict(encoding, type, { parseError: 'body is not valid UTF-8', json: undefined }), /not valid UTF-8/, `${type} not UTF-8`);
  }
  for (const type of OTHER_TYPES) t.equal(verdict(encoding, type, { bom: true }), undefined, `${type}: not a JSON answer`);
  t.equal(verdict(encoding, 'application/json', { text: '' }), undefined, 'an answer without content');
});

t.test('json.unique-names: a member repeated with another value fails a JSON answer; the same value is an advisory; other types are not read', async (t) => {
  const differing = { duplicateKeys: [{ name: 'a', sameValue: false }] };
  for (const type of JSON_TYPES) t.match(verdict(uniqueNames, type, differing), /names "a" twice in one object, with different values/, type);
  t.match(verdict(uniqueNames, 'application/json', { duplicateKeys: [{ name: 'a', sameValue: true }] }), /^open: /);
  for (const type of OTHER_TYPES) t.equal(verdict(uniqueNames, type, differing), undefined, `${type}: not a JSON answer`);
  t.equal(
    verdict(uniqueNames, 'application/json', { ...differing, json: undefined, parseError: 'unexpected end' }),
    undefined,
    'a body that is no JSON text is left to other rules',
  );
});
