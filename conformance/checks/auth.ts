/**
 * auth (seed §5): every operation requires a bearer API key; a missing or
 * invalid key gets 401 with an Error body, whatever else is wrong with the
 * request (checked before validation and before lookup); a valid key is never
 * refused. One exception, an advisory: a body that is not JSON text of an
 * object or array may be refused (400 with an Error body) by the body
 * parser that frameworks run in front of every route, before an
 * authentication middleware behind it (`app.use(express.json())`, NestJS,
 * FastAPI's `request.json()`, Rails' parameter parsing). A body that parses
 * is authenticated first, whatever its fields.
 */
import fc from 'fast-check';
import type { OperationDescriptor } from '../../spec/operations.js';
import type { JsonValue } from '../../spec/json/index.js';
import { fillPath, invalidBody, invalidBodyExamples, refusedAuthorization, refusedAuthorizationExamples } from '../arbitraries/requests.js';
import { expectErrorBody, expectStatus, NothingToExercise, propertyCheck } from '../check.js';
import type { Check, CheckContext } from '../vocabulary.js';
import { sendPlanned, someExistingId, validRequest, type PlannedRequest } from './family-requests.js';

const SECTION = '§5 Authentication';

/**
 * Spellings of the valid credential whose answer the RFCs leave to the
 * server: advisories, with what the reference server does.
 */
const WRONG = 'wrong-key-0000';

const OPEN_SPELLINGS = [
  {
    decision: 'spaces',
    label: 'the key after two spaces (`Bearer  <key>`)',
    header: (key: string) => `Bearer  ${key}`,
    referenceStatus: 200,
    reference: 'accepted: RFC 6750 §2.1 separates the scheme from the token by one or more spaces (1*SP)',
  },
  {
    decision: 'tab',
    label: 'a tab before the key (`Bearer<TAB><key>`)',
    header: (key: string) => `Bearer\t${key}`,
    referenceStatus: 401,
    reference: 'refused with 401: RFC 6750 §2.1 allows only spaces there',
  },
] as const;

export function authChecks(ctx: CheckContext): Check[] {
  const guarded = ctx.operations.filter((o) => o.requiresAuth);
  const list = guarded.find((o) => o.method === 'GET' && !o.path.includes('{'));
  return [
    ...guarded.map(refusedCheck),
    ...(list ? [acceptedCheck(list)] : []),
    ...guarded.filter((o) => o.method === 'GET' && o.parameters.some((p) => p.in === 'path')).map(existingItemCheck),
  ];
}

/** A missing or invalid key gets 401 with an Error body, whatever else is wrong with the request. */
function refusedCheck(op: OperationDescriptor): Check {
  return propertyCheck({
    id: `auth.${op.operationId}.refused`,
    family: 'auth',
    operationId: op.operationId,
    title: `${op.operationId} answers 401 with an Error body to a missing or invalid API key, before validating or looking anything up`,
    requirement:
      'When the key is missing or invalid, the service answers 401 with an Error body (§5.3); every operation requires HTTP bearer authentication (§5.1).',
    seedSection: SECTION,
    writes: op.method !== 'GET',
    arbitrary: (c) => {
      // Valid and invalid requests alike: the key is judged first.
      const requests: fc.Arbitrary<PlannedRequest>[] = [validRequest(op, c.options.namePrefix)];
      if (op.requestBody) {
        requests.push(invalidBody(op, c.options.namePrefix).map((body) => ({ method: op.method, path: op.path, body, description: body.label })));
      }
      return fc.tuple(refusedAuthorization(c.options.apiKey), fc.oneof(...requests));
    },
    // Every near miss on a valid request, and (with a body) on an invalid one: 401 must win both.
    examples: (c) => {
      const [valid] = fc.sample(validRequest(op, c.options.namePrefix), { numRuns: 1, seed: c.options.seed });
      const invalid = op.requestBody
        ? invalidBodyExamples(op, c.options.namePrefix, c.options.seed).map(
            (body): PlannedRequest => ({ method: op.method, path: op.path, body, description: body.label }),
          )
        : [];
      const near = refusedAuthorizationExamples(c.options.apiKey);
      return [...near.map((auth) => [auth, valid!] as const), ...invalid.map((planned, i) => [near[i % near.length]!, planned] as const)];
    },
    async predicate(c, [auth, planned]) {
      c.cover(op.operationId, 'credential', auth.label);
      const sent = await sendPlanned(c, 'auth', op, planned, auth.header);
      if (planned.body && !isStructure(planned.body.value) && sent.response.status === 400) {
        expectErrorBody(sent);
        c.unspecified(
          {
            decision: 'parse-before-auth',
            family: 'auth',
            operationId: op.operationId,
            seed: '§5.3 (401 to a missing or invalid key) and §4.2 (400 to an invalid body) both apply; which is checked first is not shown',
            observed: `${planned.body.label} with ${auth.label} was answered ${sent.response.status}: the body was parsed before the key was checked`,
            referenceBehaviour: 'the key is checked first: 401',
            ...sent,
          },
          false,
        );
        return;
      }
      expectStatus(sent, [401], `${op.operationId} with ${auth.label}`);
      expectErrorBody(sent);
      const challenge = sent.response.headers['www-authenticate'];
      c.unspecified(
        {
          decision: 'www-authenticate',
          family: 'auth',
          operationId: op.operationId,
          seed: '§4 "Response headers of any operation: not shown"',
          observed: challenge === undefined ? 'a 401 without WWW-Authenticate' : `WWW-Authenticate: ${challenge}`,
          referenceBehaviour: 'every 401 carries WWW-Authenticate: Bearer realm="petstore" (RFC 6750 §3)',
          ...sent,
        },
        challenge !== undefined && /^bearer\b/i.test(challenge),
      );
    },
    runs: (c) => Math.max(1, Math.round(c.options.runs / (op.method === 'GET' ? 1 : 2))),
  });
}

/** Whether a body's value is an object or an array (none: its text is not JSON): what a framework's body parser lets through to the routes behind it. */
function isStructure(value: JsonValue | undefined): boolean {
  return typeof value === 'object' && value !== null;
}

/** The valid key is never refused; spellings of it the RFCs leave open are advisories. */
function acceptedCheck(list: OperationDescriptor): Check {
  return propertyCheck({
    id: `auth.${list.operationId}.accepted`,
    family: 'auth',
    operationId: list.operationId,
    title: `${list.operationId} accepts the valid API key on every valid request`,
    requirement: 'The client sends its API key in the Authorization header as `Bearer <API_KEY>` (§5.2); only a missing or invalid key is refused (§5.3).',
    seedSection: SECTION,
    writes: false,
    arbitrary: (c) => validRequest(list, c.options.namePrefix),
    async predicate(c, planned) {
      c.cover(list.operationId, 'credential', 'the valid key');
      const sent = await sendPlanned(c, 'auth', list, planned);
      expectStatus(sent, [200], `${list.operationId} with the valid key`);
      for (const order of [
        [c.options.apiKey, WRONG],
        [WRONG, c.options.apiKey],
      ] as const) {
        // Two field lines, the key in one: sent by the client itself, as ctx.send sends one value per field.
        const headers = { accept: 'application/json', authorization: order.map((key) => `Bearer ${key}`) };
        // What it gets is open (a gateway in front may refuse it with a page of its own): judged here only.
        const request = { method: list.method, path: planned.path, operationId: list.operationId, headers, offSpec: true };
        c.cover(list.operationId, 'credential', 'two Authorization fields');
        const twice = { request, response: await c.client.send('auth', request) };
        c.unspecified(
          {
            decision: 'two-authorization-fields',
            family: 'auth',
            operationId: list.operationId,
            seed: '§5.2 "sends its API key in the Authorization header" (a request with two is not discussed)',
            observed: `two Authorization fields, the key in the ${order[0] === WRONG ? 'second' : 'first'}, were answered ${twice.response.status}`,
            referenceBehaviour: 'refused with 401: Authorization is not a list field (RFC 9110 §11.6.2), so which of two a proxy reads is unknown',
            ...twice,
          },
          twice.response.status === 401,
        );
      }
      for (const spelling of OPEN_SPELLINGS) {
        c.cover(list.operationId, 'credential', spelling.label);
        const other = await sendPlanned(c, 'auth', list, planned, spelling.header(c.options.apiKey));
        c.unspecified(
          {
            decision: `bearer-${spelling.decision}`,
            family: 'auth',
            operationId: list.operationId,
            seed: `§5.2 "sends its API key ... as \`Bearer <API_KEY>\`" (${spelling.label} is not discussed)`,
            observed: `${spelling.label} was answered ${other.response.status}`,
            referenceBehaviour: spelling.reference,
            ...other,
          },
          other.response.status === spelling.referenceStatus,
        );
      }
      const lower = await sendPlanned(c, 'auth', list, planned, `bearer ${c.options.apiKey}`);
      c.unspecified(
        {
          decision: 'bearer-scheme-case',
          family: 'auth',
          operationId: list.operationId,
          seed: '§5.2 "sends its API key ... as `Bearer <API_KEY>`" (the case of the scheme is not discussed)',
          observed: `\`bearer <key>\` (lower case) was answered ${lower.response.status}`,
          referenceBehaviour: 'the scheme is case-insensitive (RFC 9110 §11.1): `bearer <key>` is accepted',
          ...lower,
        },
        lower.response.status === 200,
      );
    },
    runs: (c) => Math.max(1, Math.round(c.options.runs / 4)),
  });
}

/**
 * The refusal must not depend on what the path names: a pet that exists, and
 * was just read with the key (as a real client does), is refused to every
 * refused credential as an unknown one is. A cache in front of
 * authentication, keyed by the URL alone, serves it to anyone.
 */
function existingItemCheck(op: OperationDescriptor): Check {
  let path: string | undefined;
  return propertyCheck({
    id: `auth.${op.operationId}.existing`,
    family: 'auth',
    operationId: op.operationId,
    title: `${op.operationId} refuses a missing or invalid key on a pet that exists and was just read with the valid key`,
    requirement:
      'When the key is missing or invalid, the service answers 401 with an Error body (§5.3), whatever the request names: a pet that exists is no exception.',
    seedSection: SECTION,
    writes: false,
    arbitrary: (c) => fc.constantFrom(...refusedAuthorizationExamples(c.options.apiKey)),
    examples: (c) => refusedAuthorizationExamples(c.options.apiKey),
    runs: () => 1,
    async predicate(c, auth) {
      c.cover(op.operationId, 'credential', `${auth.label}, on a pet that exists`);
      if (path === undefined) {
        const id = await someExistingId(c, 'auth');
        if (id === undefined) throw new NothingToExercise('no pet exists to read (the target lists none, and --read-only creates none)');
        path = fillPath(op.path, Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, id])));
      }
      const gone = op.sunset !== undefined && c.targetNow() >= op.sunset.getTime();
      const read = await c.send('auth', { method: op.method, path, operationId: op.operationId });
      if (!gone) expectStatus(read, [200], `${op.operationId} of an existing pet with the valid key`);
      const sent = await c.send('auth', { method: op.method, path, operationId: op.operationId, auth: auth.header });
      expectStatus(sent, [401], `${op.operationId} of an existing pet with ${auth.label}`);
      expectErrorBody(sent);
    },
  });
}
