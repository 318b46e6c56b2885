/**
 * How the store assigns ids (`petstore serve --ids <mode>`). The seed says
 * only that an id is an int64 the service assigns; real services often hand
 * out large ones (snowflake-style), and a client that reads them with
 * `JSON.parse` silently changes every id beyond 2^53. The modes let a client
 * developer meet such ids here, before production does:
 * - `sequential`: 1, 2, 3… (the default; D6);
 * - `large`: from 2^53 + 1 = 9007199254740993, the first integer a double
 *   cannot hold, in steps of 2 (9007199254740993, …995, …997): between 2^53
 *   and 2^54 a double holds only the even integers, so every id breaks
 *   `JSON.parse`, and the double it becomes is never another pet's id;
 * - `random`: spread over the whole positive int64 range, unordered, as
 *   distributed id generators hand them out.
 */
import { getRandomValues } from 'node:crypto';

export const ID_MODES = ['sequential', 'large', 'random'] as const;
export type IdMode = (typeof ID_MODES)[number];

export const MAX_INT64 = 2n ** 63n - 1n;

/** The id before the first of a sequential mode: `large` starts at 2^53 + 1. */
export function idBase(mode: IdMode): bigint {
  return mode === 'large' ? 2n ** 53n : 0n;
}

/** How far apart the ids of a sequential mode are. */
export function idStep(mode: IdMode): bigint {
  return mode === 'large' ? 2n : 1n;
}

/** The id a sequential mode gives after `highest`: the next integer, or in `large` mode the next odd one. */
export function nextIdAfter(mode: IdMode, highest: bigint): bigint {
  return mode === 'large' ? (highest + 1n) | 1n : highest + 1n;
}

/** Whether `id` can be a pet's id: a positive int64. */
export function isPetId(id: unknown): id is bigint {
  return typeof id === 'bigint' && id >= 1n && id <= MAX_INT64;
}

/**
 * Random positive int64s from the system's generator, drawn 64 at a time
 * (one call per 64 ids instead of one per id). Uniform over 1..2^63-1.
 */
export function createRandomIds(): () => bigint {
  const buffer = new BigUint64Array(64);
  let next = buffer.length;
  return function draw(): bigint {
    if (next === buffer.length) {
      getRandomValues(buffer);
      next = 0;
    }
    // The top bit off: a positive int64. Zero is drawn again.
    const id = (buffer[next++] as bigint) & MAX_INT64;
    return id === 0n ? draw() : id;
  };
}
