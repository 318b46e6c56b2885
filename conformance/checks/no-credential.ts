/**
 * invariants.no-credential (seed §5; OWASP API1, API2, API5, API9:2023): a
 * request without a valid key never serves pet data and never changes a
 * pet, whatever its method, path, header fields or body. Requests are drawn
 * from catalogues (methods from the IANA registry, fields that proxies and
 * frameworks act on, other places a key may be looked for, other versions
 * and administrative routes, the route spellings), sent in small batches,
 * and after each batch the run's own witness pets are read with the key: each
 * must be there, unchanged. Other clients may write meanwhile, so only the
 * witnesses are judged. A failure shrinks to one replayable request.
 */
import { whereTheyDiffer } from '../show.js';
import fc from 'fast-check';
import type { OperationDescriptor } from '../../spec/operations.js';
import type { JsonValue } from '../../spec/json/index.js';
import { fillPath, refusedAuthorizationExamples, sampleValidBody } from '../arbitraries/requests.js';
import { routeSpellings } from '../arbitraries/spellings.js';
import { METHODS } from '../catalogues/methods.js';
import { QUERY_FORMS, REQUEST_FIELDS, type FieldInputs } from '../catalogues/request-fields.js';
import { OTHER_TARGETS } from '../catalogues/targets.js';
import { NothingToExercise, propertyCheck } from '../check.js';
import { basePathOf, type WireRequest, type WireResponse } from '../client.js';
import { describeValue, differingField, idOf, isPetShaped, type CreatedPet, type Knowledge } from '../knowledge.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { createOperation, createPet, getOperation } from './family-requests.js';
import { isObject } from '../../spec/json/is-object.js';

const SECTION = 'seed §5.1, §5.3; OWASP API1, API2, API5, API9:2023';

/** Where a request goes: a path of the interface (with `{pet}` standing for a witness's id), relative to the base URL or to the origin. */
export interface Target {
  readonly label: string;
  readonly path: string;
  readonly fromOrigin?: true;
  /** It names the interface's own resources (a spelling of them, or another version): a 2xx list there is the list without a key. */
  readonly interfacePath: boolean;
}

/** One request without a valid credential, described (the witness ids are filled in when it is sent). */
export interface Attempt {
  readonly method: string;
  readonly target: Target;
  /** The Authorization field sent (null: none). */
  readonly authorization: { readonly label: string; readonly header: string | null };
  /** Fields from catalogues/request-fields.ts, by index. */
  readonly fields: readonly number[];
  /** A query form from catalogues/request-fields.ts, by index (-1: none). */
  readonly query: number;
  readonly body: BodyKind;
}

type BodyKind = 'none' | 'new pet' | 'new pet with a witness id' | 'a changed name' | 'a JSON Patch' | 'a form';

const BODY_KINDS: readonly BodyKind[] = ['none', 'new pet', 'new pet with a witness id', 'a changed name', 'a JSON Patch', 'a form'];
/** Methods that ask for no change (the registry's safe ones): they get none of the bodies, which all ask for one. */
const SAFE_METHODS = new Set(METHODS.filter((m) => m.safe).map((m) => m.method));

const PET = '{pet}';

/** Credentials that are not the valid key sent as `Bearer`: the auth family's near misses, and one more. */
function nearMissCredentials(apiKey: string): { label: string; header: string | null }[] {
  return [
    ...refusedAuthorizationExamples(apiKey),
    // Authorization is not a list field (RFC 9110 §11.6.2): a Bearer credential after a comma is not the field's credential.
    { label: 'the key after a comma', header: `Basic x, Bearer ${apiKey}` },
  ];
}

export function targetsOf(ctx: CheckContext): Target[] {
  const basePath = basePathOf(ctx.options.baseUrl);
  const prefix = basePath.replace(/\/v\d+$/i, '');
  const own = ctx.operations.flatMap((op): Target[] => {
    const filled = fillPath(op.path, Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, PET])))
      .split(encodeURIComponent(PET))
      .join(PET);
    return [
      { label: `${op.path} (${op.operationId})`, path: filled, interfacePath: true },
      ...routeSpellings(op.method, op.path, filled)
        .filter((s) => s.method === op.method)
        .map((s): Target => ({ label: `${op.path} spelled with ${s.label}`, path: s.path, interfacePath: true })),
    ];
  });
  const other = OTHER_TARGETS.map(
    (t): Target => ({ label: t.why, path: t.path(prefix, PET), fromOrigin: true, interfacePath: /\/pets(\/|$)/.test(t.path(prefix, PET)) }),
  );
  return [...new Map([...own, ...other].map((t) => [`${t.fromOrigin ? 'o' : 'b'}${t.path}`, t])).values()];
}

export function attemptArbitrary(ctx: CheckContext): fc.Arbitrary<Attempt> {
  const targets = targetsOf(ctx);
  const credentials = nearMissCredentials(ctx.options.apiKey);
  return fc
    .record({
      method: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS.map((m) => m.method)) },
      ),
      target: fc.constantFrom(...targets),
      authorization: fc.oneof(
        { weight: 2, arbitrary: fc.constant({ label: 'no Authorization header', header: null }) },
        { weight: 3, arbitrary: fc.constantFrom(...credentials) },
      ),
      fields: fc.uniqueArray(fc.nat({ max: REQUEST_FIELDS.length - 1 }), { maxLength: 2 }),
      query: fc.oneof({ weight: 4, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.nat({ max: QUERY_FORMS.length - 1 }) }),
      body: fc.constantFrom(...BODY_KINDS),
    })
    .map((a) => (SAFE_METHODS.has(a.method) ? { ...a, body: 'none' as const } : a));
}

/**
 * Tried before the generated batches, so no class is left to chance: every
 * target with GET and with a method that changes things (a route outside the
 * interface with each of them), every method of the registry on a pet, each
 * method override on a POST, every body kind with every method that sends one
 * on a pet and on the collection, every field, every query form and every
 * refused credential.
 */
export function attemptExamples(ctx: CheckContext): Attempt[][] {
  const none = { label: 'no Authorization header', header: null };
  const targets = targetsOf(ctx);
  const item = targets.find((t) => t.path.includes(PET) && !t.fromOrigin) ?? targets[0]!;
  const createPath = createOperation(ctx)?.path;
  const collection = targets.find((t) => t.path === createPath && !t.fromOrigin);
  const unsafe = ['DELETE', 'PUT', 'PATCH', 'POST'];
  const plain = (method: string, target: Target): Attempt => ({
    method,
    target,
    authorization: none,
    fields: [],
    query: -1,
    body: SAFE_METHODS.has(method) || method === 'DELETE' ? 'none' : 'a changed name',
  });
  // The batches without POST, PUT, PATCH or DELETE first: those count against --max-writes (refused or not), and a
  // budget used up ends the examples where they are.
  return [
    targets.map((target) => plain('GET', target)),
    REQUEST_FIELDS.map((_, i) => ({ ...plain('GET', item), fields: [i] })),
    QUERY_FORMS.map((_, i) => ({ ...plain('GET', item), query: i })),
    nearMissCredentials(ctx.options.apiKey).map((authorization) => ({ ...plain('GET', item), authorization })),
    // A route outside the interface answers the method its framework mounted it on (POST /reset) and that one only,
    // so it gets each of them; the interface's own paths, one each (the registry's methods on a pet follow).
    targets.flatMap((target, i) => (target.fromOrigin ? unsafe.map((method) => plain(method, target)) : [plain(unsafe[i % unsafe.length]!, target)])),
    METHODS.map((m) => plain(m.method, item)),
    // A method override is honoured on a POST only (express method-override's default; Rails' and Laravel's _method):
    // the fields and query forms that name a method are sent on one too, past a front that refuses DELETE itself.
    [
      ...REQUEST_FIELDS.flatMap((field, i) => (field.safe ? [] : [{ ...plain('POST', item), fields: [i] }])),
      ...QUERY_FORMS.flatMap((form, i) => (form.keyElsewhere ? [] : [{ ...plain('POST', item), query: i }])),
    ],
    // A route that acts on one kind of body alone (a JSON Patch on PATCH, a form on POST) is found only by that method
    // with that body: on a pet, and on the collection (createPet mounted ahead of the key check, a form post let in).
    [item, ...(collection ? [collection] : [])].flatMap((target) =>
      unsafe
        .filter((method) => method !== 'DELETE')
        .flatMap((method) => BODY_KINDS.filter((body) => body !== 'none').map((body) => ({ ...plain(method, target), body }))),
    ),
  ];
}

export function noCredentialCheck(ctx: CheckContext): Check | undefined {
  const create = createOperation(ctx);
  const get = getOperation(ctx);
  if (!create || !get) return undefined;
  let witnesses: CreatedPet[] | undefined;
  return propertyCheck<Attempt[]>({
    id: 'invariants.no-credential',
    family: 'invariants',
    operationId: '*',
    title:
      'no request without a valid key serves pet data or changes a pet, whatever its method (IANA registry), path (spellings, other versions, administrative routes), header fields (overrides, forwarding, the key elsewhere) or body',
    requirement:
      'Every operation requires HTTP bearer authentication, and a missing or invalid key gets 401 (§5.1, §5.3): no request without `Authorization: Bearer <key>` may read or change pets, whichever method, path, override field, forwarding field or other place of the key it uses (OWASP API1, API2, API5, API9:2023). After each batch of such requests, every pet this run created as a witness is still served, unchanged, with the key.',
    seedSection: SECTION,
    writes: true,
    arbitrary: (c) => fc.array(attemptArbitrary(c), { minLength: 1, maxLength: 4 }),
    examples: attemptExamples,
    runs: (c) => Math.min(c.options.runs, 30),
    async predicate(c, batch) {
      const fresh = witnesses === undefined;
      witnesses ??= await makeWitnesses(c, create);
      const own = witnesses;
      try {
        // Each batch ends with the witnesses read back, so only new ones are read before one.
        if (fresh) await verifyWitnesses(c, get, own, 'before any request of the batch');
        // Read back after a request that could have changed them and was not refused, so that a change is pinned on
        // the one request that made it; after the batch, always (a change behind a refusal shrinks to its request).
        for (const attempt of batch) {
          const sent = await sendAttempt(c, attempt, own);
          if (mayChangeState(attempt) && (sent.response.status < 400 || sent.response.status >= 500)) {
            const when = `after ${sent.request.method} ${sent.request.path} with ${describeAttempt(attempt)} (answered ${sent.response.status})`;
            await verifyWitnesses(c, get, own, when, sent);
          }
        }
        const after = batch.length === 1 ? `after ${describeBatch(batch, c, own)}` : `after a batch of ${batch.length} requests without a valid key`;
        await verifyWitnesses(c, get, own, after);
      } catch (error) {
        // The witnesses may be changed now: the next case (shrinking's among them) starts with new ones.
        if (error instanceof Violation) witnesses = undefined;
        throw error;
      }
    },
  });
}

/** Two pets of this run's own, created with the key, whose fields the batches must leave alone. */
async function makeWitnesses(c: CheckContext, create: OperationDescriptor): Promise<CreatedPet[]> {
  const out: CreatedPet[] = [];
  for (const offset of [101, 202]) {
    const { pet } = await createPet(c, 'invariants', sampleValidBody(create, `${c.options.namePrefix}witness-`, c.options.seed + offset), 'setup');
    out.push(c.knowledge.get(String(pet['id']))!);
  }
  return out;
}

/**
 * Whether a request could change a pet on a server that acts on it: an
 * unsafe method, a method override, a target outside the interface's own
 * paths (an administrative route), or a query that names a method. A safe
 * method on the interface's paths changes nothing on any server that keeps
 * RFC 9110 §9.2.1; the witnesses are read after the batch all the same.
 */
function mayChangeState(attempt: Attempt): boolean {
  return (
    !SAFE_METHODS.has(attempt.method) ||
    !attempt.target.interfacePath ||
    attempt.fields.some((i) => !REQUEST_FIELDS[i]!.safe) ||
    (attempt.query >= 0 && QUERY_FORMS[attempt.query]!.keyElsewhere === undefined)
  );
}

/** Each witness served with the key, as created; `cause` is the request blamed for a change. */
async function verifyWitnesses(
  c: CheckContext,
  get: OperationDescriptor,
  witnesses: readonly CreatedPet[],
  when: string,
  cause?: { request: WireRequest; response: WireResponse },
): Promise<void> {
  if (get.sunset !== undefined && c.targetNow() >= get.sunset.getTime())
    throw new NothingToExercise('getPet is past its removal date: the witnesses cannot be read back');
  const idParam = get.parameters.find((p) => p.in === 'path')!;
  const reads = await Promise.all(
    witnesses.map((witness) =>
      c.send('invariants', { method: get.method, path: fillPath(get.path, { [idParam.name]: witness.id }), operationId: get.operationId }),
    ),
  );
  for (const [i, witness] of witnesses.entries()) {
    const sent = reads[i]!;
    // The report shows the request that changed the witness; the read that found it out is in the message.
    const shown = cause ?? sent;
    if (sent.response.status !== 200)
      throw new Violation(`witness pet ${witness.id}, read with the key ${when}, is answered ${sent.response.status}, not 200: it is gone`, shown);
    const got = sent.response.json;
    if (!isObject(got)) throw new Violation(`witness pet ${witness.id} is not served as a Pet ${when}`, shown);
    const field = differingField(witness.pet, got);
    if (field)
      throw new Violation(
        `witness pet ${witness.id} comes back with ${field} ${describeValue(got[field])} ${when}; it was created with ${describeValue(witness.pet[field])}${whereTheyDiffer(got[field], witness.pet[field])}`,
        shown,
      );
  }
}

/** The request an attempt describes, with a witness's id where it names a pet. */
export function requestOf(c: CheckContext, attempt: Attempt, witnesses: readonly CreatedPet[]): WireRequest {
  const witness = witnesses[0]!;
  const inputs: FieldInputs = { apiKey: c.options.apiKey, basePath: basePathOf(c.options.baseUrl) };
  const headers: Record<string, string> = {};
  if (attempt.authorization.header !== null) headers['authorization'] = attempt.authorization.header;
  for (const index of attempt.fields) {
    const field = REQUEST_FIELDS[index]!;
    // Through a proxy, Proxy-Authorization is the proxy's own field (undici refuses it on a request): not sent.
    if (field.name === 'proxy-authorization' && c.client.proxy) continue;
    // Two of one name make one line: cookies joined by "; " (RFC 6265 §5.4), any other field by ", " (RFC 9110 §5.3).
    const joiner = field.name === 'cookie' ? '; ' : ', ';
    headers[field.name] = headers[field.name] === undefined ? field.value(inputs) : `${headers[field.name]}${joiner}${field.value(inputs)}`;
  }
  // An Accept of the catalogue (a browser's text/html) is sent as the browser sends it, not after application/json.
  headers['accept'] ??= 'application/json';
  const query = attempt.query >= 0 ? QUERY_FORMS[attempt.query]!.query(inputs) : undefined;
  const path = attempt.target.path.split(PET).join(witness.id) + (query ? `${attempt.target.path.includes('?') ? '&' : '?'}${query}` : '');
  const body = bodyOf(attempt.body, witness, c.options.namePrefix);
  if (body !== undefined) headers['content-type'] = attempt.body === 'a form' ? 'application/x-www-form-urlencoded' : 'application/json';
  return {
    method: attempt.method,
    path,
    headers,
    operationId: 'no-credential',
    offSpec: true,
    ...(attempt.target.fromOrigin ? { fromOrigin: true } : {}),
    ...(body !== undefined ? { body } : {}),
  };
}

function bodyOf(kind: BodyKind, witness: CreatedPet, prefix: string): string | undefined {
  const categoryId = String(witness.pet['categoryId'] ?? 1);
  switch (kind) {
    case 'none':
      return undefined;
    case 'new pet':
      return `{"name":"${prefix}unauthenticated","categoryId":${categoryId}}`;
    case 'new pet with a witness id':
      return `{"id":${witness.id},"name":"${prefix}unauthenticated","categoryId":${categoryId}}`;
    case 'a changed name':
      return `{"name":"${prefix}changed-without-key"}`;
    case 'a JSON Patch':
      return `[{"op":"replace","path":"/name","value":"${prefix}patched-without-key"}]`;
    case 'a form':
      return `name=${prefix}form-without-key&categoryId=${categoryId}`;
  }
}

async function sendAttempt(c: CheckContext, attempt: Attempt, witnesses: readonly CreatedPet[]): Promise<{ request: WireRequest; response: WireResponse }> {
  const request = requestOf(c, attempt, witnesses);
  c.cover('no-credential', 'method', attempt.method);
  c.cover('no-credential', 'target', attempt.target.label);
  const response = await c.client.send('invariants', request);
  const sent = { request, response };
  const served = servedWithoutKey(attempt, response, witnesses, c.knowledge);
  // RFC 9110 §9.3.8 lets TRACE echo the request; OWASP API8:2023 counts it enabled on an API as a misconfiguration.
  if (attempt.method === 'TRACE' && response.status >= 200 && response.status < 300)
    c.unspecified(
      {
        decision: 'trace-enabled',
        family: 'invariants',
        operationId: '*',
        seed: 'RFC 9110 §9.3.8: TRACE is optional; OWASP API8:2023: unneeded methods are disabled',
        observed: `TRACE ${request.path} was answered ${response.status}`,
        referenceBehaviour: '405 method_not_allowed (with Allow)',
        ...sent,
      },
      false,
    );
  if (served === undefined) return sent;
  const query = attempt.query >= 0 ? QUERY_FORMS[attempt.query]! : undefined;
  if (query?.open && attempt.fields.length === 0) {
    c.unspecified(
      {
        decision: 'access-token-query',
        family: 'invariants',
        operationId: '*',
        seed: query.open,
        observed: `${attempt.method} ${request.path} ${served}`,
        referenceBehaviour: 'the key is taken from the Authorization header only (§5.2); a request without it gets 401',
        ...sent,
      },
      false,
    );
    return sent;
  }
  throw new Violation(`${attempt.method} ${request.path} with ${describeAttempt(attempt)} ${served}`, sent);
}

/** What in an answer to a request without a valid key shows pet data, or undefined. */
export function servedWithoutKey(attempt: Attempt, response: WireResponse, witnesses: readonly CreatedPet[], knowledge: Knowledge): string | undefined {
  const named = witnesses.find((w) => typeof w.pet['name'] === 'string' && response.text.includes(JSON.stringify(w.pet['name']).slice(1, -1)));
  if (named) return `was answered ${response.status} with witness pet ${named.id}'s name in the body`;
  if (response.status < 200 || response.status > 299) return undefined;
  const body = response.json;
  if (isObject(body) && isPetShaped(body)) return `was answered ${response.status} with a Pet`;
  // A dump or an overview holds pets inside other objects: one of this run's own, with its id and name, is pet data whatever the shape around it.
  const known = knownPetIn(body, knowledge, { nodes: 10_000 }, 0);
  if (known) return `was answered ${response.status} with pet ${known.id} (created by this run) in the body`;
  if (Array.isArray(body) && (body.some((item) => isObject(item) && isPetShaped(item)) || attempt.target.interfacePath))
    return `was answered ${response.status} with a list${body.length === 0 ? ' (empty)' : ' of pets'}`;
  if (attempt.method === 'HEAD' && attempt.target.interfacePath && /^application\/json\b/i.test(response.headers['content-type'] ?? ''))
    return `was answered ${response.status} as the operation (HEAD: the JSON content left out)`;
  return undefined;
}

/** A pet this run created, met anywhere in `value` as an object with its id and its name; the walk stops at `budget` objects and 64 levels. */
function knownPetIn(value: JsonValue | undefined, knowledge: Knowledge, budget: { nodes: number }, depth: number): CreatedPet | undefined {
  if (value === null || typeof value !== 'object' || depth > 64 || --budget.nodes < 0) return undefined;
  if (!Array.isArray(value)) {
    const id = idOf(value);
    const known = id === undefined ? undefined : knowledge.get(id);
    if (known && typeof value['name'] === 'string' && known.pet['name'] === value['name']) return known;
  }
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    const found = knownPetIn(item, knowledge, budget, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function describeBatch(batch: readonly Attempt[], c: CheckContext, witnesses: readonly CreatedPet[]): string {
  return batch.map((attempt) => `${attempt.method} ${requestOf(c, attempt, witnesses).path} with ${describeAttempt(attempt)}`).join('; ');
}

function describeAttempt(attempt: Attempt): string {
  const parts = [attempt.authorization.label];
  for (const index of attempt.fields) parts.push(`${REQUEST_FIELDS[index]!.name} (${REQUEST_FIELDS[index]!.actedOnBy})`);
  if (attempt.query >= 0) parts.push(`the query form of ${QUERY_FORMS[attempt.query]!.actedOnBy}`);
  if (attempt.body !== 'none') parts.push(`${attempt.body} as the body`);
  return parts.join(', ');
}
