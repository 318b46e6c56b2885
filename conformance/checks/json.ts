/**
 * json (RFC 8259): every JSON answer of the run is UTF-8 without a byte
 * order mark (§8.1) and names each member of an object once (§4); and
 * request bodies at the edges of RFC 8259 (catalogues/json-texts.ts) are
 * answered with one of their readings or refused, never with a value no
 * parser could have read.
 */
import { whereTheyDiffer } from '../show.js';
import fc from 'fast-check';
import type { OperationDescriptor } from '../../spec/operations.js';
import { stringifyJson, type JsonObject } from '../../spec/json/index.js';
import { fillPath, sampleValidBody } from '../arbitraries/requests.js';
import { JSON_TEXTS, type JsonTextEntry } from '../catalogues/json-texts.js';
import { expectErrorBody, expectStatus, propertyCheck } from '../check.js';
import type { Exchange } from '../client.js';
import { describeValue, differingField } from '../knowledge.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { ruleCheck, type AnswerRule } from './rules.js';
import { createOperation, getOperation } from './family-requests.js';
import { isObject } from '../../spec/json/is-object.js';

const isJsonType = (type: string | undefined): boolean => /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type ?? '');

const jsonAnswer = ({ response }: Exchange): boolean =>
  response.text.length > 0 && response.undecodable === undefined && isJsonType(response.headers['content-type']);

export const encoding: AnswerRule = {
  id: 'json.encoding',
  family: 'json',
  title: 'every JSON answer is UTF-8, without a byte order mark',
  requirement:
    'JSON text exchanged between systems that are not part of a closed ecosystem MUST be encoded using UTF-8, and implementations MUST NOT add a byte order mark to the beginning of a networked-transmitted JSON text (RFC 8259 §8.1).',
  section: 'RFC 8259 §8.1',
  applies: jsonAnswer,
  judge({ response }) {
    if (response.parseError === 'body is not valid UTF-8') return { problem: `a ${response.status} JSON answer that is not valid UTF-8` };
    if (response.bom) return { problem: `a ${response.status} JSON answer that starts with a byte order mark` };
    return undefined;
  },
};

export const uniqueNames: AnswerRule = {
  id: 'json.unique-names',
  family: 'json',
  title: 'no object of a JSON answer names a member twice with different values (twice with the same value: advisory)',
  requirement:
    'The names within an object SHOULD be unique; when they are not, the behavior of software that receives it is unpredictable (RFC 8259 §4): some parsers keep the first value, most the last. A Pet or Error whose member repeats with another value is not one value (seed §2, §7); the same value twice is an advisory.',
  section: 'RFC 8259 §4; seed §2, §7',
  applies: (exchange) => jsonAnswer(exchange) && exchange.response.json !== undefined,
  judge({ response }) {
    const repeated = response.duplicateKeys ?? [];
    if (repeated.length === 0) return undefined;
    const names = (list: readonly { name: string }[]) => [...new Set(list.map((r) => JSON.stringify(r.name)))].join(', ');
    const differing = repeated.filter((r) => !r.sameValue);
    if (differing.length > 0) return { problem: `a ${response.status} answer names ${names(differing)} twice in one object, with different values` };
    return {
      open: `a ${response.status} answer names ${names(repeated)} twice in one object (with the same value)`,
      decision: 'repeated-member-names',
      seed: 'RFC 8259 §4: the names within an object SHOULD be unique',
      reference: 'every member named once',
    };
  },
};

export function jsonChecks(ctx: CheckContext): Check[] {
  const create = createOperation(ctx);
  return [ruleCheck(encoding, ctx), ruleCheck(uniqueNames, ctx), ...(create ? [edgeTextsCheck(create)] : [])];
}

function edgeTextsCheck(op: OperationDescriptor): Check {
  return propertyCheck({
    id: `json.${op.operationId}.edge-texts`,
    family: 'json',
    operationId: op.operationId,
    title: `${op.operationId} answers bodies at the edges of RFC 8259 (repeated names, a BOM, escapes, 1.0 and 5E2, 1e400, deep nesting, data after the value) with one of their readings or 400`,
    requirement:
      'A JSON parser MUST accept all texts that conform to the JSON grammar and MAY accept non-JSON forms (RFC 8259 §9); what it makes of a repeated name (§4), a byte order mark (§8.1) or an unpaired surrogate (§8.2) is left to it. So a text that is one valid NewPet in every reading gets 201 with it (§4.2), a text that is a valid NewPet in no reading gets 400 (§4.2, §7), and a text the RFC lets parsers read differently gets 201 with one of its readings or 400; a created pet is then served as created. A 5xx to any of them fails, as it does everywhere (responses.no-server-error).',
    seedSection: 'RFC 8259 §2, §4, §6, §8, §9; seed §4.2',
    writes: true,
    arbitrary: () => fc.nat({ max: JSON_TEXTS.length - 1 }),
    examples: () => JSON_TEXTS.map((_, i) => i),
    runs: () => JSON_TEXTS.length,
    async predicate(c, index) {
      const entry = JSON_TEXTS[index]!;
      const sample = sampleValidBody(op, c.options.namePrefix, c.options.seed + index).value as JsonObject;
      const fields = { name: String(sample['name'] ?? `${c.options.namePrefix}pet`), categoryId: BigInt(sample['categoryId'] as bigint) };
      c.cover(op.operationId, 'JSON text', entry.label);
      const sent = await c.send('json', {
        method: op.method,
        path: op.path,
        operationId: op.operationId,
        body: entry.text(fields),
        // A text the RFC leaves open is not the operation as the spec sends it: only this check judges its answer.
        ...(entry.expect === 'created' || entry.expect === 'refused' ? {} : { offSpec: true }),
      });
      const { status } = sent.response;
      if (entry.expect === 'refused') {
        expectStatus(sent, [400, 413], `a body with ${entry.label}, which no parser reads as a valid NewPet`);
        return expectErrorBody(sent);
      }
      expectStatus(sent, entry.expect === 'created' ? [201] : [201, 400, 413], `a body with ${entry.label}`);
      if (status !== 201) return expectErrorBody(sent);
      await judgeReading(c, entry, fields, sent);
    },
  });
}

type Sent = Awaited<ReturnType<CheckContext['send']>>;

/** A 201 holds one reading of the text, and getPet serves the pet as the 201 said. */
async function judgeReading(c: CheckContext, entry: JsonTextEntry, fields: { name: string; categoryId: bigint }, sent: Sent): Promise<void> {
  const pet = sent.response.json;
  if (!isObject(pet) || typeof pet['id'] !== 'bigint') throw new Violation('the 201 body is not a Pet with an integer id', sent);
  c.knowledge.record(pet);
  const readings = entry.readings?.(fields) ?? [];
  // A categoryId that is not an integer matches no reading, whatever its digits.
  const got = { name: pet['name'], categoryId: typeof pet['categoryId'] === 'bigint' ? String(pet['categoryId']) : undefined };
  if (!readings.some((r) => r.name === got.name && r.categoryId === got.categoryId)) {
    const shown = readings.map((r) => `name ${JSON.stringify(r.name)}, categoryId ${r.categoryId}`).join('; or ');
    throw new Violation(
      `${entry.label} was created as name ${describeValue(pet['name'])}, categoryId ${describeValue(pet['categoryId'])}, which is no reading of the text (${shown})`,
      sent,
    );
  }
  const get = getOperation(c);
  if (!get || (get.sunset !== undefined && c.targetNow() >= get.sunset.getTime())) return;
  const idParam = get.parameters.find((p) => p.in === 'path')!;
  const read = await c.send('json', { method: get.method, path: fillPath(get.path, { [idParam.name]: String(pet['id']) }), operationId: get.operationId });
  expectStatus(read, [200], `getting pet ${pet['id']}, created from ${entry.label}`);
  const served = read.response.json;
  const field = isObject(served) ? differingField(pet, served) : 'the whole body';
  if (field)
    throw new Violation(
      `pet ${pet['id']}, created from ${entry.label}, is served with ${field} ${isObject(served) ? describeValue(served[field]) : stringifyJson(served ?? null)} but was created with ${describeValue(pet[field])}${isObject(served) ? whereTheyDiffer(served[field], pet[field]) : ''}`,
      read,
    );
}
