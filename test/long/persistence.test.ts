// Persistence with `petstore serve --state FILE` (src/store/state-file.ts,
// cli/serve.ts): the pets are read from the file at start and written
// atomically (a temporary file, flushed, renamed over the old one) every
// --state-interval seconds when they changed and on shutdown, so a reader, a
// restart or a crash never meets a half-written file.
import { existsSync, mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import t, { type Test } from 'tap';
import { parseJson, type JsonValue } from '../../spec/json/index.js';
import { plain, controlClient } from '../helpers/control.js';
import { apiClient } from '../helpers/api-client.js';
import { runCli, startServe, type RunningServer } from '../helpers/cli.js';

t.jobs = 3;

const KEY = 'petstore-dev-key';
const INT64_MAX = '9223372036854775807';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pets of a state file, exactly (int64 as bigint); undefined when there is no file. */
function readState(path: string): JsonValue[] | undefined {
  if (!existsSync(path)) return undefined;
  const parsed = parseJson(readFileSync(path, 'utf8'), { maxDepth: 8, maxMembers: Number.MAX_SAFE_INTEGER });
  if (!parsed.ok) throw new Error(`${path} is not JSON: ${parsed.message}`);
  if (!Array.isArray(parsed.value)) throw new Error(`${path} is not a JSON array`);
  return plain(parsed.value) as JsonValue[];
}

/** Resolves with the state file's pets once it holds `count` of them; rejects after `timeoutMs`. */
async function stateWith(path: string, count: number, timeoutMs = 5_000): Promise<JsonValue[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // JSON.parse to count (fast); parseJson, exact, once the count is reached.
    const length = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as unknown[]).length : undefined;
    if (length !== undefined && length >= count) return readState(path) as JsonValue[];
    if (Date.now() > deadline) throw new Error(`${path} never held ${count} pets (it holds ${length ?? 'no file'})`);
    await sleep(50);
  }
}

async function serveState(t: Test, file: string, extra: string[] = []): Promise<RunningServer> {
  return startServe(t, ['--state', file, '--quiet', ...extra]);
}

/** `count` NewPets named `${prefix}${i}`. */
const newPets = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => ({ name: `${prefix}${i}`, categoryId: i + 1, status: 'available' }));

async function stop(cli: RunningServer): Promise<unknown> {
  cli.child.kill('SIGTERM');
  return cli.exited;
}

t.test('every --state-interval seconds the pets that changed are written to the file: a JSON array in id order, int64 digits exact', async (t) => {
  const file = join(t.testdir(), 'pets.json');
  const cli = await serveState(t, file, ['--state-interval', '1']);
  const api = apiClient(t, cli.url, KEY);
  await api('/pets', { body: `{"name":"Big","categoryId":${INT64_MAX},"status":"sold"}`, headers: { 'content-type': 'application/json' } });
  await api('/pets', { body: '{"name":"Past2^53","categoryId":9007199254740993}', headers: { 'content-type': 'application/json' } });
  await api('/pets', { json: { name: 'Neg', categoryId: -5, status: 'pending' } });
  const pets = await stateWith(file, 3, 3_000);
  t.strictSame(pets, [
    { id: 1n, name: 'Big', categoryId: 9223372036854775807n, status: 'sold' },
    { id: 2n, name: 'Past2^53', categoryId: 9007199254740993n },
    { id: 3n, name: 'Neg', categoryId: -5n, status: 'pending' },
  ]);
  t.match(readFileSync(file, 'utf8'), `"categoryId":${INT64_MAX}`, 'the digits are in the file as written');
  t.strictSame(await stop(cli), { code: 0, signal: null });
});

t.test('SIGTERM writes the final state; a restart on the same file serves the same pets with the same ids, and the next create gets the next id', async (t) => {
  const file = join(t.testdir(), 'pets.json');
  const first = await serveState(t, file, ['--state-interval', '3600']);
  const control = controlClient(t, first.url, KEY);
  await control('POST', '/pets', { jsonText: `[{"name":"A","categoryId":${INT64_MAX}},{"name":"B","categoryId":2,"status":"sold"}]` });
  await apiClient(t, first.url, KEY)('/pets', { json: { name: 'C', categoryId: 3 } });
  const before = await apiClient(t, first.url, KEY)('/pets?limit=100');
  t.equal(readState(file), undefined, 'nothing written yet: the interval is an hour');
  t.strictSame(await stop(first), { code: 0, signal: null });
  t.equal(readState(file)?.length, 3, 'the shutdown wrote all three pets');

  const second = await serveState(t, file);
  t.match(second.stdout(), /pets: 3 from .*pets\.json/, 'it says where its pets come from');
  const api = apiClient(t, second.url, KEY);
  const after = await api('/pets?limit=100');
  t.equal(after.text, before.text, 'the same pets, ids and int64 digits, byte for byte');
  t.equal((await api('/pets/1')).body.name, 'A');
  t.equal((await api('/pets', { json: { name: 'D', categoryId: 4 } })).body.id, 4, 'the next id follows the saved ones');
  t.strictSame(await stop(second), { code: 0, signal: null });
  t.strictSame(
    readState(file)?.map((p) => (p as { name: string }).name),
    ['A', 'B', 'C', 'D'],
    'the second shutdown kept them all and added the new one',
  );
});

/**
 * Reads `path` in a tight loop on a worker thread (so the reads do not wait
 * for this test's event loop) until `stop()`; every read that finds the file
 * must parse as a JSON array.
 */
function pollReader(path: string) {
  // flag[0]: stop; flag[1]: versions seen so far (published by the reader).
  const flag = new Int32Array(new SharedArrayBuffer(8));
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const { readFileSync } = require('node:fs');
     const flag = new Int32Array(workerData.flag);
     let reads = 0, broken = 0, missing = 0; const lengths = new Set(); const samples = [];
     while (Atomics.load(flag, 0) === 0 || reads === 0) {
       let text;
       try { text = readFileSync(workerData.path, 'utf8'); } catch (e) { if (e.code !== 'ENOENT') throw e; if (reads > 0) missing++; continue; }
       reads++;
       try { const value = JSON.parse(text); if (!Array.isArray(value)) throw new Error('not an array'); lengths.add(value.length); Atomics.store(flag, 1, lengths.size); }
       catch { broken++; if (samples.length < 3) samples.push(text.length + ' bytes ending ' + JSON.stringify(text.slice(-40))); }
     }
     parentPort.postMessage({ reads, broken, missing, versions: lengths.size, samples });`,
    { eval: true, workerData: { path, flag: flag.buffer } },
  );
  const result = new Promise<{ reads: number; broken: number; missing: number; versions: number; samples: string[] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    versionsSeen: () => Atomics.load(flag, 1),
    stop: () => {
      Atomics.store(flag, 0, 1);
      return result;
    },
  };
}

t.test('with no state file yet, the seed is written to it even when no pet changes, so the next start reads the file', async (t) => {
  const file = join(t.testdir(), 'pets.json');
  const cli = await serveState(t, file, ['--seed', 'fixtures/pets.json', '--state-interval', '3600']);
  t.strictSame(await stop(cli), { code: 0, signal: null });
  t.equal(readState(file)?.length, 32, 'the 32 seed pets are in the file');
  const again = await serveState(t, file);
  t.match(again.stdout(), /pets: 32 from .*pets\.json/, 'and the next start, without --seed, serves them from it');
});

t.test('a reader never sees the state file half-written, during a burst of creates and the periodic writes after it', async (t) => {
  const dir = t.testdir();
  const file = join(dir, 'pets.json');
  const cli = await serveState(t, file, ['--state-interval', '1']);
  const control = controlClient(t, cli.url, KEY);
  const api = apiClient(t, cli.url, KEY);
  const reader = pollReader(file);
  // About 0.8 MB of pets after three rounds; each burst is followed by a periodic write. On a
  // loaded machine writes can coalesce, so rounds go on (a bounded number) until the reader
  // has seen three versions of the file: only then has it really overlapped the writes.
  let round = 0;
  for (; round < 3 || (reader.versionsSeen() < 3 && round < 12); round++) {
    t.equal((await control('POST', '/pets', { json: newPets(`r${round}-`, 4_000) })).status, 201);
    for (let i = 0; i < 10; i++) await api('/pets', { json: { name: `single${round}-${i}`, categoryId: i } });
    await sleep(600);
    if (round >= 2) await stateWith(file, (round + 1) * 4_010);
  }
  const seen = await reader.stop();
  t.equal(seen.broken, 0, `${seen.reads} reads, none of a half-written file ${seen.samples.join('; ')}`);
  t.equal(seen.missing, 0, 'once written, the file never disappears');
  t.ok(seen.reads >= 20, `the file was read many times (${seen.reads})`);
  t.ok(seen.versions >= 3, `the reads saw ${seen.versions} versions of the file: they overlapped the writes`);
  t.strictSame(await stop(cli), { code: 0, signal: null });
  t.strictSame(
    readdirSync(dir).filter((name) => name.endsWith('.tmp')),
    [],
    'no temporary file is left behind',
  );
});

t.test('a temporary file left by a crash does not stop the server from starting on the last complete file', async (t) => {
  const dir = t.testdir({
    'pets.json': '[{"id":1,"name":"Kept","categoryId":1},{"id":2,"name":"Also","categoryId":2}]',
    '.pets.json.4242.deadbeef.tmp': '[{"id":1,"name":"Kept","categoryId":1},{"id":2,"na',
  });
  const file = join(dir, 'pets.json');
  const cli = await serveState(t, file);
  const api = apiClient(t, cli.url, KEY);
  t.strictSame(
    (await api('/pets')).body.map((p: { name: string }) => p.name),
    ['Kept', 'Also'],
  );
  t.equal((await api('/pets', { json: { name: 'New', categoryId: 3 } })).body.id, 3);
  t.strictSame(await stop(cli), { code: 0, signal: null });
  t.equal(readState(file)?.length, 3, 'the shutdown write replaced the file as usual');
});

t.test('kill -9 in the middle of a periodic write leaves the last complete file, which a restart loads', async (t) => {
  const dir = t.testdir();
  const file = join(dir, 'pets.json');
  const cli = await serveState(t, file, ['--state-interval', '1']);
  const control = controlClient(t, cli.url, KEY);
  await control('POST', '/pets', { json: newPets('first-', 3_000) });
  await stateWith(file, 3_000);
  // The next write starts by creating its temporary file: SIGKILL the server the moment it appears.
  let temporary: string | undefined;
  const watcher = watch(dir, (_event, name) => {
    if (temporary === undefined && name?.endsWith('.tmp')) {
      temporary = name;
      cli.child.kill('SIGKILL');
    }
  });
  t.teardown(() => watcher.close());
  await control('POST', '/pets', { json: newPets('second-', 12_000) });
  const late = setTimeout(() => cli.child.kill('SIGKILL'), 5_000);
  t.strictSame(await cli.exited, { code: null, signal: 'SIGKILL' });
  clearTimeout(late);
  t.ok(temporary, `killed as the temporary file ${temporary} appeared (the write goes through one)`);
  const pets = readState(file);
  t.ok(pets?.length === 3_000 || pets?.length === 15_000, `the file holds one complete version: ${pets?.length} pets`);
  t.strictSame(
    pets?.map((p) => Number((p as { id: bigint }).id)),
    Array.from({ length: pets?.length ?? 0 }, (_, i) => i + 1),
    'in id order, none missing',
  );
  const restarted = await serveState(t, file);
  const api = apiClient(t, restarted.url, KEY);
  t.equal((await api('/pets', { json: { name: 'After', categoryId: 1 } })).body.id, (pets?.length ?? 0) + 1, 'the restart loaded it: the next id follows');
  t.equal((await api('/pets/3000')).body.name, 'first-2999');
});

t.test('--ids random: a restart on the state file keeps every random id, and new pets get new random ids', async (t) => {
  const file = join(t.testdir(), 'pets.json');
  const first = await serveState(t, file, ['--ids', 'random', '--state-interval', '3600']);
  const control = controlClient(t, first.url, KEY);
  const loaded = await control('POST', '/pets', { json: newPets('r', 5) });
  const ids = (loaded.value as { ids: bigint[] }).ids;
  const before = await apiClient(t, first.url, KEY)('/pets?limit=100');
  t.strictSame(await stop(first), { code: 0, signal: null });
  t.strictSame(
    readState(file)?.map((p) => (p as { id: bigint }).id),
    ids,
    'the file holds each pet with its random id, in creation order',
  );

  const second = await serveState(t, file, ['--ids', 'random']);
  const api = apiClient(t, second.url, KEY);
  t.equal((await api('/pets?limit=100')).text, before.text, 'the same pets with the same ids, byte for byte');
  t.match((await api(`/pets/${ids[3]}`)).text, `{"id":${ids[3]},"name":"r3"`, 'a pet is found by its kept id');
  const next = BigInt(/"id":(\d+)/.exec((await api('/pets', { json: { name: 'new', categoryId: 1 } })).text)?.[1] ?? '0');
  t.ok(next > 0n && !ids.includes(next), `a new random id: ${next}`);
  t.strictSame(await stop(second), { code: 0, signal: null });
});

t.test('a state file with an id that is not a positive int64, or the same id twice, stops start-up: exit 2, one line', async (t) => {
  const dir = t.testdir({
    'zero.json': '[{"id":0,"name":"Rex","categoryId":1}]',
    'text.json': '[{"id":"7","name":"Rex","categoryId":1}]',
    'huge.json': '[{"id":9223372036854775808,"name":"Rex","categoryId":1}]',
    'twice.json': '[{"id":9007199254740993,"name":"Rex","categoryId":1},{"id":9007199254740993,"name":"Tom","categoryId":1}]',
  });
  const cases: [string, RegExp][] = [
    ['zero.json', /zero\.json: entry 0: id must be a positive int64/],
    ['text.json', /text\.json: entry 0: id must be a positive int64/],
    ['huge.json', /huge\.json: entry 0: id must be a positive int64/],
    ['twice.json', /two pets .* id 9007199254740993/],
  ];
  await Promise.all(
    cases.map(async ([name, message]) => {
      const r = await runCli(t, ['serve', '--port', '0', '--state', join(dir, name)]);
      t.equal(r.code, 2, `${name}: exit 2`);
      t.match(r.stderr, message, `${name}: says why`);
      t.equal(r.stderr.trim().split('\n').length, 1, `${name}: one line: ${r.stderr.trim()}`);
    }),
  );
});

t.test('a state file that cannot be read or is not a JSON array of NewPet stops start-up: exit 2, one line on stderr, the file untouched', async (t) => {
  const dir = t.testdir({
    'truncated.json': '[{"id":1,"name":"Rex","categoryId":1},{"id":2,"na',
    'object.json': '{"pets":[]}',
    'bad-entry.json': '[{"id":1,"name":"Rex","categoryId":1},{"id":2,"name":"NoCategory"}]',
    'empty.json': '',
    'a-directory': {},
  });
  if (!existsSync(join(dir, 'a-directory'))) mkdirSync(join(dir, 'a-directory'));
  const cases: [string, RegExp][] = [
    ['truncated.json', /truncated\.json/],
    ['object.json', /object\.json: must be a JSON array/],
    ['bad-entry.json', /bad-entry\.json: entry 1: .*categoryId/],
    ['empty.json', /empty\.json/],
    ['a-directory', /cannot read state file .*a-directory/],
  ];
  await Promise.all(
    cases.map(async ([name, message]) => {
      const path = join(dir, name);
      const before = name === 'a-directory' ? '' : readFileSync(path, 'utf8');
      const r = await runCli(t, ['serve', '--port', '0', '--state', path]);
      t.equal(r.code, 2, `${name}: exit 2`);
      t.match(r.stderr, message, `${name}: says which file and why`);
      t.equal(r.stderr.trim().split('\n').length, 1, `${name}: one line: ${r.stderr.trim()}`);
      t.notMatch(r.stderr, /\n\s+at /, `${name}: no stack trace`);
      t.notMatch(r.stdout, /serving/, `${name}: nothing is served`);
      if (name !== 'a-directory') t.equal(readFileSync(path, 'utf8'), before, `${name}: the file is left as it was`);
    }),
  );
});

t.test('a state file holding more pets than --max-pets stops start-up rather than dropping pets: exit 2, the file untouched', async (t) => {
  const path = join(t.testdir(), 'pets.json');
  const text = JSON.stringify(newPets('p', 3));
  writeFileSync(path, text);
  const r = await runCli(t, ['serve', '--port', '0', '--state', path, '--max-pets', '2']);
  t.equal(r.code, 2);
  t.match(r.stderr, /max-pets/);
  t.equal(r.stderr.trim().split('\n').length, 1, 'one line');
  t.equal(readFileSync(path, 'utf8'), text, 'no pet was lost from the file');
});

t.test("temporary files left by a writer that crashed are removed; a live writer's are not", async (t) => {
  const { mkdtempSync, writeFileSync, readdirSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { removeStaleTemporaries } = await import('../../src/store/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'petstore-stale-'));
  const state = join(dir, 'pets.json');
  const dead = '.pets.json.999999999.abcd1234.tmp'; // no such process
  const live = `.pets.json.${process.pid}.abcd1234.tmp`;
  const other = '.other.json.999999999.abcd1234.tmp';
  for (const name of [dead, live, other]) writeFileSync(join(dir, name), '[');
  t.strictSame(await removeStaleTemporaries(state), [dead]);
  t.strictSame(readdirSync(dir).sort(), [live, other].sort(), "a live process's file and another state's are kept");
});
