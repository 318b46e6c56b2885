/**
 * Persistence for `petstore serve --state FILE`: the pets as one JSON array
 * in creation order (the seed format, each pet with its id, which is kept
 * when the file is read: random ids are not positions), read at start and
 * written atomically: to a temporary
 * file in the same directory, flushed, then renamed over the old one. A crash
 * at any moment leaves either the previous file or the new one, never half.
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { PetStore } from './pet-store.js';
import { seedPets, SeedError, type SeedPet } from './seed.js';

/** The pets of a state file with their ids, one at a time, or `undefined` when there is no file yet. */
export async function readStateFile(path: string): Promise<Iterable<SeedPet> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SeedError(`cannot read state file ${path}: ${(error as Error).message}`);
  }
  return seedPets(text, path, true);
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
  // The rename is only durable once the directory entry is on disk too.
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } catch {
    // Some file systems cannot sync a directory; the rename is still atomic.
  } finally {
    await directory.close();
  }
}

/**
 * Removes temporary files that a writer which crashed mid-write left beside
 * `path` (named `.<file>.<pid>.<random>.tmp`), when that process is gone.
 */
export async function removeStaleTemporaries(path: string): Promise<string[]> {
  const prefix = `.${basename(path)}.`;
  const removed: string[] = [];
  for (const name of await readdir(dirname(path)).catch(() => [] as string[])) {
    const match = name.startsWith(prefix) && /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length));
    if (!match || isAlive(Number(match[1]))) continue;
    await rm(join(dirname(path), name), { force: true });
    removed.push(name);
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Writes the store every `intervalMs` when it has changed, and once more on
 * `stop()`. Writes never overlap.
 */
export function persistPeriodically(path: string, store: PetStore, intervalMs: number, onError: (error: unknown) => void) {
  void removeStaleTemporaries(path).catch(onError);
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
