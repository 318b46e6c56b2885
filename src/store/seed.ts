/**
 * Seed files: a JSON array of NewPet objects, created in file order (so the
 * first gets id 1). An `id` in an entry is ignored like any other unknown
 * property. int64 `categoryId`s are read exactly.
 */
import { readFile } from 'node:fs/promises';
import type { NewPet } from '../../spec/types.js';
import { parseJson } from '../json/index.js';
import { readNewPet } from './new-pet.js';

export class SeedError extends Error {
  readonly code = 'invalid_seed';
}

export function parseSeed(text: string, source = 'seed'): NewPet[] {
  const parsed = parseJson(text, { maxDepth: 8, maxMembers: Number.MAX_SAFE_INTEGER });
  if (!parsed.ok) throw new SeedError(`${source}: ${parsed.message}`);
  if (!Array.isArray(parsed.value)) throw new SeedError(`${source}: must be a JSON array of NewPet objects`);
  return parsed.value.map((entry, index) => {
    const result = readNewPet(entry);
    if (!result.ok) throw new SeedError(`${source}: entry ${index}: ${result.message}`);
    return result.pet;
  });
}

export async function loadSeedFile(path: string): Promise<NewPet[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SeedError(`cannot read seed file ${path}: ${(error as Error).message}`);
  }
  return parseSeed(text, path);
}
