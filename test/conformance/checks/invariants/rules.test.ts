// The rules invariants holds every answer of a run to (served-pets, readable),
// applied to answers written by hand: those no fixture in the corpus gives (a
// 409 naming a pet, a list of pets beside other items, a vendor +json type,
// a zstd body, a 206), and where each rule's reach ends.
import t from 'tap';
import { readable, servedPets } from '../../../../conformance/checks/invariants.js';
import type { Exchange } from '../../../../conformance/client.js';
import type { AnswerRule } from '../../../../conformance/checks/rules.js';
import type { CheckContext } from '../../../../conformance/vocabulary.js';
import { integerRange } from '../../../../conformance/arbitraries/schema.js';
import { pageSizeParameter } from '../../../../conformance/checks/family-requests.js';
import { describeOperations, operationById } from '../../../../spec/operations.js';
import { openapi } from '../../../../spec/openapi.js';
import { ruleVerdict } from '../../../helpers/rule-verdict.js';

const ctx = { operations: describeOperations(openapi) } as unknown as CheckContext;
const pet = (id: number) => ({ id: BigInt(id), name: `pet-${id}`, categoryId: 1n });

interface Sketch {
  status?: number;
  json?: unknown;
  text?: string;
  type?: string;
  offSpec?: boolean;
  fromOrigin?: boolean;
  operationId?: string;
  extra?: Record<string, unknown>;
}

const exchange = (s: Sketch): Exchange =>
  ({
    family: 'invariants',
    request: {
      method: 'GET',
      path: '/pets/',
      headers: {},
      operationId: s.operationId ?? 'listPets',
      ...(s.offSpec === false ? {} : { offSpec: true }),
      ...(s.fromOrigin ? { fromOrigin: true } : {}),
    },
    response: {
      status: s.status ?? 200,
      headers: s.type === undefined ? { 'content-type': 'application/json' } : { 'content-type': s.type },
      text: s.text ?? (s.json === undefined ? '' : 'x'),
      json: s.json,
      durationMs: 1,
      ...s.extra,
    },
  }) as unknown as Exchange;

const verdict = (rule: AnswerRule, s: Sketch) => ruleVerdict(rule, exchange(s), ctx);

t.test('served-pets speaks of 2xx answers holding something pet-shaped that the responses family does not judge', async (t) => {
  t.equal(verdict(servedPets, { json: pet(1) }), 'ok', 'a pet served to a spelling of the route');
  t.equal(verdict(servedPets, { status: 299, json: pet(1) }), 'ok', 'any 2xx');
  for (const status of [199, 300, 304, 404, 409])
    t.equal(verdict(servedPets, { status, json: { ...pet(1), name: 5 } }), undefined, `a ${status} carrying a pet-like object is no pet served`);
  t.equal(verdict(servedPets, { offSpec: false, json: { ...pet(1), name: 5 } }), undefined, 'an operation as the spec spells it is left to responses');
  t.match(
    verdict(servedPets, { offSpec: false, fromOrigin: true, json: { ...pet(1), name: 5 } }),
    /not valid/,
    'sent from the origin, outside the base path: judged',
  );
  t.match(
    verdict(servedPets, { offSpec: false, operationId: 'debugDump', json: { ...pet(1), name: 5 } }),
    /not valid/,
    'an operation the spec does not have: judged',
  );
  t.equal(verdict(servedPets, { json: [{ status: 'ok' }, { uptime: 3 }] }), undefined, 'a list of other objects is no list of pets');
  t.equal(verdict(servedPets, { json: [] }), undefined, 'nor is an empty one');
});

t.test('served-pets: every pet valid, a single one too, and no list longer than the largest page', async (t) => {
  t.match(verdict(servedPets, { json: { id: 1n, name: 'Rex', categoryId: 'one' } }), /not valid/, 'a single invalid pet');
  t.match(verdict(servedPets, { json: [pet(1), { id: 2n, name: 'Tom' }] }), /not valid/, 'an invalid pet among valid ones');
  t.match(verdict(servedPets, { json: [{ status: 'ok' }, pet(2)] }), /not valid/, 'a list of pets beside other items is judged item by item');
  const page = (n: number) => Array.from({ length: n }, (_, i) => pet(i + 1));
  const max = Number(integerRange(pageSizeParameter(operationById('listPets'))!.schema)[1]);
  t.equal(verdict(servedPets, { json: page(max) }), 'ok', 'the largest page');
  t.match(verdict(servedPets, { json: page(max + 1) }), new RegExp(`list of ${max + 1} pets, more than the largest page \\(${max}\\)`));
});

t.test('readable: a body labelled JSON, or with a +json suffix, is JSON; other types, a 206 and a coding the suite cannot undo are not read', async (t) => {
  const notJson = (type: string, extra: Record<string, unknown> = {}, status = 200) =>
    verdict(readable, { status, type, text: 'not json', extra: { parseError: 'unexpected n', ...extra } });
  t.match(notJson('application/json'), /is not JSON/);
  t.match(notJson('application/json; charset=utf-8'), /is not JSON/);
  t.match(notJson('application/vnd.petstore+json'), /is not JSON/, 'a structured +json suffix (RFC 6839)');
  t.match(notJson('application/problem+json'), /is not JSON/);
  t.equal(notJson('text/plain; note=application/json'), 'ok', 'JSON named in a parameter is not the type');
  t.equal(notJson('x-application/json'), 'ok', 'nor a type that ends in it');
  t.equal(notJson('application/jsonl'), 'ok', 'nor a longer subtype');
  t.equal(notJson('application/json', {}, 206), 'ok', 'a 206 holds part of a JSON text');
  t.equal(notJson('application/json', { unsupportedCoding: 'zstd', coding: 'zstd' }), 'ok', 'a coding the suite cannot undo is not read');
  t.match(
    verdict(readable, { text: '', extra: { undecodable: 'gzip says the body is coded, and it is not' } }),
    /gzip says/,
    'an answer whose coding fails to decode is judged even when nothing of it is left',
  );
  t.equal(verdict(readable, { text: '' }), undefined, 'an answer without content has nothing to read');
});
