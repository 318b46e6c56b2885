/**
 * The diagnosis of a refused request other than a 401 or a 410: the Error it
 * got, read as a finding, with the rule it broke and what the interface
 * expects instead. Made per refused request, off the path of every accepted one.
 */
import type { OperationDescriptor } from '../../../spec/operations.js';
import type { Limits } from '../decisions.js';
import { statusOf, type ErrorCode } from '../errors.js';
import type { CheckedRequest, Culprit } from './checked-request.js';
import type { FindingCode, FindingDraft } from './finding.js';
import { nearestOperation } from './nearest-operation.js';
import { bodyFieldRule, bodySchemaRule, describeSchema, operationRule, parameterRule, PATHS_RULE, pathRule, seedSection } from './pointers.js';
import { shownValue } from './shown.js';

/** What the diagnosis reads beyond the request: the server's operations and limits, and how texts from the request are shown. */
export interface RefusalContext {
  readonly operations: readonly OperationDescriptor[];
  readonly basePath: string;
  readonly limits: Limits;
  readonly redact: (text: string) => string;
  /** A text from the request as a finding shows it: redacted, cut. */
  readonly shown: (text: string) => string;
  /** Every operation, as `GET /v1/pets`, comma-separated. */
  readonly listing: string;
}

/** What every refusal's draft has, from the Error: the rest says what was wrong. */
type RefusalBase = Omit<FindingDraft, 'rule' | 'subject' | 'sent' | 'expected'>;

/** The draft of a refusal other than a 401 or a 410: made per refused request, off the path of every accepted one. */
export function refusalDraft(ctx: RefusalContext, x: CheckedRequest, code: ErrorCode, op: OperationDescriptor | undefined, message: string): FindingDraft {
  const method = x.req.method ?? 'GET';
  const target = x.req.url ?? '/';
  const path = target.split('?')[0] as string;
  const base: RefusalBase = {
    code: code as FindingCode,
    severity: 'error' as const,
    status: statusOf(code),
    message: ctx.shown(message),
    ...(op ? { operationId: op.operationId, seed: seedSection(op) } : { seed: '§4 Endpoints' }),
  };
  return (
    diagnose(ctx, x, code, op, base, method, target, path) ?? {
      ...base,
      rule: op ? operationRule(op) : PATHS_RULE,
      subject: code,
      sent: ctx.shown(`${method} ${target}`),
      expected: 'a request as the spec describes it',
    }
  );
}

/** The draft particular to the Error's code, when there is one for it (some need the operation). */
function diagnose(
  ctx: RefusalContext,
  x: CheckedRequest,
  code: ErrorCode,
  op: OperationDescriptor | undefined,
  base: RefusalBase,
  method: string,
  target: string,
  path: string,
): FindingDraft | undefined {
  const culprit = x.culprit;
  switch (code) {
    case 'route_not_found':
      return routeNotFound(ctx, base, method, path);
    case 'method_not_allowed':
      return methodNotAllowed(ctx, base, culprit, method, path);
    case 'invalid_parameter':
      return invalidParameter(ctx, base, culprit, op, target);
    case 'invalid_body':
      return op && invalidBody(ctx, base, x, op);
    case 'malformed_json':
      return (
        op && {
          ...base,
          rule: `${operationRule(op)}/requestBody/content`,
          subject: '',
          sent: 'a body that is not JSON',
          expected: `${describeSchema(op.requestBody?.schema)}, as JSON`,
        }
      );
    case 'unsupported_media_type':
      return op && unsupportedMediaType(ctx, base, x, op);
    case 'payload_too_large':
      return (
        op && {
          ...base,
          rule: `${operationRule(op)}/requestBody`,
          subject: '',
          sent: `a body of ${x.req.headers['content-length'] ?? 'more than the limit of'} bytes`,
          expected: `a body of at most ${ctx.limits.maxBodyBytes} bytes (this server's limit, D4)`,
        }
      );
    case 'uri_too_long':
      return {
        ...base,
        rule: PATHS_RULE,
        subject: 'uri_too_long',
        sent: `a request target of ${target.length} characters`,
        expected: `at most ${ctx.limits.maxUrlBytes} bytes (this server's limit, D11)`,
      };
    case 'pet_not_found':
      return op && petNotFound(ctx, base, culprit, op, path);
    case 'bad_request':
      return { ...base, rule: PATHS_RULE, subject: 'bad_request', sent: 'an HTTP/1.1 request without Host', expected: 'a Host header (RFC 9112 §3.2)' };
    default:
      return undefined;
  }
}

/** No operation at the path: the nearest one, and every one the interface has. */
function routeNotFound(ctx: RefusalContext, base: RefusalBase, method: string, path: string): FindingDraft {
  const near = nearestOperation(ctx.operations, ctx.basePath, method, path);
  return {
    ...base,
    rule: PATHS_RULE,
    subject: ctx.shown(`${method} ${path}`),
    sent: ctx.shown(`${method} ${path}`),
    expected: near ? `${near} (the nearest); the interface has ${ctx.listing}` : `one of ${ctx.listing}`,
  };
}

/** A method the path does not have: the culprit is the path's template. */
function methodNotAllowed(ctx: RefusalContext, base: RefusalBase, culprit: Culprit | undefined, method: string, path: string): FindingDraft {
  const template = culprit?.name ?? path;
  const allowed = ctx.operations.filter((o) => o.path === template).map((o) => o.method);
  return {
    ...base,
    rule: pathRule(template),
    subject: `${method} ${template}`,
    sent: ctx.shown(`${method} ${path}`),
    expected: `${allowed.join(' or ')} on ${ctx.basePath}${template}`,
  };
}

/** A parameter that is not as the spec gives it: the culprit is the parameter. */
function invalidParameter(
  ctx: RefusalContext,
  base: RefusalBase,
  culprit: Culprit | undefined,
  op: OperationDescriptor | undefined,
  target: string,
): FindingDraft {
  const parameter = op?.parameters.find((p) => p.name === culprit?.name);
  return {
    ...base,
    rule: op ? parameterRule(op, culprit?.name ?? '') : PATHS_RULE,
    subject: culprit?.name ?? '',
    sent: ctx.shown(culprit?.sent ?? target),
    expected: parameter
      ? `${parameter.in} parameter ${parameter.name}: ${describeSchema(parameter.schema)}, given at most once`
      : 'parameters as the spec gives them',
  };
}

/** A body that is missing or not as the schema has it: the culprit is the field, when one is to blame. */
function invalidBody(ctx: RefusalContext, base: RefusalBase, x: CheckedRequest, op: OperationDescriptor): FindingDraft {
  const culprit = x.culprit;
  if (x.requestBody === undefined)
    return {
      ...base,
      rule: `${operationRule(op)}/requestBody/required`,
      subject: 'no body',
      sent: 'no body',
      expected: describeSchema(op.requestBody?.schema),
    };
  const field = culprit?.name ?? '';
  const top = field.split(/[.[]/)[0] as string;
  const properties = (op.requestBody?.schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const declared = properties[top];
  if (top === '' || !declared)
    return {
      ...base,
      rule: bodySchemaRule(op),
      subject: '',
      sent: culprit?.sent === undefined ? 'a body' : shownValue(culprit.sent, ctx.redact),
      expected: describeSchema(op.requestBody?.schema),
    };
  const missing = culprit?.sent === undefined;
  return {
    ...base,
    rule: bodyFieldRule(op, top, missing ? 'required' : 'declared'),
    subject: missing ? `missing ${top}` : top,
    sent: missing ? `no ${top}` : `${top}: ${shownValue(culprit?.sent ?? '', ctx.redact)}`,
    expected: `${top}: ${describeSchema(declared)}${missing ? ' (required)' : ''}`,
  };
}

/** A body that is not JSON as it is: an encoding, when one was sent, else the type. */
function unsupportedMediaType(ctx: RefusalContext, base: RefusalBase, x: CheckedRequest, op: OperationDescriptor): FindingDraft {
  const encoding = x.req.headers['content-encoding'];
  const type = x.req.headers['content-type'];
  const sent =
    typeof encoding === 'string' && encoding.trim().toLowerCase() !== 'identity' ? `Content-Encoding: ${encoding}` : `Content-Type: ${type ?? '(none)'}`;
  return {
    ...base,
    rule: `${operationRule(op)}/requestBody/content`,
    subject: ctx.shown(sent),
    sent: ctx.shown(sent),
    expected: 'Content-Type: application/json, the JSON as it is',
  };
}

/**
 * No pet has the id. With a culprit, an id this server gave rounds to the one
 * sent: not the client's mistake of an id, but its JSON.parse's (a warning).
 */
function petNotFound(ctx: RefusalContext, base: RefusalBase, culprit: Culprit | undefined, op: OperationDescriptor, path: string): FindingDraft {
  const petId = op.parameters.find((p) => p.in === 'path');
  const rule = petId ? parameterRule(op, petId.name) : operationRule(op);
  const requested = path.slice(path.lastIndexOf('/') + 1);
  if (culprit !== undefined) {
    return {
      ...base,
      code: 'rounded_id',
      severity: 'warning',
      rule,
      subject: culprit.name,
      sent: `${petId?.name ?? 'id'} ${ctx.shown(requested)}`,
      expected: `${culprit.name}, the id this server gave`,
      message: `${ctx.shown(requested)} is not an id this server gave, but ${culprit.name} is, and JSON.parse turns ${culprit.name} into ${ctx.shown(requested)}: the client reads int64 ids as JavaScript numbers and rounds them; keep them as strings or bigints (docs/stand-in.md in the package shows how, for fetch and for openapi-fetch)`,
      hint: `was it rounded from ${culprit.name}, an id this server gave? (JSON.parse keeps 53 bits)`,
    };
  }
  return {
    ...base,
    rule: `${operationRule(op)}/responses/404`,
    subject: '',
    sent: `${petId?.name ?? 'id'} ${ctx.shown(requested)}`,
    expected: 'an id this server gave (from createPet or listPets)',
  };
}
