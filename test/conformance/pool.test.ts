// runPool (conformance/pool.ts): `work` over `items` with at most `width` at a
// time, the results in the order of the items, and the first failure rejects
// the whole. Each piece of work here ends when the test says so, never on a timer.
import t from 'tap';
import { runPool } from '../../conformance/pool.js';

/** Work whose pieces end when released, recording when each starts. */
function controlled<T>() {
  const started: T[] = [];
  const pending = new Map<T, { resolve: (v: string) => void; reject: (e: Error) => void }>();
  let inFlight = 0;
  let most = 0;
  const work = (item: T) =>
    new Promise<string>((resolve, reject) => {
      started.push(item);
      most = Math.max(most, ++inFlight);
      pending.set(item, {
        resolve: (v) => {
          inFlight--;
          resolve(v);
        },
        reject: (e) => {
          inFlight--;
          reject(e);
        },
      });
    });
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { started, pending, work, settle, most: () => most };
}

t.test('at most `width` items are worked on at once, and a lane takes the next item when one ends', async (t) => {
  const c = controlled<number>();
  const items = [0, 1, 2, 3, 4, 5, 6];
  const whole = runPool(items, 3, c.work);
  await c.settle();
  t.strictSame(c.started, [0, 1, 2], 'three started, in order');
  c.pending.get(1)!.resolve('one');
  await c.settle();
  t.strictSame(c.started, [0, 1, 2, 3], 'one ended, the next one started');
  for (const item of [0, 2, 3, 4, 5, 6]) {
    c.pending.get(item)?.resolve(`#${item}`);
    await c.settle();
  }
  t.strictSame(await whole, ['#0', 'one', '#2', '#3', '#4', '#5', '#6']);
  t.equal(c.most(), 3, 'never more than three');
  t.strictSame(c.started, items, 'each item worked on once');
});

t.test('the results are in the order of the items, whatever order they end in', async (t) => {
  const c = controlled<string>();
  const whole = runPool(['a', 'b', 'c', 'd'], 4, c.work);
  await c.settle();
  for (const item of ['d', 'b', 'c', 'a']) c.pending.get(item)!.resolve(item.toUpperCase());
  t.strictSame(await whole, ['A', 'B', 'C', 'D']);
});

t.test('a width over the number of items starts them all; width 1 works one at a time', async (t) => {
  const wide = controlled<number>();
  const all = runPool([1, 2], 50, wide.work);
  await wide.settle();
  t.strictSame(wide.started, [1, 2]);
  for (const item of [1, 2]) wide.pending.get(item)!.resolve(String(item));
  t.strictSame(await all, ['1', '2']);

  const log: string[] = [];
  const results = await runPool([1, 2, 3], 1, async (n) => {
    log.push(`start ${n}`);
    await Promise.resolve();
    log.push(`end ${n}`);
    return n * 10;
  });
  t.strictSame(results, [10, 20, 30]);
  t.strictSame(log, ['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
});

t.test('no items: no work, no results', async (t) => {
  let calls = 0;
  t.strictSame(
    await runPool([], 4, async () => {
      calls++;
    }),
    [],
  );
  t.equal(calls, 0);
});

t.test('the first failure rejects the whole', async (t) => {
  const c = controlled<number>();
  const whole = runPool([0, 1, 2], 3, c.work);
  await c.settle();
  c.pending.get(0)!.resolve('fine');
  c.pending.get(2)!.reject(new Error('item 2 failed'));
  c.pending.get(1)!.reject(new Error('item 1 failed later'));
  await t.rejects(whole, { message: 'item 2 failed' });
});
