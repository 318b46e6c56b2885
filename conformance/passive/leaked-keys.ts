/**
 * The API key in an answer that passed through the proxy. A passive judge is told no key: it takes the request's
 * own Bearer token (unless the answer refused it, when it is only the client's text) and the tokens earlier answers
 * accepted, so that an answer naming one of them to another request is caught too. A key the request itself carried
 * elsewhere (in its target, another field, its body) and the answer echoes is the client's own text, not a leak: the
 * suite's own leak checks send the key only where they know it belongs.
 */
import { KEY_REQUIREMENT, keyLeak, SECTION as LEAKS_SECTION } from '../checks/leaks.js';
import { fieldOf, type Exchange, type WireRequest } from '../client.js';
import type { PassiveFinding } from './passive-vocabulary.js';

/** Accepted keys remembered, so an answer that names one to another client is caught: a client uses one or two. */
const MAX_KEYS = 4;

/** What of the answer to `exchange` carries a key it should not, as the suite's leaks family words it. */
export function keyFindings(exchange: Exchange, acceptedKeys: string[]): PassiveFinding[] {
  const { status } = exchange.response;
  const token = /^bearer +(\S+)$/i.exec(fieldOf(exchange.request, 'authorization')?.trim() ?? '')?.[1];
  const keys = new Set(acceptedKeys);
  if (token !== undefined && status !== 401) keys.add(token);
  if (token !== undefined && status >= 200 && status < 300 && !acceptedKeys.includes(token)) {
    acceptedKeys.push(token);
    if (acceptedKeys.length > MAX_KEYS) acceptedKeys.shift();
  }
  for (const key of keys) {
    if (echoed(exchange.request, key)) continue;
    const leak = keyLeak(key, exchange);
    if (leak === undefined) continue;
    const op = exchange.request.operationId;
    return [
      {
        rule: op === '' ? 'leaks.key' : `leaks.${op}.key`,
        severity: 'error',
        requirement: KEY_REQUIREMENT,
        section: LEAKS_SECTION,
        ...(op === '' ? {} : { operationId: op }),
        problem: leak,
        kind: leak,
      },
    ];
  }
  return [];
}

/** Whether the request carried `key` somewhere other than its Authorization field. */
function echoed(request: WireRequest, key: string): boolean {
  if (request.path.includes(key) || (request.body ?? '').includes(key)) return true;
  return Object.entries(request.headers).some(([name, value]) => name !== 'authorization' && String(value).includes(key));
}
