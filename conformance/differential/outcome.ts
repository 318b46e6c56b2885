/**
 * What a client acts on in an answer, abstracted so that two implementations
 * of the interface can be compared on the same request: served or refused,
 * and why; whether it carries pet data. And what a request carried: the key
 * (anywhere, or exactly as the interface takes it), names the spec does not
 * know, fields that intermediaries act on.
 */
import type { OperationDescriptor } from '../../spec/operations.js';
import { isObject } from '../../spec/json/is-object.js';
import type { WireRequest, WireResponse } from '../client.js';
import { isPetShaped } from '../knowledge.js';

/** served: 2xx (or a 304); refused-credential: 401; refused: another 4xx but 404, 410 and 429; missing: 404 or 410. */
export type Outcome = 'served' | 'refused-credential' | 'refused' | 'missing' | 'limited' | 'failed' | 'other';

export function outcomeOf(response: Pick<WireResponse, 'status'>): Outcome {
  const { status } = response;
  if ((status >= 200 && status < 300) || status === 304) return 'served';
  if (status === 401) return 'refused-credential';
  if (status === 404 || status === 410) return 'missing';
  if (status === 429) return 'limited';
  if (status >= 400 && status < 500) return 'refused';
  if (status >= 500) return 'failed';
  return 'other';
}

/** A 2xx whose body holds a pet (an object with an id and a name or categoryId) or a list. */
export function servesPetData(response: WireResponse): boolean {
  if (response.status < 200 || response.status >= 300) return false;
  const body = response.json;
  if (Array.isArray(body)) return true;
  return isObject(body) && isPetShaped(body);
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

export const isWrite = (request: WireRequest): boolean => !SAFE.has(request.method.toUpperCase());

/** Every text the key may travel as: itself, percent-encoded, and base64 alone or as Basic's `user:key` and `key:`. */
function keyForms(key: string): string[] {
  const b64 = (text: string) => Buffer.from(text).toString('base64').replace(/=+$/, '');
  return [key, encodeURIComponent(key), b64(key), b64(`:${key}`), b64(`${key}:`)];
}

/** Whether the key appears anywhere in the request: its path, any header field, its body. */
export function keyAppears(request: WireRequest, key: string): boolean {
  const texts = [request.path, request.body ?? '', ...Object.values(request.headers).flat()];
  const forms = keyForms(key);
  return texts.some((text) => forms.some((form) => text.includes(form)));
}

/** Whether the request's one Authorization field (its name in any case: RFC 9110 §5.1) is the valid credential, exactly as the interface takes it (§5.2). */
export function exactCredential(request: WireRequest, authorization: string): boolean {
  const fields = Object.entries(request.headers).filter(([name]) => name.toLowerCase() === 'authorization');
  return fields.length === 1 && fields[0]![1] === authorization;
}

/** The query parameter names and body members the operation's spec does not name. */
export function unknownNames(request: WireRequest, op: OperationDescriptor | undefined): string[] {
  if (!op) return [];
  const query = request.path.includes('?') ? request.path.slice(request.path.indexOf('?') + 1) : '';
  const known = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  const names = [...new URLSearchParams(query).keys()].filter((name) => !known.has(name));
  const properties = Object.keys((op.requestBody?.schema['properties'] ?? {}) as object);
  if (request.body !== undefined && properties.length > 0) {
    try {
      const body = JSON.parse(request.body) as unknown;
      if (typeof body === 'object' && body !== null && !Array.isArray(body)) names.push(...Object.keys(body).filter((name) => !properties.includes(name)));
    } catch {
      // Not JSON: no members to name.
    }
  }
  return names;
}
