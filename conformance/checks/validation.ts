/**
 * validation (seed §4.2, §7): a body that lacks required fields or holds
 * invalid values gets 400 with an Error body; a valid NewPet gets 201 with
 * the created Pet, its fields as sent and a service-assigned id.
 */
import { whereTheyDiffer } from '../show.js';
import { stringifyJson, type JsonObject } from '../../spec/json/index.js';
import {
  invalidBody,
  invalidBodyExamples,
  requiredOnly,
  sampleValidBody,
  unboundedMarkedProperty,
  validBody,
  withLongMarked,
} from '../arbitraries/requests.js';
import { exampleCheck, expectErrorBody, expectStatus, propertyCheck } from '../check.js';
import { describeValue } from '../knowledge.js';
import type { OperationDescriptor } from '../../spec/operations.js';
import { Violation, type Advisory, type Check, type CheckContext } from '../vocabulary.js';
import { createOperation, createPet } from './family-requests.js';
import { isObject } from '../../spec/json/is-object.js';

const SECTION = '§4.2 Add an animal';

export function validationChecks(ctx: CheckContext): Check[] {
  const op = createOperation(ctx);
  if (!op) return [];
  const longName = unboundedMarkedProperty(op);
  return [validBodyCheck(op), invalidBodyCheck(op), openBodyCheck(op), ...(longName ? [longNameCheck(op, longName)] : [])];
}

/** Every valid NewPet is created (201) and the created Pet echoes what was sent. */
function validBodyCheck(op: OperationDescriptor): Check {
  return propertyCheck({
    ...validBodyMeta(op),
    writes: true,
    arbitrary: (c) => validBody(op, c.options.namePrefix),
    // Sent first, so a body without its optional properties (a NewPet without status) is never left to chance.
    examples: (c) => [requiredOnly(op, sampleValidBody(op, c.options.namePrefix, c.options.seed))],
    async predicate(c, body) {
      c.cover(op.operationId, 'body', body.label);
      const { pet, sent } = await createPet(c, 'validation', body);
      for (const verdict of echoVerdicts(op, body.value as Record<string, unknown>, pet)) {
        if ('problem' in verdict) throw new Violation(verdict.problem, sent);
        c.unspecified({ ...verdict.advisory, ...sent }, false);
      }
    },
  });
}

/** What the check that every valid NewPet is created says. */
export function validBodyMeta(op: OperationDescriptor) {
  return {
    id: `validation.${op.operationId}.valid-body`,
    family: 'validation',
    operationId: op.operationId,
    title: `${op.operationId} answers 201 with the created Pet for every valid NewPet`,
    requirement: 'Success: 201, body is the created Pet, including the service-assigned id (§4.2).',
    seedSection: SECTION,
  } as const;
}

/**
 * How the Pet a 201 created echoes the valid NewPet `value` sent, in the order the check judges it: a field sent and
 * given back otherwise is a problem; a field not sent and given back anyway, an advisory (the seed states no default).
 */
export function echoVerdicts(
  op: OperationDescriptor,
  value: Record<string, unknown>,
  pet: JsonObject,
): (
  | { readonly problem: string }
  | { readonly advisory: Pick<Advisory, 'decision' | 'family' | 'operationId' | 'seed' | 'observed' | 'referenceBehaviour'> }
)[] {
  const out: ({ problem: string } | { advisory: Pick<Advisory, 'decision' | 'family' | 'operationId' | 'seed' | 'observed' | 'referenceBehaviour'> })[] = [];
  for (const field of Object.keys((op.requestBody!.schema['properties'] ?? {}) as object)) {
    const given = value[field];
    if (given === undefined) {
      if (pet[field] !== undefined) {
        out.push({
          advisory: {
            decision: `default-${field}`,
            family: 'validation',
            operationId: op.operationId,
            seed: `§2 NewPet: "${field}" ... "No default is stated"`,
            observed: `a pet created without ${field} came back with ${field} ${describeValue(pet[field])}`,
            referenceBehaviour: `a pet created without ${field} has no ${field}`,
          },
        });
      }
      continue;
    }
    if (describeValue(pet[field]) !== describeValue(given as never)) {
      out.push({
        problem: `the created Pet's ${field} is ${describeValue(pet[field])}, but ${describeValue(given as never)} was sent${whereTheyDiffer(pet[field], given)}`,
      });
      return out;
    }
  }
  return out;
}

/** Every class of invalid body is refused with 400 and an Error body. */
function invalidBodyCheck(op: OperationDescriptor): Check {
  return propertyCheck({
    id: `validation.${op.operationId}.invalid-body`,
    family: 'validation',
    operationId: op.operationId,
    title: `${op.operationId} answers 400 with an Error body to every invalid body`,
    requirement: '400 with an Error body: the body lacks required fields or holds invalid values (§4.2, §7).',
    seedSection: SECTION,
    writes: true,
    arbitrary: (c) => invalidBody(op, c.options.namePrefix),
    examples: (c) => invalidBodyExamples(op, c.options.namePrefix, c.options.seed),
    async predicate(c, body) {
      c.cover(op.operationId, 'body', body.label);
      const sent = await c.send('validation', { method: op.method, path: op.path, body: body.text, operationId: op.operationId });
      if (sent.response.status === 201 && isObject(sent.response.json)) c.knowledge.record(sent.response.json);
      expectStatus(sent, [400], `an invalid body (${body.label})`);
      expectErrorBody(sent);
    },
  });
}

/** What the seed leaves open about bodies, each an advisory. */
function openBodyCheck(op: OperationDescriptor): Check {
  return exampleCheck({
    id: `validation.${op.operationId}.unspecified`,
    family: 'validation',
    operationId: op.operationId,
    title: `${op.operationId}: what the seed leaves open about bodies (advisory)`,
    requirement: 'No 5xx for anything a client sends (§7); the rest is advisory.',
    seedSection: SECTION,
    writes: true,
    async scenario(c) {
      const sample = sampleValidBody(op, c.options.namePrefix, c.options.seed);
      const advisory = { family: 'validation', operationId: op.operationId } as const;

      // A body in another media type: 415 for the reference server; 400 is as reasonable.
      const wrongType = await c.send('validation', {
        method: op.method,
        path: op.path,
        body: sample.text,
        headers: { 'content-type': 'text/plain' },
        operationId: op.operationId,
      });
      if (wrongType.response.status === 201 && isObject(wrongType.response.json)) c.knowledge.record(wrongType.response.json);
      expectStatus(wrongType, [201, 400, 415], 'a valid body sent as text/plain');
      if (wrongType.response.status !== 201) expectErrorBody(wrongType);
      c.unspecified(
        {
          ...advisory,
          decision: 'media-type',
          seed: '§4 "All bodies are `application/json`" (the answer to another media type is not shown)',
          observed: `a body sent as text/plain was answered ${wrongType.response.status}`,
          referenceBehaviour: '415 unsupported_media_type',
          ...wrongType,
        },
        wrongType.response.status === 415,
      );

      // Unknown properties: the reference server ignores them (neither stored nor echoed).
      const text = stringifyJson({ ...(sample.value as JsonObject), conformExtraProperty: 'x' });
      const extra = await c.send('validation', { method: op.method, path: op.path, body: text, operationId: op.operationId });
      expectStatus(extra, [201, 400], 'a valid body with one unknown property');
      const created = extra.response.json;
      if (extra.response.status === 201 && isObject(created)) c.knowledge.record(created);
      else expectErrorBody(extra);
      const ignored = extra.response.status === 201 && isObject(created) && created['conformExtraProperty'] === undefined;
      c.unspecified(
        {
          ...advisory,
          decision: 'unknown-properties',
          seed: '§2 NewPet lists its fields; other properties are not discussed',
          observed: ignored ? 'ignored' : extra.response.status === 201 ? 'the unknown property was echoed' : `refused with ${extra.response.status}`,
          referenceBehaviour: 'unknown properties are ignored: 201, not stored, not echoed',
          ...extra,
        },
        ignored,
      );
    },
  });
}

/**
 * A long name (§8: its maximum length is not shown). The reference server
 * takes any length within its body limit; a target may refuse it, with an
 * Error body. What it must not do is take it and keep something else (a
 * silently truncated name). Its own check, so that under --strict another
 * decision's departure does not hide this one.
 */
function longNameCheck(op: OperationDescriptor, marked: string): Check {
  return exampleCheck({
    id: `validation.${op.operationId}.long-${marked}`,
    family: 'validation',
    operationId: op.operationId,
    title: `${op.operationId} keeps a ${LONG_NAME_CHARACTERS}-character ${marked} whole, or refuses it (its maximum length is not shown: advisory)`,
    requirement: `A created Pet holds the fields as sent (§4.2); the maximum length of ${marked} is not shown (§8), so a refusal with an Error body is advisory.`,
    seedSection: SECTION,
    writes: true,
    async scenario(c) {
      const sample = sampleValidBody(op, c.options.namePrefix, c.options.seed);
      const long = withLongMarked(sample.value as JsonObject, marked, c.options.namePrefix, LONG_NAME_CHARACTERS);
      const sent = await c.send('validation', { method: op.method, path: op.path, body: long.text, operationId: op.operationId });
      const { status, json: pet } = sent.response;
      expectStatus(sent, [201, 400, 413], `a valid body with a ${long.label}`);
      if (status !== 201) expectErrorBody(sent);
      else if (isObject(pet)) {
        c.knowledge.record(pet);
        const given = long.value[marked] as string;
        const back = pet[marked];
        if (back !== given) {
          // The value itself would fill the report: say what became of it.
          const what = typeof back === 'string' ? `${[...back].length} characters${given.startsWith(back) ? ' (cut off)' : ''}` : describeValue(back);
          throw new Violation(
            `a ${LONG_NAME_CHARACTERS}-character ${marked} was accepted (201) but came back as ${what}: refuse it with 400 or keep it whole`,
            sent,
          );
        }
      }
      c.unspecified(
        {
          family: 'validation',
          operationId: op.operationId,
          decision: `${marked}-length`,
          seed: `§8 "the maximum length of ${marked}: not shown"`,
          observed: status === 201 ? 'accepted' : `a ${LONG_NAME_CHARACTERS}-character ${marked} was refused with ${status}`,
          referenceBehaviour: `no maximum length of its own: any ${marked} within its body limit is taken (201)`,
          ...sent,
        },
        status === 201,
      );
    },
  });
}

/** Longer than any column size a store is likely to pick (255, 1000, 4000), small beside any body limit. */
const LONG_NAME_CHARACTERS = 10_000;
