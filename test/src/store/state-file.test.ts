// `petstore serve --state FILE` (src/store/state-file.ts): the pets as one JSON
// array with their ids, read at start (ids kept) and written atomically: to a
// temporary in the same directory, flushed, renamed over the old file, so a crash
// leaves the previous file or the new one, never half; stale temporaries removed.
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, closeSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { PetStore } from '../../../src/store/pet-store.js';
import { SeedError } from '../../../src/store/seed.js';
import { persistPeriodically, readStateFile, removeStaleTemporaries, writeStateFile } from '../../../src/store/state-file.js';

const OLD = '[{"id":1,"name":"Rex","categoryId":1}]';
const NEW = '[{"id":1,"name":"Rex","categoryId":1},{"id":9223372036854775807,"name":"Tom","categoryId":-1,"status":"sold"}]';
/** A pid no process can have: Linux's PID_MAX_LIMIT is 2^22. */
const DEAD_PID = 99_999_999;

function directory(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** What writeStateFile reads of a PetStore: its JSON array and its version. */
function fakeStore(json: string | (() => Buffer), version = 1) {
  const store = { version, toJsonArray: typeof json === 'string' ? () => Buffer.from(json) : json };
  return store as typeof store & PetStore;
}

t.test('no state file yet reads as undefined', async (t) => {
  t.equal(await readStateFile(join(directory(t), 'state.json')), undefined);
});

t.test('a state file is read pet by pet in file order, each keeping its id, int64 digits exact', async (t) => {
  const path = join(directory(t), 'state.json');
  writeFileSync(path, '[{"id":7,"name":"Rex","categoryId":1,"status":"available"},{"id":9223372036854775807,"name":"Tom","categoryId":-9223372036854775808}]');
  const pets = [...((await readStateFile(path)) ?? [])];
  t.strictSame(pets, [
    { name: 'Rex', categoryId: 1n, status: 'available', id: 7n },
    { name: 'Tom', categoryId: -9223372036854775808n, id: 9223372036854775807n },
  ]);
});

t.test('a state file that cannot be read, or is not a pet array, is a SeedError naming it', async (t) => {
  const dir = directory(t);
  const folder = join(dir, 'a-directory');
  mkdirSync(folder);
  const error = await readStateFile(folder).catch((e: unknown) => e);
  t.ok(error instanceof SeedError, 'a SeedError');
  t.match(error, { code: 'invalid_seed', message: new RegExp(`^cannot read state file ${folder}: EISDIR`) });
  const path = join(dir, 'state.json');
  writeFileSync(path, '[{"id":0,"name":"Rex","categoryId":1}]');
  const pets = await readStateFile(path);
  t.throws(() => [...(pets ?? [])], { code: 'invalid_seed', message: `${path}: entry 0: id must be a positive int64` });
});

t.test('the state is written whole, and read back as the same pets', async (t) => {
  const path = join(directory(t), 'state.json');
  await writeStateFile(path, fakeStore(NEW));
  t.equal(readFileSync(path, 'utf8'), NEW);
  t.strictSame(
    [...((await readStateFile(path)) ?? [])].map((p) => p.id),
    [1n, 9223372036854775807n],
  );
});

t.test('a write goes to a temporary beside the file and is renamed over it: the old file is never rewritten in place', async (t) => {
  const dir = directory(t);
  const path = join(dir, 'state.json');
  writeFileSync(path, OLD);
  const before = statSync(path).ino;
  // A reader that opened the old file before the write.
  const reader = openSync(path, 'r');
  t.teardown(() => closeSync(reader));
  let during: { names: string[]; content: string } | undefined;
  await writeStateFile(
    path,
    fakeStore(() => {
      // While the new content is being made, the file still holds the old, whole.
      during = { names: readdirSync(dir).sort(), content: readFileSync(path, 'utf8') };
      return Buffer.from(NEW);
    }),
  );
  t.equal(during?.content, OLD, 'the old content, whole, while the new one is written');
  t.equal(during?.names.length, 2);
  t.match(during?.names[0], new RegExp(`^\\.state\\.json\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`), 'a temporary in the same directory');
  t.strictSame(readdirSync(dir), ['state.json'], 'the temporary is gone: renamed');
  t.equal(readFileSync(path, 'utf8'), NEW);
  t.not(statSync(path).ino, before, 'a new file took the name');
  const buffer = Buffer.alloc(OLD.length + 10);
  t.equal(buffer.subarray(0, readSync(reader, buffer, 0, buffer.length, 0)).toString(), OLD, 'the earlier reader still reads the old file whole');
});

t.test('a write that fails leaves the old file as it was and removes its temporary', async (t) => {
  const dir = directory(t);
  const path = join(dir, 'state.json');
  writeFileSync(path, OLD);
  const failing = fakeStore(() => {
    throw new Error('the store failed');
  });
  await t.rejects(writeStateFile(path, failing), { message: 'the store failed' });
  t.strictSame(readdirSync(dir), ['state.json']);
  t.equal(readFileSync(path, 'utf8'), OLD);
});

t.test('temporaries left by a writer that is gone are removed; a live writer’s and other files are kept', async (t) => {
  const dir = directory(t);
  const path = join(dir, 'state.json');
  const stale = `.state.json.${DEAD_PID}.0a1b2c3d.tmp`;
  const live = `.state.json.${process.pid}.0a1b2c3d.tmp`;
  const others = ['state.json', `.other.json.${DEAD_PID}.0a1b2c3d.tmp`, '.state.json.notapid.0a1b2c3d.tmp', `.state.json.${DEAD_PID}.XYZ.tmp`];
  for (const name of [stale, live, ...others]) writeFileSync(join(dir, name), 'x');
  t.strictSame(await removeStaleTemporaries(path), [stale]);
  t.strictSame(readdirSync(dir).sort(), [live, ...others].sort());
  t.strictSame(await removeStaleTemporaries(join(dir, 'missing', 'state.json')), [], 'no directory: nothing to remove');
});

t.test('the store is written when it has changed since the last write, and once more on stop', async (t) => {
  const dir = directory(t);
  const path = join(dir, 'state.json');
  let json = OLD;
  let writes = 0;
  const store = fakeStore(() => {
    writes++;
    return Buffer.from(json);
  });
  const errors: unknown[] = [];
  // An hour: only flush() and stop() write in this test.
  const persist = persistPeriodically(path, store, 3_600_000, (error) => errors.push(error));
  persist.markWritten();
  await persist.flush();
  t.equal(writes, 0, 'just loaded from the file: nothing to write');
  store.version = 2;
  await persist.flush();
  t.equal(writes, 1);
  t.equal(readFileSync(path, 'utf8'), OLD);
  await persist.flush();
  t.equal(writes, 1, 'unchanged since: not written again');
  json = NEW;
  store.version = 3;
  await persist.stop();
  t.equal(writes, 2, 'stop writes what changed');
  t.equal(readFileSync(path, 'utf8'), NEW);
  t.strictSame(errors, []);
});

t.test('a periodic write that fails is reported and tried again at the next flush', async (t) => {
  const path = join(directory(t), 'state.json');
  let fail = true;
  const store = fakeStore(() => {
    if (fail) throw new Error('disk full');
    return Buffer.from(NEW);
  }, 5);
  const errors: unknown[] = [];
  const persist = persistPeriodically(path, store, 3_600_000, (error) => errors.push(error));
  await persist.flush();
  t.match(errors, [{ message: 'disk full' }]);
  fail = false;
  await persist.stop();
  t.equal(readFileSync(path, 'utf8'), NEW, 'the same version, written once it could be');
});
