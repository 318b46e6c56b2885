/**
 * invariants: properties that hold for any request, checked on everything
 * the run sends rather than on a list of cases.
 * - `no-credential` (no-credential.ts): without a valid key nothing is
 *   served or changed;
 * - `served-pets` (a rule over every answer): every Pet served anywhere is
 *   valid, and no page holds more than the maximum, however the request was
 *   spelled; `any-request` sends the spellings of a page size and the header
 *   fields that clients send, with the key, for it to judge;
 * - `owns-fields`: the service assigns ids whatever a body says, and no pet
 *   changes when another is created;
 * - `readable` (a rule over every answer): every body decodes as its
 *   Content-Encoding says and parses as its Content-Type says.
 */
import { whereTheyDiffer } from '../show.js';
import fc from 'fast-check';
import { componentSchema, type OperationDescriptor } from '../../spec/operations.js';
import type { JsonValue } from '../../spec/json/index.js';
import { compileSchema } from '../../spec/schema/validate.js';
import { fillPath, sampleValidBody } from '../arbitraries/requests.js';
import { routeSpellings } from '../arbitraries/spellings.js';
import { integerRange } from '../arbitraries/schema.js';
import { ACCEPT_ENCODINGS } from '../catalogues/codings.js';
import { PAGE_SIZE_FORMS } from '../catalogues/page-sizes.js';
import { REQUEST_FIELDS } from '../catalogues/request-fields.js';
import { expectErrorBody, expectStatus, propertyCheck } from '../check.js';
import { basePathOf, type Exchange } from '../client.js';
import { describeValue, differingField, isPetShaped, type CreatedPet } from '../knowledge.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { ensurePopulation } from './limits.js';
import { noCredentialCheck } from './no-credential.js';
import { ruleCheck, type AnswerRule, type RuleFinding } from './rules.js';
import { createOperation, createPet, getOperation, listOperation, pageSizeParameter } from './family-requests.js';
import { isObject } from '../../spec/json/is-object.js';

const validPet = compileSchema(componentSchema('Pet'));

/** Whether the responses family judges this exchange already (an operation of the spec, as the spec spells it). */
const judgedByResponses = (exchange: Exchange, ctx: CheckContext): boolean =>
  !exchange.request.offSpec && !exchange.request.fromOrigin && ctx.operations.some((op) => op.operationId === exchange.request.operationId);

/** The largest page the spec allows (the page-size parameter's maximum). */
function maxPage(ctx: CheckContext): bigint | undefined {
  const list = listOperation(ctx);
  const size = list && pageSizeParameter(list);
  return size ? integerRange(size.schema)[1] : undefined;
}

export const servedPets: AnswerRule = {
  id: 'invariants.served-pets',
  family: 'invariants',
  title: 'every Pet served, to any request however spelled, is a valid Pet, and no list holds more pets than the largest page',
  requirement:
    'Whatever request it answers, a Pet the service serves is a Pet of §2 (name, categoryId int64, status from PetStatus, id int64), and no page holds more than the maximum of limit (§4.1, §8: 100), however the request that asked for it was formed (OWASP API4:2023).',
  section: 'seed §2, §4.1, §8; OWASP API4:2023',
  applies: (exchange, ctx) =>
    exchange.response.status >= 200 &&
    exchange.response.status < 300 &&
    !judgedByResponses(exchange, ctx) &&
    (Array.isArray(exchange.response.json)
      ? exchange.response.json.some((i) => isObject(i) && isPetShaped(i))
      : isObject(exchange.response.json) && isPetShaped(exchange.response.json)),
  judge({ request, response }, ctx): RuleFinding | undefined {
    const body = response.json as JsonValue;
    const items = Array.isArray(body) ? body : [body];
    const max = maxPage(ctx);
    if (Array.isArray(body) && max !== undefined && BigInt(body.length) > max)
      return { problem: `${request.method} ${request.path} was answered with a list of ${body.length} pets, more than the largest page (${max})` };
    for (const item of items) {
      const issue = validPet(item);
      if (issue) return { problem: `${request.method} ${request.path} served a Pet that is not valid: ${issue.message}` };
    }
    return undefined;
  },
};

export const readable: AnswerRule = {
  id: 'invariants.readable',
  family: 'invariants',
  title: 'every body decodes as its Content-Encoding says and is JSON where its Content-Type says so',
  requirement:
    'A body coded with a content coding is decoded by the coding its Content-Encoding names, in the order applied (RFC 9110 §8.4); a body declared application/json is a JSON text (RFC 8259 §2; seed §4: "All bodies are application/json"). A content with no Content-Type, or coded in a coding the request excluded, is an advisory (RFC 9110 §8.3, §12.5.3: SHOULD).',
  section: 'RFC 9110 §8.3, §8.4, §12.5.3; RFC 8259 §2; seed §4',
  applies: ({ response }) => response.text.length > 0 || response.undecodable !== undefined,
  judge(exchange, ctx): RuleFinding | undefined {
    const { request, response } = exchange;
    if (response.undecodable) return { problem: `a ${response.status} answer to ${request.method}: ${response.undecodable}` };
    if (response.unsupportedCoding) return undefined;
    const type = response.headers['content-type'];
    // A 206 holds a part of a representation, which is not a JSON text by itself.
    if (
      response.status !== 206 &&
      /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type ?? '') &&
      response.json === undefined &&
      !judgedByResponses(exchange, ctx) &&
      response.parseError !== 'body is not valid UTF-8'
    )
      return {
        problem: `a ${response.status} answer to ${request.method} ${request.path} says Content-Type: ${type} but is not JSON (${response.parseError ?? 'unreadable'})`,
      };
    const accepted = [request.headers['accept-encoding'] ?? []].flat().join(', ');
    const excluded = request.headers['accept-encoding'] !== undefined && !ACCEPT_ENCODINGS.find((e) => e.value === accepted)?.allowsCoding;
    if (response.coding !== undefined && excluded)
      return {
        open: `Accept-Encoding: ${accepted} was answered with Content-Encoding: ${response.coding}`,
        decision: 'coding-not-accepted',
        seed: 'RFC 9110 §12.5.3: a server SHOULD send a representation in a coding the request accepts (identity when it accepts none)',
        reference: 'the reference server answers without a content coding',
      };
    if (type === undefined)
      return {
        open: `a ${response.status} answer with content but no Content-Type`,
        decision: 'content-type-absent',
        seed: 'RFC 9110 §8.3: a sender that generates a message containing content SHOULD generate a Content-Type',
        reference: 'every answer with content says Content-Type: application/json',
      };
    return undefined;
  },
};

export function invariantsChecks(ctx: CheckContext): Check[] {
  const list = listOperation(ctx);
  const create = createOperation(ctx);
  const noCredential = noCredentialCheck(ctx);
  return [
    ruleCheck(servedPets, ctx),
    ruleCheck(readable, ctx),
    ...(noCredential ? [noCredential] : []),
    ...(create ? [ownsFieldsCheck(create)] : []),
    ...(list ? [anyRequestCheck(list)] : []),
  ];
}

/** Members a client may send that name what the service owns: the id, by several spellings. */
const OWNED_FIELDS: readonly { label: string; member: (witness: CreatedPet, random: bigint) => [string, string] }[] = [
  { label: 'id of an existing pet', member: (w) => ['id', w.id] },
  { label: 'an id no pet has', member: (_w, random) => ['id', String(random)] },
  { label: 'id of an existing pet, as a string', member: (w) => ['id', JSON.stringify(w.id)] },
  { label: 'ID of an existing pet', member: (w) => ['ID', w.id] },
  { label: '_id of an existing pet', member: (w) => ['_id', w.id] },
  { label: 'petId of an existing pet', member: (w) => ['petId', w.id] },
];

function ownsFieldsCheck(create: OperationDescriptor): Check {
  let witness: CreatedPet | undefined;
  return propertyCheck({
    id: `invariants.${create.operationId}.owns-fields`,
    family: 'invariants',
    operationId: create.operationId,
    title: `${create.operationId} assigns the id itself whatever id the body names, and no existing pet changes when another is created`,
    requirement:
      'id is the "Unique identifier assigned by the service on creation" (§2): a body that names an id (an existing pet\'s, or one no pet has) gets a pet with an id of the service\'s choosing (201) or is refused (400), and the pet whose id it named is unchanged (OWASP API3:2023, mass assignment).',
    seedSection: 'seed §2, §4.2; OWASP API3:2023',
    writes: true,
    arbitrary: () => fc.tuple(fc.nat({ max: OWNED_FIELDS.length - 1 }), fc.bigInt({ min: 2n ** 40n, max: 2n ** 62n })),
    examples: () => OWNED_FIELDS.map((_, i) => [i, 2n ** 61n + BigInt(i) * 7919n] as [number, bigint]),
    runs: () => OWNED_FIELDS.length,
    async predicate(c, [index, random]) {
      const owned = OWNED_FIELDS[index]!;
      if (!witness) {
        const { pet } = await createPet(c, 'invariants', sampleValidBody(create, `${c.options.namePrefix}owner-`, c.options.seed + 303), 'setup');
        witness = c.knowledge.get(String(pet['id']))!;
      }
      const sample = sampleValidBody(create, c.options.namePrefix, c.options.seed + 400 + index);
      const [member, value] = owned.member(witness, random);
      const text = `${sample.text.slice(0, -1)},${JSON.stringify(member)}:${value}}`;
      c.cover(create.operationId, 'server-owned field', owned.label);
      const sent = await c.send('invariants', { method: create.method, path: create.path, body: text, operationId: create.operationId });
      expectStatus(sent, [201, 400], `a valid NewPet naming ${owned.label} (${member}: ${value})`);
      if (sent.response.status === 400) {
        expectErrorBody(sent);
      } else {
        const pet = sent.response.json;
        if (!isObject(pet) || typeof pet['id'] !== 'bigint') throw new Violation('the 201 body is not a Pet with an integer id', sent);
        c.knowledge.record(pet);
        const given = String(pet['id']);
        if (given === witness.id)
          throw new Violation(`a NewPet naming ${owned.label} was created with that pet's id ${given}: two pets now share it, or one was replaced`, sent);
        if (owned.label === 'an id no pet has' && given === value)
          throw new Violation(`a NewPet naming id ${value} was created with exactly that id: the client chose it, not the service`, sent);
      }
      await expectUnchanged(c, witness);
    },
  });
}

async function expectUnchanged(c: CheckContext, witness: CreatedPet): Promise<void> {
  const get = getOperation(c);
  if (!get || (get.sunset !== undefined && c.targetNow() >= get.sunset.getTime())) return;
  const idParam = get.parameters.find((p) => p.in === 'path')!;
  const sent = await c.send('invariants', { method: get.method, path: fillPath(get.path, { [idParam.name]: witness.id }), operationId: get.operationId });
  expectStatus(sent, [200], `reading pet ${witness.id} after creating another that named its id`);
  const got = sent.response.json;
  const field = isObject(got) ? differingField(witness.pet, got) : 'the whole body';
  if (field)
    throw new Violation(
      `pet ${witness.id} changed when another pet was created naming its id: ${field} is now ${isObject(got) ? describeValue(got[field]) : '(not a Pet)'}, was ${describeValue(witness.pet[field])}${isObject(got) ? whereTheyDiffer(got[field], witness.pet[field]) : ''}`,
      sent,
    );
}

/**
 * Requests with the key that a client may send to the list: every spelling
 * of a page size, and the header fields clients and intermediaries add. Their
 * answers are judged by the rules (served-pets, readable, json.*, http.*),
 * and a list here never exceeds the largest page.
 */
function anyRequestCheck(list: OperationDescriptor): Check {
  const size = pageSizeParameter(list);
  // The route's other spellings, with the key: what a spelling answers is open, but not a page beyond the maximum.
  const spellings = routeSpellings(list.method, list.path, list.path);
  const safeFields = REQUEST_FIELDS.map((f, i) => ({ f, i })).filter(({ f }) => f.safe && !f.keyElsewhere);
  return propertyCheck({
    id: `invariants.${list.operationId}.any-request`,
    family: 'invariants',
    operationId: list.operationId,
    title: `${list.operationId} with the key never answers more than the largest page, whatever the page size's spelling (pollution, wrap-around, other numerals) or the fields sent (Accept-Encoding, Range, preconditions, forwarding)`,
    requirement:
      'No page holds more than the maximum of limit (§4.1, §8), however the request that asked for it was formed (OWASP API4:2023); every answer to it reads as its headers say (RFC 9110 §8.4).',
    seedSection: 'seed §4.1, §8; RFC 9110 §8.4; OWASP API4:2023',
    writes: false,
    arbitrary: () =>
      fc.record({
        form: fc.nat({ max: PAGE_SIZE_FORMS.length - 1 }),
        field: fc.option(fc.constantFrom(...safeFields.map((s) => s.i)), { nil: undefined }),
        encoding: fc.nat({ max: ACCEPT_ENCODINGS.length - 1 }),
        spelling: fc.option(fc.nat({ max: spellings.length - 1 }), { nil: undefined }),
      }),
    examples: () => [
      ...PAGE_SIZE_FORMS.map((_, form) => ({ form, field: undefined, encoding: 0, spelling: undefined })),
      ...ACCEPT_ENCODINGS.map((_, encoding) => ({ form: 0, field: undefined, encoding, spelling: undefined })),
      ...safeFields.map(({ i }) => ({ form: 0, field: i, encoding: 0, spelling: undefined })),
      ...spellings.map((_, spelling) => ({ form: 0, field: undefined, encoding: 0, spelling })),
    ],
    runs: (c) => Math.max(PAGE_SIZE_FORMS.length + ACCEPT_ENCODINGS.length + safeFields.length + spellings.length, Math.round(c.options.runs / 2)),
    async predicate(c, { form, field, encoding, spelling }) {
      const max = size ? integerRange(size.schema)[1] : 100n;
      if (size) await ensurePopulation(c, 'invariants', list, max);
      const spelled = spelling === undefined ? undefined : spellings[spelling]!;
      const pathPart = spelled?.path ?? list.path;
      const queryPart = size ? PAGE_SIZE_FORMS[form]!.query(size.name, max) : '';
      const target = pathPart.endsWith('?') || queryPart === '' ? pathPart + queryPart : `${pathPart}?${queryPart}`;
      const headers: Record<string, string> = {};
      const accept = ACCEPT_ENCODINGS[encoding]!;
      if (accept.value !== null) headers['accept-encoding'] = accept.value;
      if (field !== undefined) {
        const entry = REQUEST_FIELDS[field]!;
        headers[entry.name] = entry.value({ apiKey: c.options.apiKey, basePath: basePathOf(c.options.baseUrl) });
      }
      c.cover(list.operationId, 'page size spelling', PAGE_SIZE_FORMS[form]!.label);
      c.cover(list.operationId, 'Accept-Encoding', accept.value ?? '(none)');
      if (spelled) c.cover(list.operationId, 'route spelling, with the key', spelled.label);
      const sent = await c.send('invariants', {
        method: spelled?.method ?? list.method,
        path: target,
        operationId: list.operationId,
        headers,
        // A precondition or a range may get 304, 206 or 416, a spelling anything: open answers the responses family would judge.
        ...(field !== undefined || spelled ? { offSpec: true } : {}),
      });
      // Whatever the status: a spelling's answer is open, and a 203 or 206 that holds the whole table breaks the limit as a 200 does.
      const body = sent.response.json;
      if (Array.isArray(body) && BigInt(body.length) > max)
        throw new Violation(
          `${spelled?.method ?? list.method} ${target} was answered ${sent.response.status} with ${body.length} items, more than the largest page (${max})`,
          sent,
        );
    },
  });
}
