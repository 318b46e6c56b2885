/**
 * Every check of a request against the spec, each making a FindingDraft for
 * the ledger: the refusals (what the client got wrong, from the Error it was
 * answered) and the warnings (what it relies on that the interface does not
 * promise). Compiled once per server; drafts that recur on every request of
 * a kind (a deprecated call, a refused key) are built once and reused, so a
 * repeated mistake costs the ledger's count and nothing else.
 */
import type { OperationDescriptor } from '../../../spec/operations.js';
import { statusOf, type ErrorCode } from '../errors.js';
import type { Limits } from '../decisions.js';
import { authorizationForm, isCanonicalBearer, keyElsewhere } from './auth-form.js';
import { MAX_SHOWN_CHARS, type FindingCode, type FindingDraft } from './finding.js';
import type { FindingLedger, NotedRequest } from './ledger.js';
import { nearestName } from './nearest.js';
import {
  AUTH_RULE,
  AUTH_SEED,
  bodyFieldRule,
  bodySchemaRule,
  describeSchema,
  operationRule,
  parameterRule,
  PATHS_RULE,
  pathRule,
  seedSection,
} from './pointers.js';
import { cutShown, shownValue } from './shown.js';

/** What a refusal's finding needs to know beyond the Error: the parameter or field it was about, set where the request was refused. */
export interface Culprit {
  /** A parameter's or field's name (`limit`, `categoryId`), a path template for a 405, an id for a rounded one. */
  readonly name: string;
  /** What was sent for it, as shown (redacted, short); absent when it was missing. */
  readonly sent?: string;
}

/** The request as the checks read it. */
export interface CheckedRequest extends NotedRequest {
  readonly req: NotedRequest['req'] & { readonly headers: Record<string, string | string[] | undefined>; readonly rawHeaders: readonly string[] };
  readonly operation?: OperationDescriptor | undefined;
  readonly culprit?: Culprit | undefined;
  readonly requestBody?: Buffer | undefined;
}

export interface FindingChecksOptions {
  readonly ledger: FindingLedger;
  readonly operations: readonly OperationDescriptor[];
  readonly basePath: string;
  readonly limits: Limits;
  readonly redact: (text: string) => string;
  readonly keys: readonly string[];
}

/** The Error codes that say the client got something wrong; the rest (a fault, a full store, a bug) are not its doing. */
const CLIENT_CODES: ReadonlySet<string> = new Set<FindingCode>([
  'unauthorized',
  'route_not_found',
  'method_not_allowed',
  'invalid_parameter',
  'invalid_body',
  'malformed_json',
  'unsupported_media_type',
  'payload_too_large',
  'uri_too_long',
  'bad_request',
  'pet_not_found',
  'gone',
]);

export type FindingChecks = ReturnType<typeof createFindingChecks>;

export function createFindingChecks(options: FindingChecksOptions) {
  const { ledger, operations, basePath, limits, redact, keys } = options;
  const shown = (text: string) => cutShown(redact(text), MAX_SHOWN_CHARS, keys);
  const listing = operations.map((op) => `${op.method} ${basePath}${op.path}`).join(', ');

  const perOperation = new Map<OperationDescriptor, { deprecated?: FindingDraft; gone?: FindingDraft }>();
  for (const op of operations) perOperation.set(op, prepare(op));

  /** The drafts of an operation that never vary. */
  function prepare(op: OperationDescriptor): { deprecated?: FindingDraft; gone?: FindingDraft } {
    if (!op.deprecated) return {};
    const replacement = operations.find((other) => other.operationId === op.replacement);
    const instead = replacement
      ? `${replacement.method} ${basePath}${replacement.path}${replacement.parameters.some((p) => p.name === 'status') ? '?status=…' : ''} (${replacement.operationId})`
      : 'another operation';
    const sunset = op.sunset ? ` on ${op.sunset.toUTCString().replace(' 00:00:00 GMT', '')}` : '';
    const base = { rule: operationRule(op), subject: '', seed: `${seedSection(op)}, §9 Versioning`, operationId: op.operationId };
    return {
      deprecated: {
        ...base,
        rule: `${operationRule(op)}/deprecated`,
        code: 'deprecated_operation',
        severity: 'warning',
        sent: `${op.method} ${basePath}${op.path}`,
        expected: instead,
        message: `${op.operationId} is deprecated and will answer 410 Gone from its sunset${sunset}: move to ${instead}`,
      },
      ...(op.sunset
        ? {
            gone: {
              ...base,
              rule: `${operationRule(op)}/x-sunset`,
              code: 'gone',
              severity: 'error',
              status: statusOf('gone'),
              sent: `${op.method} ${basePath}${op.path}`,
              expected: instead,
              message: `${op.operationId} was removed${sunset} (its sunset): use ${instead}`,
            },
          }
        : {}),
    };
  }

  const authDraft = (subject: string, sent: string, message: string): FindingDraft => ({
    code: 'unauthorized',
    severity: 'error',
    status: statusOf('unauthorized'),
    rule: AUTH_RULE,
    subject,
    seed: AUTH_SEED,
    sent,
    expected: 'Authorization: Bearer <API_KEY>, with a key this server accepts',
    message,
  });
  const REFUSED_KEY = authDraft(
    'invalid',
    'Authorization: Bearer <a key this server does not accept>',
    'the key is not one this server accepts: check which key the client sends',
  );
  const NO_HEADER = authDraft('none', 'no Authorization header', 'the request carries no key: send Authorization: Bearer <API_KEY>');
  const REPEATED = authDraft(
    'repeated',
    'two Authorization fields',
    'the request carries two Authorization fields: send exactly one, Authorization: Bearer <API_KEY>',
  );
  /** Drafts by the form of the header, made once per form (the rule keeps at most a bounded number of them). */
  const byForm = new Map<string, FindingDraft>();

  function unauthorized(x: CheckedRequest): FindingDraft {
    const header = x.req.headers['authorization'];
    if (typeof header !== 'string' || header.trim() === '') {
      const elsewhere = keyElsewhere({ headers: x.req.headers, url: x.req.url });
      if (elsewhere === undefined) return NO_HEADER;
      return formDraft(`elsewhere ${elsewhere}`, () =>
        authDraft(
          `elsewhere ${elsewhere}`,
          `no Authorization header; a key in ${elsewhere}?`,
          `the key goes in Authorization: Bearer <API_KEY>, not in ${elsewhere}`,
        ),
      );
    }
    if (countAuthorization(x.req.rawHeaders) > 1) return REPEATED;
    if (isCanonicalBearer(header)) return REFUSED_KEY;
    const form = authorizationForm(header, redact);
    // A Bearer key in a looser form that was still refused: the key itself is wrong.
    if (/^Authorization: bearer /i.test(form) && form.endsWith('<key>')) return REFUSED_KEY;
    return formDraft(form, () =>
      authDraft(form, form, `send the key as Authorization: Bearer <API_KEY> (the Bearer scheme, one space, the key), not as ${form}`),
    );
  }

  function formDraft(form: string, make: () => FindingDraft): FindingDraft {
    let draft = byForm.get(form);
    if (draft === undefined) {
      draft = make();
      // Bounded: past 64 forms, each is made afresh (the ledger still bounds what it keeps).
      if (byForm.size < 64) byForm.set(form, draft);
    }
    return draft;
  }

  return {
    ledger,

    /** A call of a deprecated operation, which was served. */
    deprecated(x: CheckedRequest, op: OperationDescriptor): void {
      const draft = perOperation.get(op)?.deprecated;
      if (draft) ledger.note(x, draft);
    },

    /** An accepted key sent in a form other than `Bearer <key>` (`bearer`, two spaces). */
    keyForm(x: CheckedRequest, header: string): void {
      if (isCanonicalBearer(header)) return;
      const form = authorizationForm(header, redact);
      ledger.note(
        x,
        formDraft(`accepted ${form}`, () => ({
          code: 'key_form',
          severity: 'warning',
          rule: AUTH_RULE,
          subject: `accepted ${form}`,
          seed: AUTH_SEED,
          sent: form,
          expected: 'Authorization: Bearer <API_KEY> (the scheme as written, one space, the key)',
          message: `this server accepted ${form}, as RFC 6750 allows, but the interface promises only Bearer <API_KEY>: another implementation or a gateway may refuse it`,
        })),
      );
    },

    /** A query parameter the operation does not have: ignored by the server (D3), so the client's intent is lost. */
    unknownQuery(x: CheckedRequest, op: OperationDescriptor, name: string, value: string): void {
      const known = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      const near = nearestName(name, known);
      const shownName = shown(name);
      ledger.note(x, {
        code: 'unknown_query_parameter',
        severity: 'warning',
        rule: `${operationRule(op)}/parameters`,
        subject: shownName,
        seed: seedSection(op),
        operationId: op.operationId,
        sent: shown(value === '' ? name : `${name}=${value}`),
        expected: known.length === 0 ? `${op.operationId} takes no query parameters` : `${known.join(' or ')}${near ? `; did you mean ${near}?` : ''}`,
        message: `${op.operationId} has no query parameter ${shownName}: it was ignored${near ? ` (did you mean ${near}?)` : ''}, so the answer is not filtered or limited by it`,
      });
    },

    /** A body field the schema does not declare: ignored, never stored (D4). */
    unknownField(x: CheckedRequest, op: OperationDescriptor, name: string, valueJson: string): void {
      const schema = op.requestBody?.schema;
      const known = Object.keys((schema?.['properties'] ?? {}) as object);
      const near = nearestName(name, known);
      const shownName = shown(name);
      ledger.note(x, {
        code: 'unknown_body_field',
        severity: 'warning',
        rule: bodyFieldRule(op, undefined, 'unknown'),
        subject: shownName,
        seed: `§2 Resources (NewPet), ${seedSection(op)}`,
        operationId: op.operationId,
        sent: `${shownName}: ${shownValue(valueJson, redact)}`,
        expected: `only ${known.join(', ')}${near ? `; did you mean ${near}?` : ''}`,
        message: `the body field ${shownName} is not part of the interface: it was ignored and not stored${near ? ` (did you mean ${near}?)` : ''}`,
      });
    },

    /** A refused request: the Error it got, read as a finding. `message` is the Error's. */
    refused(x: CheckedRequest, code: ErrorCode, message: () => string): void {
      if (!CLIENT_CODES.has(code)) return;
      if (code === 'unauthorized') return ledger.note(x, unauthorized(x));
      const op = x.operation;
      if (code === 'gone' && op) {
        const draft = perOperation.get(op)?.gone;
        if (draft) return ledger.note(x, draft);
      }
      ledger.note(x, refusal(x, code, op, message()));
    },
  };

  /** The draft of a refusal other than a 401 or a 410: made per refused request, off the path of every accepted one. */
  function refusal(x: CheckedRequest, code: ErrorCode, op: OperationDescriptor | undefined, message: string): FindingDraft {
    const method = x.req.method ?? 'GET';
    const target = x.req.url ?? '/';
    const path = target.split('?')[0] as string;
    const culprit = x.culprit;
    const base = {
      code: code as FindingCode,
      severity: 'error' as const,
      status: statusOf(code),
      message: shown(message),
      ...(op ? { operationId: op.operationId, seed: seedSection(op) } : { seed: '§4 Endpoints' }),
    };
    switch (code) {
      case 'route_not_found': {
        const near = nearestOperation(method, path);
        return {
          ...base,
          rule: PATHS_RULE,
          subject: shown(`${method} ${path}`),
          sent: shown(`${method} ${path}`),
          expected: near ? `${near} (the nearest); the interface has ${listing}` : `one of ${listing}`,
        };
      }
      case 'method_not_allowed': {
        const template = culprit?.name ?? path;
        const allowed = operations.filter((o) => o.path === template).map((o) => o.method);
        return {
          ...base,
          rule: pathRule(template),
          subject: `${method} ${template}`,
          sent: shown(`${method} ${path}`),
          expected: `${allowed.join(' or ')} on ${basePath}${template}`,
        };
      }
      case 'invalid_parameter': {
        const parameter = op?.parameters.find((p) => p.name === culprit?.name);
        return {
          ...base,
          rule: op ? parameterRule(op, culprit?.name ?? '') : PATHS_RULE,
          subject: culprit?.name ?? '',
          sent: shown(culprit?.sent ?? target),
          expected: parameter
            ? `${parameter.in} parameter ${parameter.name}: ${describeSchema(parameter.schema)}, given at most once`
            : 'parameters as the spec gives them',
        };
      }
      case 'invalid_body': {
        if (!op) break;
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
            sent: culprit?.sent === undefined ? 'a body' : shownValue(culprit.sent, redact),
            expected: describeSchema(op.requestBody?.schema),
          };
        const missing = culprit?.sent === undefined;
        return {
          ...base,
          rule: bodyFieldRule(op, top, missing ? 'required' : 'declared'),
          subject: missing ? `missing ${top}` : top,
          sent: missing ? `no ${top}` : `${top}: ${shownValue(culprit?.sent ?? '', redact)}`,
          expected: `${top}: ${describeSchema(declared)}${missing ? ' (required)' : ''}`,
        };
      }
      case 'malformed_json':
        if (!op) break;
        return {
          ...base,
          rule: `${operationRule(op)}/requestBody/content`,
          subject: '',
          sent: 'a body that is not JSON',
          expected: `${describeSchema(op.requestBody?.schema)}, as JSON`,
        };
      case 'unsupported_media_type': {
        if (!op) break;
        const encoding = x.req.headers['content-encoding'];
        const type = x.req.headers['content-type'];
        const sent =
          typeof encoding === 'string' && encoding.trim().toLowerCase() !== 'identity' ? `Content-Encoding: ${encoding}` : `Content-Type: ${type ?? '(none)'}`;
        return {
          ...base,
          rule: `${operationRule(op)}/requestBody/content`,
          subject: shown(sent),
          sent: shown(sent),
          expected: 'Content-Type: application/json, the JSON as it is',
        };
      }
      case 'payload_too_large':
        if (!op) break;
        return {
          ...base,
          rule: `${operationRule(op)}/requestBody`,
          subject: '',
          sent: `a body of ${x.req.headers['content-length'] ?? 'more than the limit of'} bytes`,
          expected: `a body of at most ${limits.maxBodyBytes} bytes (this server's limit, D4)`,
        };
      case 'uri_too_long':
        return {
          ...base,
          rule: PATHS_RULE,
          subject: 'uri_too_long',
          sent: `a request target of ${target.length} characters`,
          expected: `at most ${limits.maxUrlBytes} bytes (this server's limit, D11)`,
        };
      case 'pet_not_found': {
        if (!op) break;
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
            sent: `${petId?.name ?? 'id'} ${shown(requested)}`,
            expected: `${culprit.name}, the id this server gave`,
            message: `${shown(requested)} is not an id this server gave, but ${culprit.name} is, and JSON.parse turns ${culprit.name} into ${shown(requested)}: the client reads int64 ids as JavaScript numbers and rounds them; keep them as strings or bigints (the README shows how)`,
          };
        }
        return {
          ...base,
          rule: `${operationRule(op)}/responses/404`,
          subject: '',
          sent: `${petId?.name ?? 'id'} ${shown(requested)}`,
          expected: 'an id this server gave (from createPet or listPets)',
        };
      }
      case 'bad_request':
        return { ...base, rule: PATHS_RULE, subject: 'bad_request', sent: 'an HTTP/1.1 request without Host', expected: 'a Host header (RFC 9112 §3.2)' };
      default:
        break;
    }
    return {
      ...base,
      rule: op ? operationRule(op) : PATHS_RULE,
      subject: code,
      sent: shown(`${method} ${target}`),
      expected: 'a request as the spec describes it',
    };
  }

  /** The operation whose path is nearest the one sent, as `GET /v1/pets`, when one is close: of the method sent, if the path has it. */
  function nearestOperation(method: string, path: string): string | undefined {
    const relative = path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
    const sent = relative.split('/');
    const candidates = new Map<string, OperationDescriptor[]>();
    for (const op of operations) {
      // A template's parameters take the segment sent in their place, so /pet/7 is near /pets/{petId}.
      const filled = op.path
        .split('/')
        .map((segment, i) => (segment.startsWith('{') ? (sent[i] ?? segment) : segment))
        .join('/');
      candidates.set(filled, [...(candidates.get(filled) ?? []), op]);
    }
    // Paths of as many segments first: /pet/7 is nearer /pets/{petId} than /pets.
    const keys = [...candidates.keys()];
    const near =
      nearestName(
        relative,
        keys.filter((k) => k.split('/').length === sent.length),
      ) ?? nearestName(relative, keys);
    const ops = near === undefined ? undefined : candidates.get(near);
    const op = ops?.find((o) => o.method === method) ?? ops?.[0];
    return op ? `${op.method} ${basePath}${op.path}` : undefined;
  }
}

function countAuthorization(rawHeaders: readonly string[]): number {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if ((rawHeaders[i] as string).toLowerCase() === 'authorization') seen++;
  return seen;
}
