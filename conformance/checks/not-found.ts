/**
 * not-found (seed §4.3, §7): getPet answers any int64 id with the Pet that
 * has it, or 404 with an Error body. Ids are drawn across the whole int64
 * range; ids this run created are left out, and a 200 must be the pet with
 * exactly the requested id (ids are compared as digits, never as doubles).
 */
import fc from 'fast-check';
import { fillPath, pathValue } from '../arbitraries/requests.js';
import { expectErrorBody, expectStatus, propertyCheck } from '../check.js';
import { idOf } from '../knowledge.js';
import { Violation, type Check, type CheckContext } from '../types.js';
import { getOperation } from './shared.js';

const SECTION = '§4.3 Get an animal';
const MALFORMED_IDS = ['abc', '1.5', '9223372036854775808', '-9223372036854775809', '0x10', '1e3', ' 1', '%00'] as const;

export function notFoundChecks(ctx: CheckContext): Check[] {
  const op = getOperation(ctx);
  const idParam = op?.parameters.find((p) => p.in === 'path');
  if (!op || !idParam) return [];
  const pastSunset = (c: CheckContext) => op.sunset !== undefined && c.targetNow() >= op.sunset.getTime();
  return [
    propertyCheck({
      id: `not-found.${op.operationId}.unknown-ids`,
      family: 'not-found',
      operationId: op.operationId,
      title: `${op.operationId} answers 404 with an Error body for ids across the int64 range that no pet has`,
      requirement: '404 with an Error body: the animal cannot be found (§4.3, §7).',
      seedSection: SECTION,
      writes: false,
      arbitrary: (c) => pathValue(idParam).filter((id) => !c.knowledge.has(id)),
      async predicate(c, id) {
        const sent = await c.send('not-found', { method: op.method, path: fillPath(op.path, { [idParam.name]: id }), operationId: op.operationId });
        // Another client may own this id; then the answer is that pet.
        expectStatus(sent, pastSunset(c) ? [200, 404, 410] : [200, 404], `${op.operationId} for id ${id}`);
        if (sent.response.status === 200) {
          const got = idOf(sent.response.json);
          if (got !== id) throw new Violation(`asked for id ${id}, got 200 with ${got === undefined ? 'no Pet' : `the pet with id ${got}`}`, sent);
          return;
        }
        expectErrorBody(sent);
      },
    }),
    propertyCheck({
      id: `not-found.${op.operationId}.malformed-ids`,
      family: 'not-found',
      operationId: op.operationId,
      title: `${op.operationId} answers ids that are not int64 without a server error (400 or 404 is advisory)`,
      requirement: 'petId is an integer, int64 (§4.3); the answer to another value is not shown, but never a 5xx.',
      seedSection: SECTION,
      writes: false,
      arbitrary: () => fc.constantFrom(...MALFORMED_IDS),
      examples: () => [...MALFORMED_IDS],
      async predicate(c, id) {
        const sent = await c.send('not-found', {
          method: op.method,
          path: op.path.replace(`{${idParam.name}}`, encodeURIComponent(id)),
          operationId: op.operationId,
        });
        expectStatus(sent, [400, 404, 410, 422], `${op.operationId} for the non-int64 id ${JSON.stringify(id)}`);
        expectErrorBody(sent);
        c.unspecified(
          {
            decision: 'malformed-id',
            family: 'not-found',
            operationId: op.operationId,
            seed: '§4.3 "petId, integer int64" (the answer to a non-integer is not shown)',
            observed: `petId ${JSON.stringify(id)} was answered ${sent.response.status}`,
            referenceBehaviour: '400 invalid_parameter',
            ...sent,
          },
          sent.response.status === 400 || (pastSunset(c) && sent.response.status === 410),
        );
      },
      runs: () => 8,
    }),
  ];
}
