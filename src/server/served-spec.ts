/**
 * The served contract: the OpenAPI document of what this server answers,
 * served at `/docs/openapi.json` and shown by the page at `/docs`. It is the
 * interface's document (spec/openapi.ts, which stays the seed's contract)
 * plus this project's decisions, generated from the two at start-up, never
 * written by hand:
 * - every status the server may answer beyond the declared ones, from the
 *   error catalogue (errors.ts: each code's status and scope), each with the
 *   Error body narrowed to its codes and status;
 * - `4XX` and `5XX` for the statuses a fault injected through the control API
 *   may choose (any from 400 to 599: 429 and 503 are the usual);
 * - the response headers with their formats: `Deprecation`, `Sunset`, `Link`
 *   on a deprecated operation (D7), `WWW-Authenticate` on 401 (D1),
 *   `Petstore-Fault` when a fault was injected, `Petstore-Finding` when the
 *   request showed findings (D23), the CORS fields (D8);
 * - what belongs to no operation (405 with `Allow`, 404 `route_not_found`,
 *   OPTIONS) under `x-petstore-other-answers`.
 * Where it goes beyond the interface it says so: `x-petstore-decision` on
 * each added response and header.
 */
import { openapi } from '../../spec/openapi.js';
import type { OperationDescriptor } from '../../spec/operations.js';
import { AUTH_REALM, GET_PET_DEPRECATED_SINCE } from './decisions.js';
import { errorCatalog, type ErrorCode, type ErrorScope } from './errors.js';

type Json = Record<string, unknown>;

const HTTP_DATE = '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$';
const METHOD_LIST = '^[A-Z]+(, [A-Z]+)*$';

const header = (description: string, schema: Json, example: string, decision: string) => ({
  description,
  schema: { type: 'string', ...schema },
  example,
  'x-petstore-decision': decision,
});

/** The headers an answer may carry beyond the interface's, by name as the server writes them. */
function headerCatalog(basePath: string) {
  return {
    Deprecation: header(
      'RFC 9745: the operation is deprecated, since this instant (`@` and Unix seconds)',
      { pattern: '^@[0-9]+$' },
      `@${Math.floor(GET_PET_DEPRECATED_SINCE.getTime() / 1000)}`,
      'D7',
    ),
    Sunset: header('RFC 8594: when the operation is removed (an HTTP-date)', { pattern: HTTP_DATE }, 'Thu, 05 Dec 2030 00:00:00 GMT', 'D7'),
    Link: header(
      'RFC 8288: the replacement of a deprecated operation',
      { pattern: '^<[^>]+>; rel="successor-version"$' },
      `<${basePath}/pets>; rel="successor-version"`,
      'D7',
    ),
    'WWW-Authenticate': header(
      'RFC 6750 §3: the challenge; `error="invalid_token"` when a key was presented and refused',
      { pattern: `^Bearer realm="${AUTH_REALM}"(, error="invalid_token", error_description="[^"]*")?$` },
      `Bearer realm="${AUTH_REALM}"`,
      'D1',
    ),
    Allow: header('RFC 9110 §10.2.1: the methods the path has', { pattern: METHOD_LIST }, 'GET, HEAD, POST', 'D2'),
    Location: header('RFC 9110 §15.3.2: the created pet (on a 201)', { pattern: `^${basePath}/pets/-?[0-9]+$` }, `${basePath}/pets/1`, 'D25'),
    'Petstore-Fault': header(
      'What a fault injected through the control API did to this answer (PUT /__control/faults/{operationId})',
      { pattern: '^(latency=[0-9]+ms|status=[0-9]{3}|drop)(; (latency=[0-9]+ms|status=[0-9]{3}|drop))*$' },
      'latency=200ms; status=503',
      'control API',
    ),
    'Petstore-Finding': header(
      'The codes of the findings this request showed (what the client got wrong: GET /__control/findings), in the order found; absent when it showed none',
      { pattern: '^[a-z_]+(, [a-z_]+)*$' },
      'rounded_id',
      'D23',
    ),
    'Access-Control-Allow-Origin': header(
      'CORS: any origin (the key is a bearer header, not a cookie); on answers to a request with Origin',
      { const: '*' },
      '*',
      'D8',
    ),
    'Access-Control-Expose-Headers': header(
      'CORS: the headers a page may read; on answers to a request with Origin',
      { pattern: '^[A-Za-z-]+(, [A-Za-z-]+)*$' },
      'Deprecation, Sunset, Link, WWW-Authenticate, Allow, Location, Petstore-Fault, Petstore-Finding',
      'D8',
    ),
    'Access-Control-Allow-Methods': header('CORS preflight: the methods of the path', { pattern: METHOD_LIST }, 'GET, HEAD, POST', 'D8'),
    'Access-Control-Allow-Headers': header(
      'CORS preflight: the request headers a page may send',
      { pattern: '^[A-Za-z-]+(, [A-Za-z-]+)*$' },
      'Authorization, Content-Type',
      'D8',
    ),
    'Access-Control-Max-Age': header('CORS preflight: seconds a browser may keep the answer', { pattern: '^[0-9]+$' }, '600', 'D8'),
  };
}

/** Whether a code of this scope can answer `operation`. */
function inScope(scope: ErrorScope, operation: OperationDescriptor): boolean {
  switch (scope) {
    case 'every':
      return true;
    case 'parameters':
      return operation.parameters.length > 0;
    case 'body':
      return operation.requestBody !== undefined;
    case 'lookup':
      return operation.parameters.some((p) => p.in === 'path');
    case 'sunset':
      return operation.sunset !== undefined;
    case 'create':
      return operation.method === 'POST';
    case 'path':
      return false;
  }
}

/** The spec's Error schema with `code` narrowed to `codes` and `status` to the answer's status (or range). */
function errorSchema(codes: readonly string[], status: Json): Json {
  const base = openapi.components.schemas.Error;
  return {
    type: 'object',
    required: [...base.required],
    properties: {
      code: { ...base.properties.code, enum: codes },
      message: base.properties.message,
      status: { ...base.properties.status, ...status },
    },
  };
}

function errorResponse(description: string, codes: readonly string[], status: Json, example: Json, headers: Json, decision = 'error catalogue'): Json {
  return { description, headers, content: { 'application/json': { schema: errorSchema(codes, status), example } }, 'x-petstore-decision': decision };
}

/**
 * A server in front of another (`petstore proxy`): what it answers itself on every operation, beyond what it
 * passes on, so that the served contract names those answers too.
 */
export interface ServedFront {
  /** Who serves the document, for its title: `petstore proxy`. */
  readonly name: string;
  /** What the description says of the answers: whose they are. */
  readonly note: string;
  /** Each Error the front answers with itself. */
  readonly answers: readonly { readonly status: number; readonly code: string; readonly meaning: string }[];
}

const byStatus = (codes: readonly ErrorCode[]) => {
  const map = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalog[code].status;
    map.set(status, [...(map.get(status) ?? []), code]);
  }
  return [...map.entries()].sort(([a], [b]) => a - b);
};

/** The served document for a server whose interface lives at `basePath`. */
export function servedDocument(operations: readonly OperationDescriptor[], basePath: string, front?: ServedFront): Json {
  const doc = JSON.parse(JSON.stringify(openapi)) as Json & { paths: Record<string, Record<string, Json>>; info: Json };
  const headers = headerCatalog(basePath);
  (doc['components'] as Json)['headers'] = headers;
  const ref = (name: keyof typeof headers) => ({ $ref: `#/components/headers/${name}` });
  doc['info'] = {
    ...doc.info,
    title: `${openapi.info.title}: as served by ${front?.name ?? 'petstore-harness'}`,
    description: front
      ? `${openapi.info.description}\n\n${front.note}`
      : `${openapi.info.description}\n\nThis is what the reference server (\`petstore serve\`) answers: the interface's document, ` +
        "plus the statuses, Error codes and headers of this project's decisions, each marked `x-petstore-decision`. " +
        'The interface itself promises only what it declares (spec/openapi.json).',
  };
  // Relative: the page that shows this document sends its requests to the server that served it.
  doc['servers'] = [{ url: basePath === '' ? '/' : basePath, description: 'this server' }];
  const codes = Object.keys(errorCatalog) as ErrorCode[];
  for (const operation of operations) {
    const item = doc.paths[operation.path]?.[operation.method.toLowerCase()] as Json & { responses: Record<string, Json> };
    if (!item) continue;
    const responses = servedResponses(operation, item.responses, doc, ref, codes);
    if (front) addFrontAnswers(responses, front);
    item.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  }
  doc['x-petstore-other-answers'] = otherAnswers(codes, ref);
  return doc;
}

type HeaderRef = (name: keyof ReturnType<typeof headerCatalog>) => Json;

/** The front's own Errors among an operation's answers: a status it shares gains its codes, another is added. */
function addFrontAnswers(responses: Record<string, Json>, front: ServedFront): void {
  const statuses = [...new Set(front.answers.map((answer) => answer.status))];
  for (const status of statuses) {
    const own = front.answers.filter((answer) => answer.status === status);
    const key = String(status);
    const media = (responses[key]?.['content'] as Record<string, Json> | undefined)?.['application/json'];
    const code = ((media?.['schema'] as Json | undefined)?.['properties'] as Record<string, { enum?: string[] }> | undefined)?.['code'];
    if (code?.enum) code.enum = [...code.enum, ...own.map((answer) => answer.code)];
    else {
      const example = { code: own[0]?.code, message: own[0]?.meaning, status };
      const description = own.map((answer) => answer.meaning).join(' ');
      const codes = own.map((answer) => answer.code);
      responses[key] = errorResponse(description, codes, { minimum: status, maximum: status }, example, {}, front.name);
    }
  }
}

/**
 * One operation's answers as this server gives them: the declared ones with
 * this server's headers, every catalogue code whose scope applies, and the
 * statuses an injected fault may choose.
 */
function servedResponses(
  operation: OperationDescriptor,
  declaredResponses: Record<string, Json>,
  doc: Json,
  ref: HeaderRef,
  codes: readonly ErrorCode[],
): Record<string, Json> {
  const always: Json = {
    'Petstore-Fault': ref('Petstore-Fault'),
    'Petstore-Finding': ref('Petstore-Finding'),
    'Access-Control-Allow-Origin': ref('Access-Control-Allow-Origin'),
    'Access-Control-Expose-Headers': ref('Access-Control-Expose-Headers'),
    ...(operation.deprecated ? { Deprecation: ref('Deprecation'), Sunset: ref('Sunset'), Link: ref('Link') } : {}),
  };
  const responses: Record<string, Json> = {};
  for (const [status, declared] of Object.entries(declaredResponses)) {
    const response = (declared['$ref'] ? JSON.parse(JSON.stringify(resolve(doc, declared['$ref'] as string))) : declared) as Json;
    const created = status === '201' ? { Location: ref('Location') } : {};
    responses[status] = { ...response, headers: { ...(response['headers'] as Json), ...always, ...created } };
  }
  const own = codes.filter((code) => inScope(errorCatalog[code].scope, operation) && code !== 'fault_injected');
  for (const [status, list] of byStatus(own)) {
    const key = String(status);
    const first = list[0] as ErrorCode;
    const example = { code: first, message: errorCatalog[first].meaning, status };
    const extra = status === 401 ? { 'WWW-Authenticate': ref('WWW-Authenticate') } : {};
    const declared = responses[key];
    if (declared) {
      // A declared error answer keeps its words and example; its body names the codes it may carry.
      const media = (declared['content'] as Record<string, Json>)['application/json'] as Json;
      responses[key] = {
        ...declared,
        headers: { ...(declared['headers'] as Json), ...extra },
        content: { 'application/json': { ...media, schema: errorSchema(list, { minimum: status, maximum: status }) } },
      };
    } else {
      responses[key] = errorResponse(list.map((c) => errorCatalog[c].meaning).join(' '), list, { minimum: status, maximum: status }, example, {
        ...always,
        ...extra,
      });
    }
  }
  // An injected fault answers any status from 400 to 599 the control API was given.
  const fault = { code: 'fault_injected', message: 'a fault injected through the control API (status 503)', status: 503 };
  responses['4XX'] = errorResponse(
    'A fault injected through the control API, with the status chosen there (429, for one)',
    ['fault_injected'],
    { minimum: 400, maximum: 499 },
    { ...fault, status: 429 },
    always,
  );
  responses['5XX'] = errorResponse(
    'A fault injected through the control API (503 unless another status was chosen), or a bug in the server',
    ['fault_injected', 'internal_error'],
    { minimum: 500, maximum: 599 },
    fault,
    always,
  );
  // 503 is a fault's status when none was chosen; and a fault may choose any status another answer has.
  if (!responses['503'])
    responses['503'] = errorResponse(errorCatalog.fault_injected.meaning, ['fault_injected'], { minimum: 503, maximum: 503 }, fault, always);
  for (const [key, response] of Object.entries(responses)) {
    if (!/^[45][0-9]{2}$/.test(key)) continue;
    const media = (response['content'] as Record<string, Json> | undefined)?.['application/json'];
    const code = ((media?.['schema'] as Json | undefined)?.['properties'] as Record<string, { enum?: string[] }> | undefined)?.['code'];
    if (code?.enum && !code.enum.includes('fault_injected')) code.enum = [...code.enum, 'fault_injected'];
  }
  return responses;
}

/** What no operation answers: another method on a path, a path that is no operation, OPTIONS. */
function otherAnswers(codes: readonly ErrorCode[], ref: HeaderRef): Json {
  // Unknown paths are refused before authentication, other methods after it (D2).
  const pathCodes = codes.filter((code) => ['path', 'every'].includes(errorCatalog[code].scope) && code !== 'fault_injected');
  return {
    description: 'Answers that belong to no operation of the interface (D2)',
    responses: Object.fromEntries(
      byStatus(pathCodes).map(([status, list]) => [
        String(status),
        errorResponse(
          list.map((c) => errorCatalog[c].meaning).join(' '),
          list,
          { minimum: status, maximum: status },
          { code: list[0], message: errorCatalog[list[0] as ErrorCode].meaning, status },
          {
            'Petstore-Finding': ref('Petstore-Finding'),
            'Access-Control-Allow-Origin': ref('Access-Control-Allow-Origin'),
            'Access-Control-Expose-Headers': ref('Access-Control-Expose-Headers'),
            ...(status === 405 ? { Allow: ref('Allow') } : status === 401 ? { 'WWW-Authenticate': ref('WWW-Authenticate') } : {}),
          },
        ),
      ]),
    ),
    options: {
      description: 'OPTIONS on a path of the interface: 204 with Allow, without authentication; a CORS preflight also gets Access-Control-Allow-*',
      headers: Object.fromEntries(
        (
          [
            'Allow',
            'Access-Control-Allow-Origin',
            'Access-Control-Expose-Headers',
            'Access-Control-Allow-Methods',
            'Access-Control-Allow-Headers',
            'Access-Control-Max-Age',
          ] as const
        ).map((name) => [name, ref(name)]),
      ),
    },
  };
}

function resolve(doc: Json, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Json)[key], doc);
}
