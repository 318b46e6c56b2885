/**
 * `--record FILE`: every pet the upstream served (a getPet, a page, a
 * created pet), kept once by id in the order first seen, written as a state
 * file (the seed format with each pet's id), so that a stand-in started on
 * it serves the upstream's data, ids included, offline. Pets never change
 * after creation, so the first answer that showed a pet is its record.
 */
import { isObject } from '../spec/json/is-object.js';
import type { JsonValue } from '../spec/json/index.js';
import { isPetId, PetStore, readNewPet, writeStateFile } from '../src/index.js';

export interface Recording {
  /** Keeps each pet of a 2xx answer's JSON body (a Pet, or an array of them). */
  hear(body: JsonValue): void;
  /** How many pets it holds. */
  size(): number;
  /** Writes them, atomically, as a state file. */
  write(path: string): Promise<void>;
}

export function createRecording(maxPets: number): Recording {
  // Ids are given with each pet; the store's own mode is never asked for one.
  const store = new PetStore({ maxPets, ids: 'random' });
  const keep = (value: JsonValue): void => {
    if (!isObject(value) || !isPetId(value['id'])) return;
    const pet = readNewPet(value);
    if (pet.ok) store.create(pet.pet, value['id']);
  };
  return {
    hear(body) {
      if (Array.isArray(body)) for (const value of body) keep(value);
      else keep(body);
    },
    size: () => store.size,
    write: (path) => writeStateFile(path, store),
  };
}
