/**
 * routes (seed §5.1): authentication holds on every spelling of a route that
 * a router may take for the operation's own. Without a valid key, no
 * spelling may carry pets or create one; what a spelling gets otherwise
 * (401, 404, 400, 405, a redirect, which is never followed) is open, and so
 * is what it gets with the valid key.
 */
import fc from 'fast-check';
import type { OperationDescriptor } from '../../spec/operations.js';
import { fillPath, sampleValidBody } from '../arbitraries/requests.js';
import { routeSpellings, type Spelling } from '../arbitraries/spellings.js';
import { propertyCheck } from '../check.js';
import type { WireResponse } from '../client.js';
import { Violation, type Check, type CheckContext } from '../vocabulary.js';
import { someExistingId } from './family-requests.js';
import { isObject } from '../../spec/json/is-object.js';

const SECTION = '§5 Authentication';

/** Credentials that must never reach an operation (a wrong key is one of the key's length, so no length check tells it apart). */
export function missingOrWrongKey(apiKey: string): { label: string; header: string | null }[] {
  const wrong = [...apiKey].map((c) => (c === 'z' ? 'y' : 'z')).join('') || 'z';
  return [
    { label: 'no Authorization header', header: null },
    { label: 'a wrong key', header: `Bearer ${wrong}` },
  ];
}

/** What in an answer shows the operation ran: a 2xx with JSON pets (HEAD: a 2xx JSON answer, whose content was left out). */
export function servedData(method: string, response: WireResponse): boolean {
  if (response.status < 200 || response.status > 299) return false;
  if (method === 'HEAD') return /^application\/json\b/i.test(response.headers['content-type'] ?? '');
  const body = response.json;
  return Array.isArray(body) || (isObject(body) && body['id'] !== undefined);
}

export function routesChecks(ctx: CheckContext): Check[] {
  return ctx.operations.filter((op) => op.requiresAuth).map((op) => spellingCheck(op));
}

function spellingCheck(op: OperationDescriptor): Check {
  const writes = op.method !== 'GET';
  // Found by the first run: a getPet spelling needs a pet that exists, or its 404 would hide a missing key check.
  let id: string | undefined;
  return propertyCheck<[Spelling, { label: string; header: string | null }]>({
    id: `routes.${op.operationId}.auth`,
    family: 'routes',
    operationId: op.operationId,
    title: `${op.operationId} serves nothing without a valid key on any spelling of its route (trailing slash, letter case, percent-encoding, dot segments, doubled slashes, encoded slash, matrix parameter, format suffix, empty query${op.method === 'GET' ? ', HEAD' : ''})`,
    requirement:
      'Every operation requires HTTP bearer authentication (§5.1): a spelling of the route that the target routes to the operation must check the key too; a 2xx that carries pets or creates one without a valid key is data served without authentication.',
    seedSection: SECTION,
    writes,
    arbitrary: (c) => fc.tuple(fc.constantFrom(...spellingsOf(op, '1')), fc.constantFrom(...missingOrWrongKey(c.options.apiKey))),
    // Every spelling with every refused credential: the domain is small, so all of it is tried.
    examples: (c) => spellingsOf(op, '1').flatMap((s) => missingOrWrongKey(c.options.apiKey).map((k) => [s, k] as [Spelling, typeof k])),
    runs: () => 1,
    async predicate(c, [spelling, credential]) {
      id ??= await idFor(c, op);
      const actual = spellingsOf(op, id).find((s) => s.label === spelling.label) ?? spelling;
      c.cover(op.operationId, 'route spelling', actual.label);
      const body = op.requestBody ? sampleValidBody(op, c.options.namePrefix, c.options.seed).text : undefined;
      const sent = await c.send('routes', {
        method: actual.method,
        path: actual.path,
        operationId: op.operationId,
        offSpec: true,
        auth: credential.header,
        ...(body !== undefined ? { body } : {}),
      });
      if (servedData(actual.method, sent.response)) {
        const what = writes ? 'created a pet' : actual.method === 'HEAD' ? 'answered as the operation' : 'served pets';
        throw new Violation(
          `${actual.method} ${actual.path} (${actual.label}) with ${credential.label} ${what}: ${sent.response.status} without a valid key`,
          sent,
        );
      }
    },
  });
}

/** The spellings of `op` with its path parameters set to `id`. */
function spellingsOf(op: OperationDescriptor, id: string): Spelling[] {
  const params = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, id]));
  return routeSpellings(op.method, op.path, fillPath(op.path, params));
}

async function idFor(c: CheckContext, op: OperationDescriptor): Promise<string> {
  if (!op.parameters.some((p) => p.in === 'path')) return '1';
  return (await someExistingId(c, 'routes')) ?? '1';
}
