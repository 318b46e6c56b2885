// Writes that become visible within a window (conformance/settle.ts): a read
// that misses what the run wrote is sent again, after a growing pause, until
// it shows the write or the settle window (counted from the write) ends. How
// long reads waited is measured per operation; an operation that missed a
// write for a whole window no longer waits.
import t from 'tap';
import type { WireRequest, WireResponse } from '../../conformance/client.js';
import { createSettler } from '../../conformance/settle.js';

type Sent = { request: WireRequest; response: WireResponse };

/** A read of `operationId` whose answers are numbered 1, 2, 3…; `reads()` counts them. */
function reader(operationId: string) {
  let count = 0;
  const read = async (): Promise<Sent> => {
    count++;
    return {
      request: { method: 'GET', path: '/pets', headers: {}, operationId },
      response: { status: 200, headers: {}, text: String(count), json: undefined, durationMs: 1 },
    };
  };
  return { read, reads: () => count };
}

/** Answer number `n` and later show the write. */
const visibleFrom = (n: number) => (sent: Sent) => Number(sent.response.text) >= n;

/** A sleep that resolves at once and records each pause asked for. */
function instantSleep() {
  const pauses: number[] = [];
  return { sleep: async (ms: number) => void pauses.push(ms), pauses };
}

/** A real sleep that records each pause asked for. */
function realSleep() {
  const pauses: number[] = [];
  const sleep = (ms: number) => {
    pauses.push(ms);
    return new Promise<void>((resolve) => setTimeout(resolve, ms));
  };
  return { sleep, pauses };
}

t.test('a write visible at once: one read, no pause, no lag recorded', async (t) => {
  const { sleep, pauses } = instantSleep();
  const settler = createSettler(10_000, sleep);
  const { read, reads } = reader('listPets');
  const sent = await settler.readAfterWrite(read, visibleFrom(1), performance.now());
  t.equal(sent.response.text, '1', 'the first answer');
  t.equal(reads(), 1, 'read once');
  t.same(pauses, [], 'never paused');
  t.same(settler.summary(), [], 'nothing waited, so nothing to report');
});

t.test('a write visible after some reads: read again after growing pauses, and the lag is recorded', async (t) => {
  const { sleep, pauses } = instantSleep();
  const settler = createSettler(10_000, sleep);
  const { read, reads } = reader('getPet');
  const sent = await settler.readAfterWrite(read, visibleFrom(4), performance.now());
  t.equal(sent.response.text, '4', 'the answer that shows the write');
  t.equal(reads(), 4, 'three misses, then the read that shows it');
  t.same(pauses, [25, 50, 100], 'a pause before each read again, doubling');
  const [summary, ...rest] = settler.summary();
  t.same(rest, [], 'one operation waited');
  t.equal(summary?.operationId, 'getPet');
  t.equal(summary?.waited, 1, 'one read waited');
  t.ok(summary !== undefined && summary.medianMs >= 0 && summary.medianMs === summary.worstMs, 'one lag: it is the median and the worst');
});

t.test('the pauses grow to half a second at most', async (t) => {
  const { sleep, pauses } = instantSleep();
  const settler = createSettler(60_000, sleep);
  const { read } = reader('listPets');
  await settler.readAfterWrite(read, visibleFrom(10), performance.now());
  t.same(pauses, [25, 50, 100, 200, 400, 500, 500, 500, 500]);
});

t.test('the lag is counted from the write: waited, median and worst per operation', async (t) => {
  const { sleep } = instantSleep();
  const settler = createSettler(10_000, sleep);
  const now = performance.now();
  // Written 100, 300 and 500 ms ago; each read shows the write on its second answer.
  for (const ago of [300, 500, 100]) await settler.readAfterWrite(reader('listPets').read, visibleFrom(2), now - ago);
  // Another operation, seen at once: not in the summary.
  await settler.readAfterWrite(reader('getPet').read, visibleFrom(1), now);
  const summary = settler.summary();
  t.equal(summary.length, 1, `only the operation that waited: ${JSON.stringify(summary)}`);
  const list = summary[0]!;
  t.equal(list.operationId, 'listPets');
  t.equal(list.waited, 3, 'three reads waited');
  t.ok(list.medianMs >= 300 && list.medianMs < 500, `the median is the middle lag, about 300 ms: ${list.medianMs}`);
  t.ok(list.worstMs >= 500 && list.worstMs < 1000, `the worst is the longest, about 500 ms: ${list.worstMs}`);

  await settler.readAfterWrite(reader('getPet').read, visibleFrom(3), now - 50);
  const byOperation = Object.fromEntries(settler.summary().map((s) => [s.operationId, s]));
  t.equal(byOperation['getPet']?.waited, 1, 'each operation counted apart');
  t.equal(byOperation['listPets']?.waited, 3);
});

t.test('a write never visible: the last answer after the window, and that operation no longer waits', async (t) => {
  const { sleep, pauses } = realSleep();
  const settler = createSettler(200, sleep);
  const never = () => false;
  const list = reader('listPets');
  const writtenAt = performance.now();
  const sent = await settler.readAfterWrite(list.read, never, writtenAt);
  const took = performance.now() - writtenAt;
  t.ok(took >= 200, `it waited out the window: ${took.toFixed(0)} ms`);
  t.ok(took < 1500, `and not much longer: ${took.toFixed(0)} ms`);
  t.ok(list.reads() > 1, `read again within the window: ${list.reads()} reads`);
  t.equal(sent.response.text, String(list.reads()), 'the last answer is returned');
  t.ok(pauses.reduce((a, b) => a + b, 0) <= 200 + pauses.length, `no pause runs past the window's end: ${pauses.join(', ')}`);
  t.same(settler.summary(), [], 'a write never seen is no lag: it is a failure of its check');

  pauses.length = 0;
  const again = reader('listPets');
  const started = performance.now();
  const second = await settler.readAfterWrite(again.read, never, performance.now());
  t.equal(again.reads(), 1, 'the expired operation reads once');
  t.same(pauses, [], 'and does not pause');
  t.equal(second.response.text, '1');
  t.ok(performance.now() - started < 100, 'it returns at once');

  const other = reader('getPet');
  await settler.readAfterWrite(other.read, visibleFrom(2), performance.now());
  t.equal(other.reads(), 2, 'another operation still waits');
  t.same(
    settler.summary().map((s) => s.operationId),
    ['getPet'],
  );
});

t.test('a write already older than the window: read once, not again', async (t) => {
  const { sleep, pauses } = instantSleep();
  const settler = createSettler(200, sleep);
  const list = reader('listPets');
  await settler.readAfterWrite(list.read, visibleFrom(2), performance.now() - 1000);
  t.equal(list.reads(), 1);
  t.same(pauses, []);
});

t.test('settleMs 0 demands read-your-writes: a read that misses is never sent again', async (t) => {
  const { sleep, pauses } = instantSleep();
  const settler = createSettler(0, sleep);
  const list = reader('listPets');
  const sent = await settler.readAfterWrite(list.read, visibleFrom(2), performance.now());
  t.equal(sent.response.text, '1', 'the first answer, which misses the write');
  t.equal(list.reads(), 1, 'read once');
  t.same(pauses, [], 'never paused');
  t.same(settler.summary(), []);
  const again = reader('listPets');
  await settler.readAfterWrite(again.read, visibleFrom(2), performance.now());
  t.equal(again.reads(), 1, 'every time');
});
