/**
 * media-types (seed §4 "All bodies are application/json"; RFC 9110 §8.3.1):
 * a media type's type and subtype are case-insensitive and it may carry
 * parameters, so a NewPet sent as `application/json; charset=utf-8` or
 * `Application/JSON` is a JSON body and must be created. A body sent as
 * another media type must not pass for JSON unnoticed: refusing it with an
 * Error body conforms, accepting it is an advisory. Every `Accept` that
 * allows JSON (or no `Accept` at all) gets JSON.
 */
import fc from 'fast-check';
import type { OperationDescriptor } from '../../spec/operations.js';
import { sampleValidBody, validBody } from '../arbitraries/requests.js';
import { expectErrorBody, expectStatus, NothingToExercise, propertyCheck } from '../check.js';
import { echoProblem } from '../knowledge.js';
import type { JsonObject } from '../../spec/json/index.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { createOperation, readablePath } from './family-requests.js';
import { isObject } from '../../spec/json/is-object.js';

const SECTION = '§4 Endpoints ("All bodies are application/json")';

/**
 * Spellings of the JSON media type that RFC 9110 §8.3.1 and §5.6.6 make the same as `application/json` (UTF-8 is JSON's only encoding: RFC 8259 §8.1).
 * Typed, not `as const`: Stryker leaves the literals of an `as const` array unmutated.
 */
export const JSON_SPELLINGS: readonly string[] = [
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'Application/JSON',
  'APPLICATION/JSON; CHARSET=UTF-8',
  'application/json; charset="utf-8"',
];

/** Media types that are not JSON, sent with a JSON text: what a hurried implementation parses as JSON anyway. */
export const OTHER_MEDIA_TYPES: readonly (string | null)[] = ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/jsonx', null];

/** `Accept` fields that allow `application/json` (null: none sent). */
export const JSON_ACCEPTS: readonly (string | null)[] = [
  'application/json',
  '*/*',
  'application/*',
  null,
  'application/json; q=0.5',
  // What axios sends by default, and what a browser's fetch sends.
  'application/json, text/plain, */*',
  'text/html, application/json;q=0.9',
];

export function mediaTypeChecks(ctx: CheckContext): Check[] {
  const create = createOperation(ctx);
  const reads = ctx.operations.filter((op) => op.method === 'GET' && op.responses.some((r) => r.status === 200));
  return [...(create ? [jsonSpellingsCheck(create), otherTypesCheck(create)] : []), ...reads.map(acceptCheck)];
}

type Sent = Awaited<ReturnType<CheckContext['send']>>;

/** A body sent with exactly this Content-Type (null: none); the runner's send would set application/json. */
async function sendBody(c: CheckContext, op: OperationDescriptor, contentType: string | null, text: string): Promise<Sent> {
  c.cover(op.operationId, 'Content-Type', contentType ?? '(none)');
  const headers: Record<string, string> = { accept: 'application/json', authorization: c.client.authorization };
  if (contentType !== null) headers['content-type'] = contentType;
  const request = { method: op.method, path: op.path, operationId: op.operationId, body: text, headers };
  return { request, response: await c.client.send('media-types', request) };
}

function jsonSpellingsCheck(op: OperationDescriptor): Check {
  return propertyCheck({
    id: `media-types.${op.operationId}.json-spellings`,
    family: 'media-types',
    operationId: op.operationId,
    title: `${op.operationId} creates a valid NewPet sent as application/json with a charset parameter or in another letter case`,
    requirement:
      "All bodies are application/json (§4); a media type's type and subtype are case-insensitive and parameters are allowed (RFC 9110 §8.3.1), so `application/json; charset=utf-8` and `Application/JSON` are application/json and a valid NewPet sent so must be created (201).",
    seedSection: SECTION,
    writes: true,
    arbitrary: (c) => fc.tuple(fc.constantFrom(...JSON_SPELLINGS), validBody(op, c.options.namePrefix)),
    examples: (c) =>
      JSON_SPELLINGS.map((type) => [type, sampleValidBody(op, c.options.namePrefix, c.options.seed)] as [string, ReturnType<typeof sampleValidBody>]),
    runs: (c) => Math.max(JSON_SPELLINGS.length, Math.round(c.options.runs / 10)),
    async predicate(c, [type, body]) {
      const sent = await sendBody(c, op, type, body.text);
      expectStatus(sent, [201], `a valid NewPet sent as Content-Type: ${type}`);
      const pet = sent.response.json;
      if (!isObject(pet)) throw new Violation('the 201 body is not a Pet', sent);
      c.knowledge.record(pet);
      const problem = echoProblem(body.value as JsonObject, pet);
      if (problem) throw new Violation(problem, sent);
    },
  });
}

function otherTypesCheck(op: OperationDescriptor): Check {
  return propertyCheck({
    id: `media-types.${op.operationId}.other-types`,
    family: 'media-types',
    operationId: op.operationId,
    title: `${op.operationId} refuses a body sent as another media type with an Error body (accepting it is an advisory)`,
    requirement:
      'All bodies are application/json (§4) and all error responses carry the Error body (§7): a body of another media type is refused with a 4xx Error (400 or 415) or, at most, taken as JSON (an advisory); never a 5xx or a bare error.',
    seedSection: SECTION,
    writes: true,
    arbitrary: (c) => fc.constantFrom(...OTHER_MEDIA_TYPES).map((type) => [type, sampleValidBody(op, c.options.namePrefix, c.options.seed)] as const),
    examples: (c) => OTHER_MEDIA_TYPES.map((type) => [type, sampleValidBody(op, c.options.namePrefix, c.options.seed)] as const),
    runs: () => 1,
    async predicate(c, [type, body]) {
      const sent = await sendBody(c, op, type, body.text);
      const shown = type === null ? 'no Content-Type' : `Content-Type: ${type}`;
      const { status } = sent.response;
      if (status === 201) {
        if (isObject(sent.response.json)) c.knowledge.record(sent.response.json);
        c.unspecified(
          {
            decision: 'non-json-media-type',
            family: 'media-types',
            operationId: op.operationId,
            seed: '§4 "All bodies are application/json" (what a body of another media type gets is not shown)',
            observed: `a JSON text sent with ${shown} was created (201)`,
            referenceBehaviour: 'a body that is not sent as application/json is refused with 415 unsupported_media_type',
            ...sent,
          },
          false,
        );
        return;
      }
      expectStatus(sent, [400, 415], `a JSON text sent with ${shown}`);
      expectErrorBody(sent);
    },
  });
}

function acceptCheck(op: OperationDescriptor): Check {
  let path: string | undefined;
  return propertyCheck({
    id: `media-types.${op.operationId}.accept`,
    family: 'media-types',
    operationId: op.operationId,
    title: `${op.operationId} answers JSON to every Accept that allows it (application/json, */*, application/*, none)`,
    requirement:
      'Responses are application/json (§4); an Accept that allows application/json, or no Accept at all (RFC 9110 §12.5.1: any media type is then acceptable), must be answered as to any client: 200 with a JSON body.',
    seedSection: SECTION,
    writes: false,
    arbitrary: () => fc.constantFrom(...JSON_ACCEPTS),
    examples: () => JSON_ACCEPTS.map((accept) => accept),
    runs: () => 1,
    async predicate(c, accept) {
      path ??= await readablePath(c, 'media-types', op);
      if (path === undefined) throw new NothingToExercise('no pet exists to read (the target lists none, and --read-only creates none)');
      c.cover(op.operationId, 'Accept', accept ?? '(none)');
      const headers: Record<string, string> = { authorization: c.client.authorization, ...(accept === null ? {} : { accept }) };
      const request = { method: op.method, path, operationId: op.operationId, headers };
      const response = await c.client.send('media-types', request);
      const sent = { request, response };
      const shown = accept === null ? 'no Accept' : `Accept: ${accept}`;
      const gone = op.sunset !== undefined && c.targetNow() >= op.sunset.getTime();
      if (gone && (response.status === 404 || response.status === 410)) return;
      expectStatus(sent, [200], `${op.operationId} with ${shown}`);
      const type = response.headers['content-type'] ?? '(absent)';
      if (!/^application\/json\s*(;|$)/i.test(type))
        throw new Violation(`${op.operationId} with ${shown} is answered with Content-Type ${type}, not application/json`, sent);
      if (response.json === undefined) throw new Violation(`${op.operationId} with ${shown}: the body is not JSON`, sent);
    },
  });
}
