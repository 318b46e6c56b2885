// The control API's settings shared by the instances of one shared store
// (src/server/control/shared-settings.ts): the clock's offset and the fault table
// travel whole through the store's channel; a reset (or a cleared journal or
// findings) empties the other instances' too; the latest state is taken up at start.
import t from 'tap';
import { createClock } from '../../../../src/server/clock.js';
import { type Fault, FaultTable } from '../../../../src/server/control/faults.js';
import { Journal, type JournalRecord } from '../../../../src/server/control/journal.js';
import { type ControlChange, shareControl } from '../../../../src/server/control/shared-settings.js';
import type { ControlChannel } from '../../../../src/store/store.js';

/** An in-memory stand-in for the store's channel: one latest state, told to every subscriber, the publisher included. */
function createBus() {
  let latest: string | undefined;
  const listeners: ((state: string) => void)[] = [];
  const channel = (): ControlChannel => ({
    async publish(state) {
      latest = state;
      for (const listener of listeners) listener(state);
    },
    latest: async () => latest,
    async subscribe(listener) {
      listeners.push(listener);
    },
  });
  return {
    channel,
    listeners,
    /** What the store does after an outage: hands every subscriber the latest again. */
    replay: () => {
      for (const listener of listeners) if (latest !== undefined) listener(latest);
    },
    /** A text put on the channel by something else (another version, garbage). */
    raw: (text: string) => {
      for (const listener of listeners) listener(text);
    },
  };
}

const record = (id: number): JournalRecord => ({
  id,
  findings: undefined,
  arrivedAt: 0,
  method: 'GET',
  path: '/v1/pets',
  status: 200,
  latencyMs: 1,
  code: undefined,
  fault: undefined,
  httpVersion: '1.1',
  requestHeaders: [],
  requestBody: undefined,
  requestBytes: 0,
  responseHeaders: undefined,
  responseBody: undefined,
  responseBytes: 0,
});

const SLOW: Fault = { latencyMs: 250, errorRate: 0, dropRate: 0 };
const FAILING: Fault = { latencyMs: 0, status: 503, errorRate: 1, dropRate: 0 };

/** One instance's settings, with a journal of one request and a count of its findings cleared. */
async function instance(bus: ReturnType<typeof createBus>) {
  const clock = createClock();
  const faults = new FaultTable();
  const journal = new Journal(10);
  journal.add(record(1));
  let findingsCleared = 0;
  const shared = await shareControl(bus.channel(), { clock, faults, journal, findings: { clear: () => void findingsCleared++ } });
  return { clock, faults, journal, shared, findingsCleared: () => findingsCleared };
}

t.test('a change of clock or faults made on one instance applies on every other', async (t) => {
  const bus = createBus();
  const a = await instance(bus);
  const b = await instance(bus);
  t.equal(bus.listeners.length, 2, 'each instance subscribed before shareControl resolved');
  a.clock.setOffsetMs(86_400_000);
  await a.shared.announce('clock');
  t.equal(b.clock.offsetMs(), 86_400_000, 'the clock offset');
  a.faults.set('getPet', SLOW);
  a.faults.set('createPet', FAILING);
  await a.shared.announce('faults');
  t.strictSame(b.faults.entries(), { getPet: SLOW, createPet: FAILING }, 'the fault table, whole');
  a.faults.delete('getPet');
  await a.shared.announce('faults');
  t.strictSame(b.faults.entries(), { createPet: FAILING }, 'a fault removed is removed everywhere: the table replaces');
  t.equal(b.journal.size, 1, 'a clock or fault change leaves the journal');
  t.equal(b.findingsCleared(), 0, 'and the findings');
});

t.test('a reset empties the journal and findings of the other instances, not twice those of the one that made it', async (t) => {
  const bus = createBus();
  const a = await instance(bus);
  const b = await instance(bus);
  await a.shared.announce('reset');
  t.equal(b.journal.size, 0, 'the other instance’s journal is emptied');
  t.equal(b.findingsCleared(), 1, 'and its findings');
  t.equal(a.journal.size, 1, 'the announcing instance emptied its own when it made the change');
  t.equal(a.findingsCleared(), 0);
});

t.test('clearing the journal, or the findings, clears only that on the others', async (t) => {
  const bus = createBus();
  const a = await instance(bus);
  const b = await instance(bus);
  await a.shared.announce('findings');
  t.equal(b.findingsCleared(), 1);
  t.equal(b.journal.size, 1, 'findings cleared: the journal stays');
  await a.shared.announce('journal');
  t.equal(b.journal.size, 0);
  t.equal(b.findingsCleared(), 1, 'journal cleared: the findings stay');
});

t.test('an instance started later takes up the latest state, keeping its own journal', async (t) => {
  const bus = createBus();
  const a = await instance(bus);
  a.clock.setOffsetMs(-3_600_000);
  a.faults.set('listPets', SLOW);
  await a.shared.announce('reset');
  const late = await instance(bus);
  t.equal(late.clock.offsetMs(), -3_600_000);
  t.strictSame(late.faults.entries(), { listPets: SLOW });
  t.equal(late.journal.size, 1, 'a reset made before it started empties nothing of its own');
  t.equal(late.findingsCleared(), 0);
});

t.test('the latest state handed again after an outage is not applied twice', async (t) => {
  const bus = createBus();
  const a = await instance(bus);
  const b = await instance(bus);
  a.clock.setOffsetMs(1000);
  await a.shared.announce('reset');
  t.equal(b.findingsCleared(), 1);
  b.journal.add(record(2));
  b.clock.setOffsetMs(5);
  bus.replay();
  t.equal(b.journal.size, 1, 'the journal kept what came after the reset');
  t.equal(b.findingsCleared(), 1, 'the findings were not cleared again');
  t.equal(b.clock.offsetMs(), 5, 'the state was not applied again');
});

t.test('what is not a state of this version on the channel is ignored', async (t) => {
  const bus = createBus();
  const a = await instance(bus);
  a.clock.setOffsetMs(42);
  a.faults.set('getPet', SLOW);
  const valid = { id: 'x', from: 'elsewhere', change: 'reset' as ControlChange, clockOffsetMs: 7, faults: {} };
  for (const text of [
    'not JSON',
    'null',
    '42',
    JSON.stringify({ ...valid, id: 1 }),
    JSON.stringify({ ...valid, from: undefined }),
    JSON.stringify({ ...valid, clockOffsetMs: '7' }),
    JSON.stringify({ ...valid, faults: null }),
    JSON.stringify({ ...valid, faults: 'none' }),
  ]) {
    bus.raw(text);
    t.equal(a.clock.offsetMs(), 42, `clock kept: ${text}`);
  }
  t.strictSame(a.faults.entries(), { getPet: SLOW });
  t.equal(a.journal.size, 1);
  bus.raw(JSON.stringify(valid));
  t.equal(a.clock.offsetMs(), 7, 'a well-formed state from another instance is applied');
  t.equal(a.journal.size, 0);
});
