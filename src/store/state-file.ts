/**
 * Persistence for `petstore serve --state FILE`: the pets as one JSON array
 * (the seed format; ids are their positions, which never change because pets
 * are never deleted), read at start and written atomically: to a temporary
 * file in the same directory, flushed, then renamed over the old one. A crash
 * at any moment leaves either the previous file or the new one, never half.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { NewPet } from '../../spec/types.js';
import type { PetStore } from './pet-store.js';
import { seedPets, SeedError } from './seed.js';

/** The pets of a state file, one at a time, or `undefined` when there is no file yet. */
export async function readStateFile(path: string): Promise<Iterable<NewPet> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SeedError(`cannot read state file ${path}: ${(error as Error).message}`);
  }
  return seedPets(text, path);
}

export async function writeStateFile(path: string, store: PetStore): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const file = await open(temporary, 'w');
  try {
    await file.writeFile(store.toJsonArray());
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  await rename(temporary, path);
}

/**
 * Writes the store every `intervalMs` when it has changed, and once more on
 * `stop()`. Writes never overlap.
 */
export function persistPeriodically(path: string, store: PetStore, intervalMs: number, onError: (error: unknown) => void) {
  let written = -1;
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    writing = writing.then(async () => {
      const version = store.version;
      if (version === written) return;
      try {
        await writeStateFile(path, store);
        written = version;
      } catch (error) {
        onError(error);
      }
    });
    return writing;
  };
  const timer = setInterval(flush, intervalMs);
  timer.unref();
  return {
    /** Marks the current content as already on disk (just loaded from it). */
    markWritten: () => (written = store.version),
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
