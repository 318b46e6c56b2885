// Issue 26 §3: the request log is written the way fast Node loggers write
// it: lines gathered and written once per turn of the event loop or by
// size, flushed on shutdown and on a fatal error, nothing lost.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { createLineBuffer, LINE_BUFFER_LIMITS } from '../../../src/server/line-buffer.js';

t.test('lines are gathered and written together, once the delay after the first has passed', async (t) => {
  // A delay far beyond what a busy CI machine takes for the loop below: the
  // assertion is on what waits, not on how fast the machine is.
  const writes: string[] = [];
  const buffer = createLineBuffer((text) => writes.push(text), { chars: LINE_BUFFER_LIMITS.chars, delayMs: 300 });
  const started = performance.now();
  for (let i = 0; i < 50; i++) buffer.write(`line ${i}\n`);
  await new Promise((resolve) => setImmediate(resolve));
  if (performance.now() - started < 250) t.strictSame(writes, [], 'nothing written yet: 50 short lines are less than the size');
  while (writes.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  t.ok(performance.now() - started >= 295, 'written once the delay has passed, not before');
  t.equal(writes.length, 1, 'one write');
  t.equal(writes[0], Array.from({ length: 50 }, (_, i) => `line ${i}\n`).join(''), 'every line, in order');
  buffer.write('next\n');
  while (writes.length === 1) await new Promise((resolve) => setTimeout(resolve, 20));
  t.strictSame(writes.slice(1), ['next\n'], 'a later line: another write');
});

t.test('by default the delay is 10 ms and the size 16 KiB', async (t) => {
  t.strictSame(LINE_BUFFER_LIMITS, { chars: 16 * 1024, delayMs: 10 });
});

t.test('once the size is reached what waits is written at once', async (t) => {
  const writes: string[] = [];
  const buffer = createLineBuffer((text) => writes.push(text), { chars: 100, delayMs: 10_000 });
  buffer.write(`${'a'.repeat(60)}\n`);
  t.equal(writes.length, 0);
  buffer.write(`${'b'.repeat(60)}\n`);
  t.equal(writes.length, 1, 'written at once');
  t.equal(writes[0]?.length, 122);
  buffer.flush();
});

t.test('under load a write carries many lines: 10,000 lines of 100 characters in at most 70 writes', async (t) => {
  const writes: string[] = [];
  const buffer = createLineBuffer((text) => writes.push(text));
  for (let i = 0; i < 10_000; i++) buffer.write(`${String(i).padStart(99, '.')}\n`);
  buffer.flush();
  t.ok(writes.length <= 70, `${writes.length} writes`);
  t.equal(writes.join('').length, 1_000_000, 'every character');
});

t.test('flush writes what waits now, and nothing when nothing does', async (t) => {
  const writes: string[] = [];
  const buffer = createLineBuffer((text) => writes.push(text));
  buffer.flush();
  t.strictSame(writes, []);
  buffer.write('a\n');
  buffer.flush();
  t.strictSame(writes, ['a\n']);
  await new Promise((resolve) => setTimeout(resolve, 30));
  t.strictSame(writes, ['a\n'], 'not written twice');
});

t.test('lines waiting when the process dies of an uncaught error are written, none lost', async (t) => {
  const module = fileURLToPath(new URL('../../../src/server/line-buffer.ts', import.meta.url));
  const script = `
    import { createLineBuffer } from ${JSON.stringify(module)};
    const buffer = createLineBuffer((text) => process.stdout.write(text));
    buffer.flushOnExit();
    for (let i = 0; i < 1000; i++) buffer.write('line ' + i + '\\n');
    throw new Error('fatal');
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  t.not(child.status, 0, 'the process failed');
  t.match(child.stderr, /fatal/);
  const lines = child.stdout.split('\n').filter((line) => line !== '');
  t.equal(lines.length, 1000, 'every line reached stdout');
  t.equal(lines[999], 'line 999');
});
