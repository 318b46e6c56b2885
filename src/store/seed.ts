/**
 * Seed files: a JSON array of NewPet objects, created in file order (so the
 * first gets id 1). An `id` in an entry is ignored like any other unknown
 * property. int64 `categoryId`s are read exactly. Entries are parsed one at a
 * time, so a seed of a million pets never exists as objects all at once.
 */
import { readFile } from 'node:fs/promises';
import type { NewPet } from '../../spec/types.js';
import { JsonParseError, parseJsonArrayElements } from '../../spec/json/index.js';
import { readNewPet } from './new-pet.js';

export class SeedError extends Error {
  readonly code = 'invalid_seed';
}

/** The pets of a seed text, one at a time; throws a SeedError naming the entry at fault. */
export function* seedPets(text: string, source = 'seed'): Generator<NewPet, void, undefined> {
  let index = 0;
  try {
    for (const entry of parseJsonArrayElements(text, { maxDepth: 8, maxMembers: 10_000 })) {
      const result = readNewPet(entry);
      if (!result.ok) throw new SeedError(`${source}: entry ${index}: ${result.message}`);
      index++;
      yield result.pet;
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
