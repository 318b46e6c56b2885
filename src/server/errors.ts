/**
 * The one catalogue of Error `code`s the reference server answers with. The
 * seed leaves the set of codes open ("not shown"); this is this server's
 * choice, listed in the README, and a test keeps catalogue, spec and README
 * in step. Each code has exactly one HTTP status.
 */
/**
 * Which answers of the served document (served-spec.ts) a code belongs to,
 * read from the spec rather than named operation by operation: `every`
 * operation; those with `parameters`; those with a request `body`; those
 * that look a pet up by a path parameter (`lookup`); those with a `sunset`;
 * those that `create` (POST); `path`: no operation (a path or a method the
 * interface does not have).
 */
export type ErrorScope = 'every' | 'parameters' | 'body' | 'lookup' | 'sunset' | 'create' | 'path';

export const errorCatalog = {
  bad_request: { status: 400, scope: 'every', meaning: 'The request is not well-formed HTTP (rejected by the HTTP parser).' },
  invalid_parameter: {
    status: 400,
    scope: 'parameters',
    meaning:
      'A query or path parameter breaks the rules the spec gives it (`limit` not an integer within its bounds, `status` outside PetStatus, `petId` not an int64), or is given twice.',
  },
  malformed_json: {
    status: 400,
    scope: 'body',
    meaning: 'The body is not JSON: a syntax error, invalid UTF-8, nesting deeper than 32 levels or more than 10,000 members.',
  },
  invalid_body: {
    status: 400,
    scope: 'body',
    meaning:
      'The body is JSON but not a NewPet: missing or empty, not an object, a required field missing, or a field of the wrong type or value. The message names the field.',
  },
  unauthorized: { status: 401, scope: 'every', meaning: 'The API key is missing, empty, not sent with the Bearer scheme, or not accepted.' },
  route_not_found: { status: 404, scope: 'path', meaning: 'No operation of the interface lives at this path.' },
  pet_not_found: { status: 404, scope: 'lookup', meaning: 'No animal has the given `petId`.' },
  method_not_allowed: { status: 405, scope: 'path', meaning: 'The path exists but not with this method; the `Allow` header lists the methods it has.' },
  request_timeout: { status: 408, scope: 'every', meaning: 'The request did not arrive in time (headers within 10 s, the whole request within 30 s).' },
  gone: { status: 410, scope: 'sunset', meaning: 'The operation has passed its sunset date (getPet, from 5 December 2030 by the server clock).' },
  payload_too_large: { status: 413, scope: 'body', meaning: 'The request body is over the limit (1 MiB by default).' },
  uri_too_long: { status: 414, scope: 'every', meaning: 'The request target is longer than 8 KiB.' },
  unsupported_media_type: {
    status: 415,
    scope: 'body',
    meaning: 'A body was sent with a Content-Type other than `application/json` (a `charset=utf-8` parameter is fine).',
  },
  header_too_large: { status: 431, scope: 'every', meaning: 'The request headers are over 16 KiB.' },
  fault_injected: {
    status: 503,
    scope: 'every',
    meaning:
      'A fault injected through the control API (`PUT /__control/faults/{operationId}`), with the status chosen there (503 when none was); the `Petstore-Fault` header says so.',
  },
  store_unavailable: {
    status: 503,
    scope: 'every',
    meaning:
      'The shared store (`--store redis://…`) cannot be reached or did not answer in time; `Retry-After` says when to try again. Never answered by the in-memory store.',
  },
  internal_error: { status: 500, scope: 'every', meaning: 'A bug in the server. It never answers this to anything a client sends; please report it.' },
  storage_full: { status: 507, scope: 'create', meaning: 'The store holds `--max-pets` animals already; existing animals are intact.' },
} as const satisfies Record<string, { status: number; scope: ErrorScope; meaning: string }>;

export type ErrorCode = keyof typeof errorCatalog;

export function statusOf(code: ErrorCode): number {
  return errorCatalog[code].status;
}

/**
 * The JSON of an Error body: `{code, message, status}` with `status` equal to
 * the HTTP status. Only an injected fault may answer with another status.
 */
export function errorJson(code: ErrorCode, message: string, status: number = errorCatalog[code].status): string {
  return JSON.stringify({ code, message, status });
}

/** The message of an Error body as errorJson wrote it; '' when the body is none or not one. */
export function errorMessage(body: string | Buffer | undefined): string {
  try {
    return String((JSON.parse(body === undefined ? '{}' : body.toString()) as { message?: unknown }).message ?? '');
  } catch {
    return '';
  }
}
