/**
 * What the upstream's refusals say of the client. The proxy cannot tell a
 * wrong key or an unknown id itself (the upstream holds both), so it reads
 * them off the upstream's answer and notes them as the stand-in notes its
 * own refusals: a 401 is a key the upstream did not accept, a getPet 404 an
 * id it does not have, and when that id is one `JSON.parse` makes of an id
 * the upstream served through the proxy, the client's rounding (a rounded_id
 * warning naming both ids, the stand-in's most useful diagnosis).
 */
import { parseDecimalInteger, type JsonValue } from '../spec/json/index.js';
import { isObject } from '../spec/json/is-object.js';
import { isPetId, roundingCandidates, type Exchange, type RelayHooks } from '../src/index.js';
import type { Passed } from './exchange.js';

/** The ids served through the proxy that are remembered, the oldest forgotten first. */
export const MAX_REMEMBERED_IDS = 10_000;

export function createUpstreamRefusals(maxIds = MAX_REMEMBERED_IDS) {
  const served = new Set<string>();
  const remember = (id: JsonValue | undefined) => {
    if (typeof id !== 'bigint' || served.has(String(id))) return;
    served.add(String(id));
    if (served.size > maxIds) served.delete(served.values().next().value as string);
  };
  const hearServed = (served: JsonValue) => {
    for (const value of Array.isArray(served) ? served : [served]) if (isObject(value)) remember(value['id']);
  };

  return {
    /** Reads the answer the upstream gave `x` (`json`: its body, for a 2xx); notes what its refusal says of the client. */
    hear(x: Exchange, passed: Passed, json: JsonValue | undefined, refused: RelayHooks['refused']): void {
      if (passed.outside || !x.operation) return;
      if (passed.status >= 200 && passed.status < 300) return json === undefined ? undefined : hearServed(json);
      // One finding per request: the proxy's own checks may have noted the key already (none sent).
      if (passed.status === 401 && !x.findingCodes?.includes('unauthorized')) return refused(x, 'unauthorized', () => 'the upstream did not accept the key');
      const id = passed.status === 404 ? petIdOf(x) : undefined;
      if (id === undefined) return;
      const given = roundingCandidates(id).find((candidate) => served.has(String(candidate)));
      if (given !== undefined) x.culprit = { name: String(given) };
      refused(x, 'pet_not_found', () => `no animal has id ${id}`);
    },
  };
}

/** The id of a request to an operation with an integer path parameter (getPet's petId), as sent. */
function petIdOf(x: Exchange): bigint | undefined {
  const operation = x.operation;
  if (!operation?.parameters.some((p) => p.in === 'path')) return undefined;
  const url = x.req.url ?? '';
  const path = url.split('?')[0] as string;
  const id = parseDecimalInteger(path.slice(path.lastIndexOf('/') + 1));
  return isPetId(id) ? id : undefined;
}
