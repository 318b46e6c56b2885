/**
 * oracle.composed: requests composed from the interface rather than listed.
 * Each is a valid request of an operation (values from its schemas) with
 * perturbations that change nothing a conforming server acts on: the query's
 * order, its values percent-encoded, the case of the fields' names, Accept
 * fields that allow JSON, a body's members in another order or spaced out,
 * a harmless field; sent with the key, without one, or with a wrong one. The
 * target's answer and the oracle's are compared on the spot, so fast-check
 * shrinks a difference to the fewest perturbations that still show it.
 */
import fc from 'fast-check';
import type { OperationDescriptor, ParameterDescriptor } from '../../spec/operations.js';
import { stringifyJson, type JsonObject } from '../../spec/json/index.js';
import { fillPath, invalidBody, invalidBodyExamples, sampleValidBody, validBody } from '../arbitraries/requests.js';
import { routeSpellings } from '../arbitraries/spellings.js';
import { REGISTERED_FIELDS, VALUE_KINDS } from '../catalogues/field-registry.js';
import { METHODS } from '../catalogues/methods.js';
import { integerRange } from '../arbitraries/schema.js';
import { propertyCheck } from '../check.js';
import { createOperation, filterParameters, getOperation, listOperation, pageSizeParameter } from '../checks/family-requests.js';
import { basePathOf, type WireRequest } from '../client.js';
import type { Tolerance } from '../tolerances.js';
import type { ToleratedCounts } from '../checks/universal.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { judgePair } from './compare.js';
import type { OracleSession } from './mirror.js';

/** The route spellings each operation tries as examples (the catalogue has about a dozen). */
const SPELLINGS_TRIED = 12;
const NAME_CASES = ['lower', 'Title', 'UPPER'] as const;
/** Accept fields that allow application/json (RFC 9110 §12.5.1). */
const ACCEPTS = ['application/json', '*/*', 'application/*', 'application/json, text/plain;q=0.5', 'text/html;q=0.1, application/json'] as const;
/** Query parameters the spec does not name: what a client library adds, and a misspelling of a known one. */
const UNKNOWN_NAMES = ['page', 'offset', 'sort', 'fields', 'stauts', 'Limit'] as const;
const HARMLESS = [
  ['user-agent', 'petstore-conform/1 (composed)'],
  ['x-request-id', 'conform-0f8a2c'],
  ['accept-language', 'de-CH, en;q=0.5'],
] as const;

interface Composed {
  readonly operation: 'list' | 'get' | 'create';
  readonly credential: 'valid' | 'none' | 'wrong';
  readonly nameCase: (typeof NAME_CASES)[number];
  readonly accept: (typeof ACCEPTS)[number];
  readonly harmless: number | undefined;
  readonly query: { readonly size?: bigint; readonly filter?: string; readonly reversed: boolean; readonly encoded: boolean; readonly unknown?: number };
  readonly pet: number;
  /** A valid NewPet (`value`, its members perhaps reordered or spaced out), or an invalid body's text as generated. */
  readonly body: {
    readonly value: JsonObject;
    readonly reversed: boolean;
    readonly spaced: boolean;
    readonly invalid?: { readonly label: string; readonly text: string };
  };
  /** Another spelling of the route (routes' catalogue), sent only without the valid key: what it answers is open, but never pet data. */
  readonly spelling: number | undefined;
  /** A registered field with a value an attacker chooses, and another method from the registry: only without the valid key. */
  readonly field?: { readonly index: number; readonly value: string };
  readonly method?: number;
}

export function composedCheck(ctx: CheckContext, session: OracleSession, table: readonly Tolerance[], tolerated: ToleratedCounts): Check | undefined {
  const list = listOperation(ctx);
  const get = getOperation(ctx);
  const create = createOperation(ctx);
  if (!list && !get && !create) return undefined;
  const size = list && pageSizeParameter(list);
  const filter = list && filterParameters(list)[0];
  const kinds = [...(list ? ['list' as const] : []), ...(get ? ['get' as const] : []), ...(create && !ctx.options.readOnly ? ['create' as const] : [])];
  return propertyCheck<Composed>({
    id: 'oracle.composed',
    family: 'oracle',
    operationId: '*',
    title:
      'requests composed from the interface (valid values; query order, percent-encoding, field-name case, Accept, member order, white space; with and without the key) get the outcome the oracle gives them',
    requirement:
      'A request the interface allows is served whatever the order of its query, the encoding of its values (RFC 3986 §2.1), the case of its field names (RFC 9110 §5.1), an Accept that allows JSON (§12.5.1), the order of its members and the white space between them (RFC 8259 §2, §4); an invalid NewPet is refused (§4.2, §7); without the key, however the route is spelled, nothing is served or created (seed §5.3). The target and the oracle agree on that, wherever the tolerance table allows no difference.',
    seedSection: 'seed §4, §5; RFC 9110 §5.1, §12.5.1; RFC 3986 §2.1; RFC 8259 §2',
    writes: kinds.includes('create'),
    arbitrary: (c) =>
      fc.record(
        {
          operation: fc.constantFrom(...kinds),
          credential: fc.constantFrom('valid' as const, 'valid' as const, 'none' as const, 'wrong' as const),
          nameCase: fc.constantFrom(...NAME_CASES),
          accept: fc.constantFrom(...ACCEPTS),
          harmless: fc.option(fc.nat({ max: HARMLESS.length - 1 }), { nil: undefined }),
          query: fc.record(
            {
              size: size ? fc.bigInt(...integerRange(size.schema)) : fc.constant(undefined),
              filter: filter ? fc.constantFrom(...((filter.schema['enum'] ?? []) as string[])) : fc.constant(undefined),
              reversed: fc.boolean(),
              encoded: fc.boolean(),
              unknown: fc.nat({ max: UNKNOWN_NAMES.length - 1 }),
            },
            { requiredKeys: ['reversed', 'encoded'] },
          ),
          pet: fc.nat(),
          body: fc.record(
            {
              value: create ? validBody(create, c.options.namePrefix).map((b) => b.value as JsonObject) : fc.constant({}),
              reversed: fc.boolean(),
              spaced: fc.boolean(),
              invalid: create ? invalidBody(create, c.options.namePrefix).map((b) => ({ label: b.label, text: b.text })) : fc.constant(undefined),
            },
            { requiredKeys: ['value', 'reversed', 'spaced'] },
          ),
          spelling: fc.option(fc.nat({ max: 31 }), { nil: undefined, freq: 4 }),
          field: fc.record({ index: fc.nat({ max: REGISTERED_FIELDS.length - 1 }), value: attackerValue(basePathOf(c.options.baseUrl)) }),
          method: fc.nat({ max: METHODS.length - 1 }),
        },
        { requiredKeys: ['operation', 'credential', 'nameCase', 'accept', 'harmless', 'query', 'pet', 'body', 'spelling'] },
      ),
    // One request per perturbation and credential, so that no class of them is left to chance.
    examples: (c) => examplesOf(c, kinds, { create, size, filter }),
    async predicate(c, composed) {
      const op = composed.operation === 'list' ? list! : composed.operation === 'get' ? get! : create!;
      const request = requestOf(c, op, composed, size?.name, filter?.name);
      c.cover(op.operationId, 'composed request', `${composed.credential} key`);
      const exchange = { request, response: await c.client.send('oracle', request), family: 'oracle' };
      const asked = await session.ask(exchange);
      if (!asked) return;
      const verdict = judgePair(exchange, asked.answer, asked.facts, table, c.operations);
      if (verdict && 'tolerated' in verdict) tolerated.set(verdict.tolerated.id, (tolerated.get(verdict.tolerated.id) ?? 0) + 1);
      const sent = { request: exchange.request, response: exchange.response };
      if (verdict && 'difference' in verdict) {
        throw new Violation(`${verdict.message}. ${session.target.label} answered ${asked.answer.status} ${asked.answer.text.slice(0, 160)}`, sent);
      }
    },
  });
}

/** One composed request per class of perturbation, for each operation the run may send. */
function examplesOf(
  c: CheckContext,
  kinds: readonly Composed['operation'][],
  { create, size, filter }: { create: OperationDescriptor | undefined; size: ParameterDescriptor | undefined; filter: ParameterDescriptor | undefined },
): Composed[] {
  const value = (create ? sampleValidBody(create, c.options.namePrefix, c.options.seed + 71).value : {}) as JsonObject;
  const plain: Composed = {
    operation: kinds[0]!,
    credential: 'valid',
    nameCase: 'lower',
    accept: 'application/json',
    harmless: undefined,
    query: {
      ...(size ? { size: integerRange(size.schema)[0] + 4n } : {}),
      ...(filter ? { filter: String(((filter.schema['enum'] ?? []) as string[])[1] ?? '') } : {}),
      reversed: false,
      encoded: false,
    },
    pet: 0,
    body: { value, reversed: false, spaced: false },
    spelling: undefined,
  };
  const basePath = basePathOf(c.options.baseUrl);
  const attacks: Composed[] = [
    ...REGISTERED_FIELDS.map((_, index) => ({
      ...plain,
      credential: 'none' as const,
      field: { index, value: VALUE_KINDS[index % VALUE_KINDS.length]!.values(basePath)[0]! },
    })),
    ...METHODS.map((_, method) => ({ ...plain, credential: 'none' as const, method })),
  ];
  const variants = (operation: Composed['operation']): Composed[] => [
    ...(['valid', 'none', 'wrong'] as const).map((credential) => ({ ...plain, operation, credential })),
    ...NAME_CASES.slice(1).map((nameCase) => ({ ...plain, operation, nameCase })),
    ...ACCEPTS.slice(1).map((accept) => ({ ...plain, operation, accept })),
    ...Array.from({ length: SPELLINGS_TRIED }, (_, spelling) => ({ ...plain, operation, credential: 'none' as const, spelling })),
  ];
  return [
    ...kinds.flatMap(variants),
    ...attacks,
    ...(kinds.includes('list')
      ? [
          { ...plain, operation: 'list' as const, query: { ...plain.query, encoded: true } },
          { ...plain, operation: 'list' as const, query: { ...plain.query, reversed: true } },
          ...UNKNOWN_NAMES.map((_, unknown) => ({ ...plain, operation: 'list' as const, query: { ...plain.query, unknown } })),
        ]
      : []),
    ...(kinds.includes('create')
      ? [
          { ...plain, operation: 'create' as const, body: { value, reversed: true, spaced: false } },
          { ...plain, operation: 'create' as const, body: { value, reversed: false, spaced: true } },
          ...invalidBodyExamples(create!, c.options.namePrefix, c.options.seed + 72).map((b) => ({
            ...plain,
            operation: 'create' as const,
            body: { value, reversed: false, spaced: false, invalid: { label: b.label, text: b.text } },
          })),
        ]
      : []),
  ];
}

/** The composed request, every field as it is sent (the client adds only the --header fields). */
function requestOf(c: CheckContext, op: OperationDescriptor, composed: Composed, sizeName: string | undefined, filterName: string | undefined): WireRequest {
  const headers: Record<string, string> = { [cased('accept', composed.nameCase)]: composed.accept };
  if (composed.harmless !== undefined) {
    const [name, value] = HARMLESS[composed.harmless]!;
    headers[cased(name, composed.nameCase)] = value;
  }
  // A wrong key that shares nothing with the valid one, so that serving it is serving without any form of the key.
  const credential = composed.credential === 'valid' ? c.client.authorization : composed.credential === 'wrong' ? 'Bearer conform-not-a-key-7f3e' : undefined;
  if (credential !== undefined) headers[cased('authorization', composed.nameCase)] = credential;
  const base = { method: op.method, operationId: op.operationId, headers };
  const respelled = (request: WireRequest): WireRequest => {
    if (composed.credential === 'valid') return request;
    const attacked = withAttack(request, composed, c.options.readOnly);
    if (composed.spelling === undefined) return attacked;
    request = attacked;
    const [path, query = ''] = request.path.split('?');
    const spellings = routeSpellings(request.method, op.path, path!);
    const spelling = spellings[composed.spelling % spellings.length]!;
    const target = query ? (spelling.path.includes('?') ? `${spelling.path}&${query}` : `${spelling.path}?${query}`) : spelling.path;
    return { ...request, method: spelling.method, path: target, offSpec: true };
  };
  if (composed.operation === 'create') {
    headers[cased('content-type', composed.nameCase)] = 'application/json';
    return respelled({ ...base, path: op.path, body: bodyText(composed.body) });
  }
  if (composed.operation === 'get') {
    const pets = c.knowledge.all();
    const id = pets.length ? pets[composed.pet % pets.length]!.id : String(composed.pet + 1);
    const param = op.parameters.find((p) => p.in === 'path')!;
    return respelled({ ...base, path: fillPath(op.path, { [param.name]: id }) });
  }
  const pairs: [string, string][] = [];
  if (sizeName && composed.query.size !== undefined) pairs.push([sizeName, String(composed.query.size)]);
  if (filterName && composed.query.filter !== undefined) pairs.push([filterName, composed.query.filter]);
  if (composed.query.unknown !== undefined) pairs.push([UNKNOWN_NAMES[composed.query.unknown]!, '1']);
  if (composed.query.reversed) pairs.reverse();
  const encode = composed.query.encoded ? percentEncodeAll : encodeURIComponent;
  const query = pairs.map(([name, value]) => `${name}=${encode(value)}`).join('&');
  return respelled({ ...base, path: query ? `${op.path}?${query}` : op.path });
}

function cased(name: string, nameCase: Composed['nameCase']): string {
  if (nameCase === 'UPPER') return name.toUpperCase();
  if (nameCase === 'Title') return name.replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());
  return name;
}

/** Without the valid key, the registry's field with the attacker's value, and the registry's method, where drawn: open, but never served. */
function withAttack(request: WireRequest, composed: Composed, readOnly: boolean): WireRequest {
  // Under --read-only nothing may ask for a change, even without a key: a staging that wrongly honours it would lose pets.
  const method = composed.method === undefined || (readOnly && !METHODS[composed.method]!.safe) ? undefined : METHODS[composed.method]!.method;
  const name = composed.field ? REGISTERED_FIELDS[composed.field.index]! : undefined;
  const field = name && !(readOnly && OVERRIDES.has(name) && !SAFE_METHODS.has(composed.field!.value.toUpperCase())) ? name : undefined;
  if (field === undefined && method === undefined) return request;
  return { ...request, method: method ?? request.method, headers: { ...request.headers, ...(field ? { [field]: composed.field!.value } : {}) }, offSpec: true };
}

/** The fields that name another method for a request (catalogues/request-fields.ts says who acts on them). */
const OVERRIDES = new Set(['x-http-method-override', 'x-http-method', 'x-method-override', 'x-original-method']);
const SAFE_METHODS = new Set(METHODS.filter((m) => m.safe).map((m) => m.method));

/** A value from one of the kinds an attacker chooses, or a random token. */
function attackerValue(basePath: string): fc.Arbitrary<string> {
  return fc.oneof(...VALUE_KINDS.map((kind) => fc.constantFrom(...kind.values(basePath))), fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,16}$/));
}

/** Every byte as %XX: what a client may send for any character (RFC 3986 §2.1), and a server decodes. */
export function percentEncodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

function bodyText(body: Composed['body']): string {
  if (body.invalid) return body.invalid.text;
  const entries = Object.entries(body.value);
  if (body.reversed) entries.reverse();
  const reordered = Object.fromEntries(entries) as JsonObject;
  if (!body.spaced) return stringifyJson(reordered);
  // White space between tokens, as RFC 8259 §2 allows: a member on a line of its own.
  return `{\n\t${entries.map(([name, value]) => `${JSON.stringify(name)} : ${stringifyJson(value)}`).join(' ,\r\n\t')}\n}`;
}
