/**
 * Request builders shared by the families: a valid request for any operation
 * (so that every family can target every operation the spec has), and the
 * spec facts the checks read (the page-size and filter parameters).
 */
import fc from 'fast-check';
import type { OperationDescriptor, ParameterDescriptor } from '../../spec/operations.js';
import type { JsonObject } from '../../spec/json/index.js';
import { fillPath, pathValue, queryParameters, queryString, sampleValidBody, validBody, validQuery, type GeneratedBody } from '../arbitraries/requests.js';
import { idOf } from '../knowledge.js';
import { expectStatus } from '../check.js';
import type { WireRequest, WireResponse } from '../client.js';
import { Violation, type CheckContext, type Family } from '../vocabulary.js';
import { isObject } from '../../spec/json/is-object.js';

export interface PlannedRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: GeneratedBody;
  readonly description: string;
}

/** Any request the operation's parameters and body schema allow. */
export function validRequest(op: OperationDescriptor, prefix: string): fc.Arbitrary<PlannedRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const path = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p)])) as Record<string, fc.Arbitrary<string>>);
  const body = op.requestBody ? validBody(op, prefix).map((b): GeneratedBody | undefined => b) : fc.constant(undefined);
  return fc.tuple(path, validQuery(op), body).map(([pathValues, query, generated]) => ({
    method: op.method,
    path: fillPath(op.path, pathValues) + queryString(query),
    ...(generated ? { body: generated } : {}),
    description: `${op.method} ${op.path}`,
  }));
}

export function sendPlanned(ctx: CheckContext, family: Family, op: OperationDescriptor, planned: PlannedRequest, auth?: string | null) {
  return ctx.send(family, {
    method: planned.method,
    path: planned.path,
    operationId: op.operationId,
    ...(planned.body ? { body: planned.body.text } : {}),
    ...(auth !== undefined ? { auth } : {}),
  });
}

/** The integer query parameter with a maximum: the page size (`limit`). */
export function pageSizeParameter(op: OperationDescriptor): ParameterDescriptor | undefined {
  return queryParameters(op).find((p) => p.schema['type'] === 'integer' && typeof p.schema['maximum'] === 'number');
}

/** Query parameters whose name is a property of the listed items: filters (`status`). */
export function filterParameters(op: OperationDescriptor): ParameterDescriptor[] {
  const items = (op.responses.find((r) => r.status === 200)?.schema?.['items'] ?? {}) as { properties?: object };
  const names = Object.keys(items.properties ?? {});
  return queryParameters(op).filter((p) => names.includes(p.name));
}

/** The operation that lists (GET without path parameters, answering an array). */
export function listOperation(ctx: CheckContext): OperationDescriptor | undefined {
  return ctx.operations.find(
    (op) => op.method === 'GET' && !op.path.includes('{') && op.responses.some((r) => r.status === 200 && r.schema?.['type'] === 'array'),
  );
}

/** The operation that creates (POST with a body answering 201). */
export function createOperation(ctx: CheckContext): OperationDescriptor | undefined {
  return ctx.operations.find((op) => op.method === 'POST' && op.requestBody && op.responses.some((r) => r.status === 201));
}

/** The operation that reads one item by a path id. */
export function getOperation(ctx: CheckContext): OperationDescriptor | undefined {
  return ctx.operations.find((op) => op.method === 'GET' && op.path.includes('{') && op.responses.some((r) => r.status === 200));
}

/**
 * Creates a pet with a valid body and records it; the 201 is required. As
 * `setup`, the create only prepares what the check is about (pets to list,
 * to read, to watch), and a refusal is reported as the check's setup failing.
 */
export async function createPet(
  ctx: CheckContext,
  family: Family,
  body: GeneratedBody,
  purpose: 'requirement' | 'setup' = 'requirement',
): Promise<{ pet: JsonObject; sent: { request: WireRequest; response: WireResponse } }> {
  const op = createOperation(ctx);
  if (!op) throw new Error('the spec has no create operation');
  const sent = await ctx.send(family, { method: op.method, path: op.path, body: body.text, operationId: op.operationId });
  try {
    expectStatus(sent, [201], `creating a pet with ${body.text}`);
  } catch (error) {
    if (purpose === 'setup' && error instanceof Violation) throw new Violation(`the pets this check needs could not be created: ${error.message}`, sent, true);
    throw error;
  }
  const pet = sent.response.json;
  if (!isObject(pet) || typeof pet['id'] !== 'bigint') throw new Violation('the 201 body is not a Pet with an integer id', sent, purpose === 'setup');
  ctx.knowledge.record(pet);
  return { pet, sent };
}

const readable = new WeakMap<object, Promise<void>>();

/**
 * An id the target has: one this run created, else one it lists, else a new
 * one if writes are allowed. A pet this run created is first read once with
 * the key (within the settle window, as every read of a created pet is), so
 * checks that then ask for it in other spellings do not meet a replica that
 * has not caught up yet.
 */
export async function someExistingId(c: CheckContext, family: Family): Promise<string | undefined> {
  const known = c.knowledge.all()[0];
  if (known) {
    await settledRead(c, family, known.id);
    return known.id;
  }
  const list = listOperation(c);
  if (list) {
    const listedAt = performance.now();
    const sent = await c.send(family, { method: 'GET', path: list.path, operationId: list.operationId });
    const first = Array.isArray(sent.response.json) ? idOf(sent.response.json[0]) : undefined;
    if (first) {
      await listedRead(c, family, first, listedAt);
      return first;
    }
  }
  const create = createOperation(c);
  if (!create || c.options.readOnly) return undefined;
  const { pet } = await createPet(c, family, sampleValidBody(create, c.options.namePrefix, c.options.seed), 'setup');
  const id = idOf(pet);
  if (id !== undefined) await settledRead(c, family, id);
  return id;
}

/** The operation's path with its path parameters set to a pet that exists; undefined when none does (--read-only, an empty target). */
export async function readablePath(c: CheckContext, family: Family, op: OperationDescriptor): Promise<string | undefined> {
  const params = op.parameters.filter((p) => p.in === 'path');
  if (params.length === 0) return fillPath(op.path, {});
  const id = await someExistingId(c, family);
  return id === undefined ? undefined : fillPath(op.path, Object.fromEntries(params.map((p) => [p.name, id])));
}

/**
 * One canonical getPet of a listed pet, within the settle window counted
 * from the list: it may be one that another check of this run has just
 * created and not recorded yet, which getPet may not serve yet (a replica
 * behind the list).
 */
async function listedRead(c: CheckContext, family: Family, id: string, listedAt: number): Promise<void> {
  const request = getPetRequest(c, id);
  if (!request) return;
  await c.readAfterWrite(
    () => c.send(family, request),
    (sent) => sent.response.status !== 404,
    listedAt,
  );
}

/** The canonical getPet of `id` (the key, the id as listed), if the spec has a getPet. */
function getPetRequest(c: CheckContext, id: string): { method: string; path: string; operationId: string } | undefined {
  const op = getOperation(c);
  const param = op?.parameters.find((p) => p.in === 'path');
  if (!op || !param) return undefined;
  return { method: op.method, path: fillPath(op.path, { [param.name]: id }), operationId: op.operationId };
}

/** One canonical getPet of a created pet per run: the run's send reads it again until it is served or the window ends. */
function settledRead(c: CheckContext, family: Family, id: string): Promise<void> {
  const request = getPetRequest(c, id);
  if (!request) return Promise.resolve();
  let pending = readable.get(c.knowledge.get(id) ?? {});
  if (!pending) {
    pending = c.send(family, request).then(() => undefined);
    const known = c.knowledge.get(id);
    if (known) readable.set(known, pending);
  }
  return pending;
}
