/**
 * http (RFC 9110, 9111, 9112): the rules every answer keeps (http-rules.ts),
 * and probes for what HTTP lets any client send, which a service must take
 * as HTTP defines it: a chunked body with extensions and trailers, a Range
 * or a precondition on any request, another method on the interface's paths,
 * and the Host field that HTTP/1.1 requires.
 */
import fc from 'fast-check';
import type { OperationDescriptor } from '../../spec/operations.js';
import type { JsonObject } from '../../spec/json/index.js';
import { fillPath, sampleValidBody } from '../arbitraries/requests.js';
import { head, MESSAGE_CASES, type MessageCase } from '../catalogues/message-framings.js';
import { READ_CASES } from '../catalogues/raw-reads.js';
import { CONDITIONAL_CASES } from '../catalogues/preconditions-and-ranges.js';
import { expectStatus, NothingToExercise, propertyCheck } from '../check.js';
import { basePathOf, type RawRequest, type WireRequest, type WireResponse } from '../client.js';
import type { RawAnswer } from '../raw.js';
import { echoProblem } from '../knowledge.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { HTTP_RULES } from './http-rules.js';
import { ruleCheck } from './rules.js';
import { referencesCheck } from './references.js';
import { validatorRules } from './validators.js';
import { createOperation, getOperation, listOperation, pageSizeParameter, readablePath } from './family-requests.js';
import { isObject } from '../../spec/json/is-object.js';

// The chunked coding's writer lives with the messages that use it; its test imports it from here.
export { chunks } from '../catalogues/message-framings.js';

type Sent = { request: WireRequest; response: WireResponse };

export function httpChecks(ctx: CheckContext): Check[] {
  const create = createOperation(ctx);
  const list = listOperation(ctx);
  const reads = ctx.operations.filter((op) => op.method === 'GET' && op.responses.some((r) => r.status === 200));
  return [
    ...HTTP_RULES.map((rule) => ruleCheck(rule, ctx)),
    ...validatorRules().map((r) => ruleCheck(r, ctx)),
    referencesCheck(ctx),
    ...(create ? [messageCheck(create)] : []),
    ...(list ? [readCheck(list)] : []),
    ...reads.map(conditionalCheck),
    ...reads.map(otherMethodsCheck),
  ];
}

/** Raw messages test the target's own HTTP parser: through a proxy they would test the proxy's. */
function directOnly(c: CheckContext): void {
  if (c.client.proxy) throw new NothingToExercise(`the run goes through the proxy ${c.client.proxy}; these messages need a direct connection to the target`);
}

/** The origin's host and the base path, for requests written by hand. */
function rawParts(c: CheckContext): { host: string; basePath: string } {
  return { host: new URL(c.options.baseUrl).host, basePath: basePathOf(c.options.baseUrl) };
}

function messageCheck(op: OperationDescriptor): Check {
  return propertyCheck({
    id: `http.${op.operationId}.message`,
    family: 'http',
    operationId: op.operationId,
    title: `${op.operationId} takes a NewPet in every message framing HTTP/1.1 allows (chunked, chunk extensions, trailers), ignores Range, and never reads a body by Content-Length when Transfer-Encoding is there, nor leaves any of it for the next request`,
    requirement:
      'A recipient MUST be able to parse the chunked transfer coding and MUST ignore unrecognized chunk extensions (RFC 9112 §7.1, §7.1.1); a server MAY refuse a body without Content-Length with 411 (§6.3), an advisory here. A server MUST ignore Range on a method other than GET (RFC 9110 §14.2). With both Transfer-Encoding and Content-Length, the server answers by the Transfer-Encoding or refuses with 400, and MUST close the connection after answering (RFC 9112 §6.3). A server that reads a message otherwise than as it is framed leaves bytes that the next request on the connection is glued to (request smuggling, RFC 9112 §11.2): a list read sent after each answer on the same connection must get what it gets on its own.',
    seedSection: 'RFC 9112 §6.3, §7.1, §11.2; RFC 9110 §14.2; seed §4.2',
    writes: true,
    arbitrary: () => fc.nat({ max: MESSAGE_CASES.length - 1 }),
    examples: () => MESSAGE_CASES.map((_, i) => i),
    runs: () => MESSAGE_CASES.length,
    async predicate(c, index) {
      directOnly(c);
      const message = MESSAGE_CASES[index]!;
      const body = sampleValidBody(op, c.options.namePrefix, c.options.seed + index);
      const { host, basePath } = rawParts(c);
      const raw = message.build({ host, path: basePath + op.path, authorization: c.client.authorization, body: body.text });
      const request: WireRequest & { raw: string } = {
        method: op.method,
        path: op.path,
        operationId: op.operationId,
        headers: { authorization: c.client.authorization, 'content-type': 'application/json' },
        body: body.text,
        raw,
        // Only this check judges what a framing answers; 400 and 411 are answers HTTP itself allows.
        offSpec: true,
      };
      c.cover(op.operationId, 'message framing', message.label);
      const answer = await c.client.sendRaw('http', { ...request, followUp: followUpRequest(c) });
      judgeFraming(c, op, message, { request, response: answer.response }, answer, body.value as JsonObject);
      judgeFollowUp(message.label, { request, response: answer.response }, answer);
    },
  });
}

/** What one framing must get: a conflicting one read by its Transfer-Encoding or refused, any other one read (or refused with 411). */
function judgeFraming(c: CheckContext, op: OperationDescriptor, message: MessageCase, sent: Sent, { closed, more }: RawAnswer, value: JsonObject): void {
  const { response } = sent;
  if (message.conflicting) {
    if (more)
      throw new Violation(
        `a request with ${message.label} got ${response.status}, then another answer on the same connection: the body was read by its Content-Length and the rest taken for a second request (request smuggling)`,
        sent,
      );
    expectStatus(sent, [400, 201], `a request with ${message.label}`);
    if (response.status === 201) judgeCreated(c, sent, value);
    if (!closed)
      c.unspecified(
        {
          decision: 'close-after-conflicting-framing',
          family: 'http',
          operationId: op.operationId,
          seed: 'RFC 9112 §6.3: the server MUST close the connection after answering a request with both Transfer-Encoding and Content-Length (uvicorn with h11 keeps it open; it read the body by Transfer-Encoding, so nothing was smuggled here)',
          observed: `after answering ${response.status}, the connection stayed open`,
          referenceBehaviour: '400 bad_request, and the connection closed',
          ...sent,
        },
        false,
      );
    return;
  }
  if (response.status === 411) {
    c.unspecified(
      {
        decision: 'length-required',
        family: 'http',
        operationId: op.operationId,
        seed: 'RFC 9112 §6.3: a server MAY reject a request that contains a message body but not a Content-Length with 411',
        observed: `${message.label} was refused with 411`,
        referenceBehaviour: 'a chunked body is read like any other (201)',
        ...sent,
      },
      false,
    );
    return;
  }
  expectStatus(sent, [201], `a valid NewPet sent as ${message.label}`);
  judgeCreated(c, sent, value);
}

/**
 * The list read that follows every message written by hand, on its
 * connection: a server that read the message whole answers it as it would
 * on its own. Undefined when the spec has no list operation.
 */
function followUpRequest(c: CheckContext): RawRequest['followUp'] {
  const list = listOperation(c);
  if (!list) return undefined;
  const pageSize = pageSizeParameter(list);
  const path = pageSize ? `${list.path}?${pageSize.name}=1` : list.path;
  const { host, basePath } = rawParts(c);
  const headers = { authorization: c.client.authorization, accept: 'application/json' };
  const raw = head([`GET ${basePath}${path} HTTP/1.1`, `Host: ${host}`, `Authorization: ${headers.authorization}`, `Accept: ${headers.accept}`]);
  return { method: 'GET', path, operationId: list.operationId, headers, raw };
}

/**
 * The follow-up gets what it gets on its own (200 with a JSON array; 429 says
 * nothing either way), or the server closed the connection before it. Any
 * other answer, or none on a connection left open, means the server did not
 * read the previous message as it was framed: what it left unread was taken
 * for (the start of) the next request.
 */
function judgeFollowUp(label: string, sent: Sent, { followUp }: RawAnswer): void {
  if (!followUp || followUp.closed) return;
  const response = followUp.response;
  if (response && (response.status === 429 || (response.status === 200 && Array.isArray(response.json)))) return;
  const got = followUp.timedOut
    ? 'no answer, the connection left open'
    : response
      ? `${response.status}${response.status === 200 ? ' without a JSON array' : ''}`
      : `an answer that is not HTTP/1.1 (${followUp.unreadable})`;
  throw new Violation(
    `after ${label} was answered ${sent.response.status}, a well-formed list request on the same connection got ${got}, not the 200 with a JSON array it gets on its own: the connection was desynchronised by the previous message (request smuggling, RFC 9112 §6.3, §11.2)`,
    sent,
  );
}

function judgeCreated(c: CheckContext, sent: Sent, value: JsonObject): void {
  const pet = sent.response.json;
  if (!isObject(pet)) throw new Violation('the 201 body is not a Pet', sent);
  c.knowledge.record(pet);
  const problem = echoProblem(value, pet);
  if (problem) throw new Violation(problem, sent);
}

/** RFC 9112's rules for reading a request: Host required, HEAD without content, Connection: close honoured, the absolute form. */
function readCheck(op: OperationDescriptor): Check {
  return propertyCheck({
    id: `http.${op.operationId}.message`,
    family: 'http',
    operationId: op.operationId,
    title: `${op.operationId} answers as RFC 9112 says: no content to HEAD, the connection closed after Connection: close, no server error without Host (400 there, two Host fields and the absolute form: advisory)`,
    requirement:
      'A server MUST respond 400 to an HTTP/1.1 request that lacks Host (RFC 9112 §3.2), MUST NOT send content in the response to HEAD (RFC 9110 §9.3.2, RFC 9112 §6.3), and MUST initiate closure of the connection after answering a request with Connection: close (RFC 9112 §9.6). The 400 without Host, and the same sections on two Host fields and the absolute-form target (§3.2, §3.2.2), are MUSTs common servers do not keep (uvicorn with httptools, gunicorn, Node.js): advisories here, though a server error to them fails. A list read sent after each answer on a connection left open must get what it gets on its own (RFC 9112 §6.3, §11.2).',
    seedSection: 'RFC 9112 §3.2, §3.2.2, §6.3, §9.6, §11.2; RFC 9110 §9.3.2',
    writes: false,
    arbitrary: () => fc.nat({ max: READ_CASES.length - 1 }),
    examples: () => READ_CASES.map((_, i) => i),
    runs: () => READ_CASES.length,
    async predicate(c, index) {
      directOnly(c);
      const item = READ_CASES[index]!;
      const { host, basePath } = rawParts(c);
      const raw = head(item.lines({ host, path: basePath + op.path, authorization: c.client.authorization }));
      const method = raw.slice(0, raw.indexOf(' '));
      const request: WireRequest & { raw: string } = {
        method,
        path: op.path,
        operationId: op.operationId,
        headers: { authorization: c.client.authorization },
        raw,
        offSpec: true,
      };
      c.cover(op.operationId, 'message', item.label);
      const answer = await c.client.sendRaw('http', { ...request, followUp: followUpRequest(c) });
      const sent = { request, response: answer.response };
      item.judge(c, { sent, closed: answer.closed, more: answer.more }, op);
      judgeFollowUp(item.label, sent, answer);
    },
  });
}

/**
 * Preconditions and ranges on a read: a 304 only when the condition really
 * is false, a malformed date ignored, a 206 that says what it holds, and
 * nothing of the kind without the key.
 */
function conditionalCheck(op: OperationDescriptor): Check {
  let path: string | undefined;
  return propertyCheck({
    id: `http.${op.operationId}.conditional`,
    family: 'http',
    operationId: op.operationId,
    title: `${op.operationId} evaluates preconditions and ranges as RFC 9110 says: no 304 for a tag it never issued or a malformed date, none without the key`,
    requirement:
      'If-None-Match is false only for a tag that matches the current representation (RFC 9110 §13.1.2), so a tag the server never issued gets the 200; a recipient MUST ignore If-Modified-Since when its value is not a valid HTTP-date (§13.1.3); a 304 MUST carry the ETag a 200 would have (§15.4.5); a server MUST ignore preconditions when its answer would not be a 2xx (§13.2.1), so without the key it is a 401 whatever they say; a 206 carries Content-Range (§15.3.7).',
    seedSection: 'RFC 9110 §13.1, §13.2.1, §14.2, §15.4.5',
    writes: false,
    arbitrary: () => fc.nat({ max: CONDITIONAL_CASES.length - 1 }),
    examples: () => CONDITIONAL_CASES.map((_, i) => i),
    runs: () => CONDITIONAL_CASES.length,
    async predicate(c, index) {
      path ??= await readablePath(c, 'http', op);
      if (path === undefined) throw new NothingToExercise('no pet exists to read (the target lists none, and --read-only creates none)');
      const gone = op.sunset !== undefined && c.targetNow() >= op.sunset.getTime();
      const plain = await c.send('http', { method: op.method, path, operationId: op.operationId });
      if (gone && plain.response.status !== 200) return;
      expectStatus(plain, [200], `${op.operationId} with the valid key`);
      const etag = plain.response.headers['etag'];
      const item = CONDITIONAL_CASES[index]!;
      c.cover(op.operationId, 'precondition or range', item.label);
      const sent = await c.send('http', {
        method: op.method,
        path,
        operationId: op.operationId,
        headers: item.headers(etag),
        ...(item.withoutKey ? { auth: null } : {}),
        offSpec: true,
      });
      item.judge(sent, etag);
    },
  });
}

/** Other methods on the interface's paths, with the key: only their answers' form is judged (http.allow and the rules). */
function otherMethodsCheck(op: OperationDescriptor): Check {
  const item = op.parameters.some((p) => p.in === 'path');
  // On an item, with an id no pet has: a method that changes an item then has nothing to change.
  const methods = item ? ['OPTIONS', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'] : ['OPTIONS', 'PROPFIND', 'SEARCH', 'REPORT'];
  let path: string | undefined;
  return propertyCheck({
    id: `http.${op.operationId}.other-methods`,
    family: 'http',
    operationId: op.operationId,
    title: `other methods on ${op.path} (${methods.join(', ')}) are answered as HTTP defines: 405 with Allow, 404, 501 or the method's own answer`,
    requirement:
      'An origin server that receives a method it does not implement SHOULD answer 501, one it does not allow on the resource SHOULD answer 405 (RFC 9110 §9.1), and a 405 MUST carry Allow (§15.5.6); what else the other methods do is not shown by the seed (§4: "any update or delete ... not shown"). The answers are judged by the rules over every answer (responses.no-server-error, http.allow, http.date, json.*, invariants.*).',
    seedSection: 'RFC 9110 §9.1, §15.5.6; seed §4',
    writes: item,
    arbitrary: () => fc.constantFrom(...methods),
    examples: () => [...methods],
    runs: () => methods.length,
    async predicate(c, method) {
      path ??= item ? await missingItemPath(c, op) : fillPath(op.path, {});
      c.cover(op.operationId, 'method', method);
      // What it answers is judged by the rules over every answer: a 5xx fails there (a 501 to a method the interface does not use is in the tolerance table).
      await c.send('http', {
        method,
        path,
        operationId: op.operationId,
        offSpec: true,
        ...(method === 'PUT' || method === 'PATCH' ? { body: '' } : {}),
      });
    },
  });
}

/** The item path with an id that no pet has (asked first), so a method that changes items has nothing to change. */
async function missingItemPath(c: CheckContext, op: OperationDescriptor): Promise<string> {
  const get = getOperation(c) ?? op;
  const params = op.parameters.filter((p) => p.in === 'path');
  for (const id of ['9223372036854775801', '9223372036854775769', '9223372036854775739']) {
    const path = fillPath(op.path, Object.fromEntries(params.map((p) => [p.name, id])));
    const probe = await c.send('http', { method: 'GET', path, operationId: get.operationId });
    if (probe.response.status !== 200) return path;
  }
  throw new NothingToExercise('every id tried for a missing pet exists');
}
