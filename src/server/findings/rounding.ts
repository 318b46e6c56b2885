/**
 * Ids a client rounded: `JSON.parse` reads an int64 beyond 2^53 as the
 * nearest double, so a client given 9007199254740993 asks for
 * 9007199254740992, and gets 404 for a pet that exists. The stand-in says so,
 * naming both ids, instead of leaving the developer to hunt a backend bug.
 */
import type { Maybe } from '../../store/index.js';

const TWO_53 = 2n ** 53n;

/**
 * The integers other than `requested` that read as the same double, nearest
 * first, when `requested` could be a double's digits at all (from 2^53 on and
 * exactly a double, as JavaScript prints one); else none. 2^53 itself is
 * one: 2^53 + 1 reads as it. At most 2,049 of
 * them (the spacing of doubles below 2^63 is at most 2^11).
 */
export function roundingCandidates(requested: bigint): bigint[] {
  // Below 2^53 every integer is a double of its own: nothing rounds to another.
  if (requested < TWO_53 && requested > -TWO_53) return [];
  const double = Number(requested);
  if (BigInt(double) !== requested) return [];
  const magnitude = requested < 0n ? -requested : requested;
  const ulp = 2n ** BigInt(magnitude.toString(2).length - 53);
  const half = ulp / 2n;
  const found: bigint[] = [];
  for (let step = 1n; step <= half; step++) {
    for (const candidate of [requested - step, requested + step]) if (Number(candidate) === double) found.push(candidate);
  }
  return found;
}

/**
 * Calls `then` with the id among `candidates` that `has` knows (the first,
 * nearest first), or undefined. `has` may answer later (a shared store): then
 * only the nearest few are asked, so that one 404 does not cost a thousand
 * round trips.
 */
export function findGiven(candidates: readonly bigint[], has: (id: bigint) => Maybe<boolean>, then: (given: bigint | undefined) => void): void {
  const pending: Promise<bigint | undefined>[] = [];
  for (const id of candidates) {
    const answer = has(id);
    if (answer === true) return then(id);
    if (answer instanceof Promise) {
      pending.push(answer.then((yes) => (yes ? id : undefined)));
      if (pending.length === 16) break;
    }
  }
  if (pending.length === 0) return then(undefined);
  Promise.all(pending).then(
    (ids) => then(ids.find((id) => id !== undefined)),
    () => then(undefined),
  );
}
