// The diagnosis of a refused request other than a 401 or a 410
// (src/server/findings/refusal.ts): the Error it got, read as a finding, with
// the rule it broke (a pointer into spec/openapi.json), what was sent, what the
// interface expects instead (this server's limits, D4 and D11, included).
import t from 'tap';
import { operationById, operations, type OperationDescriptor } from '../../../../spec/operations.js';
import { defaultLimits } from '../../../../src/server/decisions.js';
import type { ErrorCode } from '../../../../src/server/errors.js';
import type { CheckedRequest, Culprit } from '../../../../src/server/findings/checked-request.js';
import { refusalDraft, type RefusalContext } from '../../../../src/server/findings/refusal.js';

const KEY = 'sk-live-123';
const redact = (text: string) => text.replaceAll(KEY, '[redacted]');
/** Marks what went through `shown`, so each text from the request is seen to be shown through it (or not). */
const shown = (text: string) => `«${redact(text)}»`;
const ctx: RefusalContext = {
  operations,
  basePath: '/v1',
  limits: { ...defaultLimits, maxBodyBytes: 100, maxUrlBytes: 50 },
  redact,
  shown,
  listing: 'GET /v1/pets, POST /v1/pets, GET /v1/pets/{petId}',
};
const listPets = operationById('listPets');
const createPet = operationById('createPet');
const getPet = operationById('getPet');

function request(
  method: string | undefined,
  url: string | undefined,
  headers: Record<string, string> = {},
  more: { culprit?: Culprit; requestBody?: Buffer } = {},
): CheckedRequest {
  return { seq: 1, req: { method, url, headers, rawHeaders: Object.entries(headers).flat() }, ...more };
}

const draft = (x: CheckedRequest, code: ErrorCode, op: OperationDescriptor | undefined, message = 'the Error’s message') =>
  refusalDraft(ctx, x, code, op, message);

t.test('every refusal is an error with the Error’s code, status and message as shown, at the operation’s seed section', async (t) => {
  t.match(draft(request('POST', '/v1/pets'), 'malformed_json', createPet, `bad JSON near ${KEY}`), {
    code: 'malformed_json',
    severity: 'error',
    status: 400,
    message: '«bad JSON near [redacted]»',
    operationId: 'createPet',
    seed: '§4.2 Add an animal',
  });
  const routeless = draft(request('GET', '/v1/nothing-here-at-all'), 'route_not_found', undefined);
  t.equal(routeless.seed, '§4 Endpoints', 'no operation: the endpoints section');
  t.notOk('operationId' in routeless, 'and no operationId');
});

t.test('a code with no diagnosis of its own, or one that needs an operation it lacks, is told at the operation or /paths by its code', async (t) => {
  t.strictSame(draft(request('POST', '/v1/pets'), 'storage_full', createPet, 'full'), {
    code: 'storage_full',
    severity: 'error',
    status: 507,
    message: '«full»',
    operationId: 'createPet',
    seed: '§4.2 Add an animal',
    rule: '/paths/~1pets/post',
    subject: 'storage_full',
    sent: '«POST /v1/pets»',
    expected: 'a request as the spec describes it',
  });
  t.match(draft(request('POST', '/v1/pets'), 'invalid_body', undefined), { rule: '/paths', subject: 'invalid_body', sent: '«POST /v1/pets»' });
  t.match(draft(request('GET', '/v1/pets/12'), 'pet_not_found', undefined), { rule: '/paths', subject: 'pet_not_found' });
  t.match(draft(request(undefined, undefined), 'internal_error', undefined), { sent: '«GET /»' }, 'no method or target: GET /');
});

t.test('no route: the nearest operation, then every one the interface has; none near, only the listing', async (t) => {
  t.match(draft(request('GET', '/v1/pet/7?limit=1'), 'route_not_found', undefined), {
    rule: '/paths',
    subject: '«GET /v1/pet/7»',
    sent: '«GET /v1/pet/7»',
    expected: `GET /v1/pets/{petId} (the nearest); the interface has ${ctx.listing}`,
  });
  t.equal(draft(request('GET', '/v1/orders/5'), 'route_not_found', undefined).expected, `one of ${ctx.listing}`);
});

t.test('a method the path lacks is told at the path’s template, with every method it has', async (t) => {
  t.match(draft(request('PATCH', '/v1/pets', {}, { culprit: { name: '/pets' } }), 'method_not_allowed', undefined), {
    status: 405,
    rule: '/paths/~1pets',
    subject: 'PATCH /pets',
    sent: '«PATCH /v1/pets»',
    expected: 'GET or POST on /v1/pets',
  });
});

t.test('an invalid parameter is told at the parameter; one the operation lacks, at its parameters', async (t) => {
  t.match(draft(request('GET', '/v1/pets?limit=0', {}, { culprit: { name: 'limit', sent: 'limit=0' } }), 'invalid_parameter', listPets), {
    rule: '/paths/~1pets/get/parameters/0',
    subject: 'limit',
    sent: '«limit=0»',
    expected: 'query parameter limit: an integer from 1 to 100 (20 when not given), given at most once',
  });
  t.match(draft(request('GET', '/v1/pets?x=1', {}, { culprit: { name: 'x', sent: 'x=1' } }), 'invalid_parameter', listPets), {
    rule: '/paths/~1pets/get/parameters',
    expected: 'parameters as the spec gives them',
  });
  t.match(
    draft(request('GET', '/v1/pets?limit=0'), 'invalid_parameter', undefined),
    {
      rule: '/paths',
      subject: '',
      sent: '«/v1/pets?limit=0»',
    },
    'no culprit, no operation: the target',
  );
});

t.test('a body not as the schema has it is told at the field to blame: its declaration, or the required list when missing', async (t) => {
  const body = Buffer.from('{}');
  t.match(draft(request('POST', '/v1/pets', {}, { requestBody: body, culprit: { name: 'name' } }), 'invalid_body', createPet), {
    rule: '/components/schemas/NewPet/required',
    subject: 'missing name',
    sent: 'no name',
    expected: 'name: a string (required)',
  });
  t.match(draft(request('POST', '/v1/pets', {}, { requestBody: body, culprit: { name: 'status', sent: JSON.stringify(KEY) } }), 'invalid_body', createPet), {
    rule: '/components/schemas/NewPet/properties/status',
    subject: 'status',
    sent: 'status: "[redacted]"',
    expected: 'status: one of available, pending, sold',
  });
  t.match(
    draft(request('POST', '/v1/pets', {}, { requestBody: body, culprit: { name: 'name.first', sent: '"x"' } }), 'invalid_body', createPet),
    {
      rule: '/components/schemas/NewPet/properties/name',
      subject: 'name',
    },
    'a nested field: its top-level field',
  );
});

t.test('a body with no field to blame is told at the schema; no body at all, at requestBody/required', async (t) => {
  const object = 'a JSON object with name, categoryId, status (optional)';
  t.match(draft(request('POST', '/v1/pets', {}, { requestBody: Buffer.from('[]'), culprit: { name: '', sent: '[]' } }), 'invalid_body', createPet), {
    rule: '/components/schemas/NewPet',
    subject: '',
    sent: '[]',
    expected: object,
  });
  t.match(draft(request('POST', '/v1/pets', {}, { requestBody: Buffer.from('[]') }), 'invalid_body', createPet), {
    rule: '/components/schemas/NewPet',
    sent: 'a body',
  });
  t.match(
    draft(request('POST', '/v1/pets', {}, { requestBody: Buffer.from('{}'), culprit: { name: 'owner', sent: '1' } }), 'invalid_body', createPet),
    {
      rule: '/components/schemas/NewPet',
    },
    'a field the schema does not declare',
  );
  t.match(draft(request('POST', '/v1/pets'), 'invalid_body', createPet), {
    rule: '/paths/~1pets/post/requestBody/required',
    subject: 'no body',
    sent: 'no body',
    expected: object,
  });
});

t.test('a body not JSON as it is names the encoding when one was sent, else the media type', async (t) => {
  const at = '/paths/~1pets/post/requestBody/content';
  const expected = 'Content-Type: application/json, the JSON as it is';
  t.match(draft(request('POST', '/v1/pets', { 'content-encoding': 'gzip', 'content-type': 'application/json' }), 'unsupported_media_type', createPet), {
    status: 415,
    rule: at,
    subject: '«Content-Encoding: gzip»',
    sent: '«Content-Encoding: gzip»',
    expected,
  });
  t.match(
    draft(request('POST', '/v1/pets', { 'content-encoding': ' Identity ', 'content-type': 'text/plain' }), 'unsupported_media_type', createPet),
    {
      sent: '«Content-Type: text/plain»',
    },
    'identity is no encoding',
  );
  t.match(draft(request('POST', '/v1/pets'), 'unsupported_media_type', createPet), { sent: '«Content-Type: (none)»' });
});

t.test('a body over the limit and a target over the limit name this server’s limits (D4, D11)', async (t) => {
  t.match(draft(request('POST', '/v1/pets', { 'content-length': '5000' }), 'payload_too_large', createPet), {
    status: 413,
    rule: '/paths/~1pets/post/requestBody',
    sent: 'a body of 5000 bytes',
    expected: "a body of at most 100 bytes (this server's limit, D4)",
  });
  t.equal(draft(request('POST', '/v1/pets'), 'payload_too_large', createPet).sent, 'a body of more than the limit of bytes', 'a chunked body');
  const long = `/v1/${'a'.repeat(60)}`;
  t.match(draft(request('GET', long), 'uri_too_long', undefined), {
    status: 414,
    rule: '/paths',
    subject: 'uri_too_long',
    sent: `a request target of ${long.length} characters`,
    expected: "at most 50 bytes (this server's limit, D11)",
  });
});

t.test('a request without Host is told by RFC 9112 §3.2', async (t) => {
  t.match(draft(request('GET', '/v1/pets'), 'bad_request', undefined), {
    status: 400,
    rule: '/paths',
    subject: 'bad_request',
    sent: 'an HTTP/1.1 request without Host',
    expected: 'a Host header (RFC 9112 §3.2)',
  });
});

t.test('an id no pet has is told at the 404, by the last segment of the path; one that rounds from a given id is a warning naming both', async (t) => {
  t.match(draft(request('GET', '/v1/pets/12?x=1'), 'pet_not_found', getPet), {
    code: 'pet_not_found',
    severity: 'error',
    rule: '/paths/~1pets~1{petId}/get/responses/404',
    subject: '',
    sent: 'petId «12»',
    expected: 'an id this server gave (from createPet or listPets)',
  });
  const rounded = draft(request('GET', '/v1/pets/9007199254740996', {}, { culprit: { name: '9007199254740995' } }), 'pet_not_found', getPet);
  t.match(rounded, {
    code: 'rounded_id',
    severity: 'warning',
    rule: '/paths/~1pets~1{petId}/get/parameters/0',
    subject: '9007199254740995',
    sent: 'petId «9007199254740996»',
    expected: '9007199254740995, the id this server gave',
  });
  t.match(
    rounded.message,
    /^«9007199254740996» is not an id this server gave, but 9007199254740995 is, and JSON\.parse turns 9007199254740995 into «9007199254740996»/,
  );
  t.equal(
    rounded.hint,
    'was it rounded from 9007199254740995, an id this server gave? (JSON.parse keeps 53 bits)',
    'what the 404’s message ends with: the id the client was given',
  );
  t.notOk('hint' in draft(request('GET', '/v1/pets/12'), 'pet_not_found', getPet), 'a plain 404 has none: its Error says it already');
});
