/**
 * Seed files: a JSON array of NewPet objects, created in file order (so the
 * first gets the first id). An `id` in an entry is ignored like any other
 * unknown property. State files (state-file.ts) are the same array with each
 * pet's `id`, which is kept. int64 values are read exactly. Entries are
 * parsed one at a time, so a seed of a million pets never exists as objects
 * all at once.
 */
import { readFile } from 'node:fs/promises';
import type { NewPet } from '../../spec/types.js';
import { JsonParseError, parseJsonArrayElements } from '../../spec/json/index.js';
import { readNewPet } from './new-pet.js';
import { isPetId } from './ids.js';

/** A pet to start with: a NewPet, and the id it keeps when it has one (a state file's). */
export type SeedPet = NewPet & { readonly id?: bigint };

export class SeedError extends Error {
  readonly code = 'invalid_seed';
}

/** The pets of a seed text, one at a time; throws a SeedError naming the entry at fault. */
export function* seedPets(text: string, source = 'seed', keepIds = false): Generator<SeedPet, void, undefined> {
  let index = 0;
  try {
    for (const entry of parseJsonArrayElements(text, { maxDepth: 8, maxMembers: 10_000 })) {
      const result = readNewPet(entry);
      if (!result.ok) throw new SeedError(`${source}: entry ${index}: ${result.message}`);
      const id = keepIds && entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? entry['id'] : undefined;
      if (id !== undefined && !isPetId(id)) throw new SeedError(`${source}: entry ${index}: id must be a positive int64`);
      index++;
      yield id === undefined ? result.pet : { ...result.pet, id };
    }
  } catch (error) {
    if (!(error instanceof JsonParseError)) throw error;
    if (index === 0 && error.message.includes('expected a JSON array')) throw new SeedError(`${source}: must be a JSON array of NewPet objects`);
    throw new SeedError(`${source}: ${error.message}`);
  }
}

export function parseSeed(text: string, source = 'seed'): NewPet[] {
  return [...seedPets(text, source)];
}

export async function readSeedText(path: string, what = 'seed file'): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new SeedError(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

export async function loadSeedFile(path: string): Promise<NewPet[]> {
  return parseSeed(await readSeedText(path), path);
}
