// The server's clock (src/server/clock.ts): it runs at real speed from a chosen
// instant (`--now`), shares its offset with other instances, and gives the
// `Date` header as an HTTP-date (RFC 9110 §5.6.7) computed at most once a second.
import t, { type Test } from 'tap';
import { createClock } from '../../../src/server/clock.js';

const REAL = Date.UTC(2026, 0, 1, 12, 0, 0); // the machine's time during each test
const SUNSET = new Date('2030-12-05T00:00:00Z');

/** Makes Date.now() read `real.ms` for the rest of the test. */
function fakeRealTime(t: Test) {
  const real = { ms: REAL };
  const original = Date.now;
  Date.now = () => real.ms;
  t.teardown(() => {
    Date.now = original;
  });
  return real;
}

t.test('a clock with no start is the real time', async (t) => {
  const real = fakeRealTime(t);
  const clock = createClock();
  t.equal(clock.now(), REAL);
  t.equal(clock.offsetMs(), 0);
  t.equal(clock.isRealTime(), true);
  real.ms += 1234;
  t.equal(clock.now(), REAL + 1234);
});

t.test('a clock started at an instant reads it, then runs at real speed', async (t) => {
  const real = fakeRealTime(t);
  const clock = createClock(SUNSET);
  t.equal(clock.now(), SUNSET.getTime());
  t.equal(clock.offsetMs(), SUNSET.getTime() - REAL, 'ahead of the real time');
  t.equal(clock.isRealTime(), false);
  real.ms += 1500;
  t.equal(clock.now(), SUNSET.getTime() + 1500, '1.5 s later, for both');
});

t.test('set moves the clock to an instant, in the past too', async (t) => {
  const real = fakeRealTime(t);
  const clock = createClock();
  const past = new Date('2020-02-29T10:00:00Z');
  clock.set(past);
  t.equal(clock.now(), past.getTime());
  t.ok(clock.offsetMs() < 0, 'behind the real time');
  real.ms += 10;
  t.equal(clock.now(), past.getTime() + 10);
  clock.set(new Date(real.ms));
  t.equal(clock.isRealTime(), true, 'set to the real time, it is real time again');
});

t.test('an offset set by another instance gives the same time here', async (t) => {
  fakeRealTime(t);
  const first = createClock(SUNSET);
  const second = createClock();
  second.setOffsetMs(first.offsetMs());
  t.equal(second.now(), first.now());
  t.equal(second.httpDate(), 'Thu, 05 Dec 2030 00:00:00 GMT');
  second.setOffsetMs(0);
  t.equal(second.isRealTime(), true);
  t.equal(second.now(), REAL);
});

t.test('httpDate is the IMF-fixdate of the clock, to the second', async (t) => {
  const real = fakeRealTime(t);
  const clock = createClock(SUNSET);
  t.equal(clock.httpDate(), 'Thu, 05 Dec 2030 00:00:00 GMT');
  real.ms += 999;
  t.equal(clock.httpDate(), 'Thu, 05 Dec 2030 00:00:00 GMT', 'the same second');
  real.ms += 1;
  t.equal(clock.httpDate(), 'Thu, 05 Dec 2030 00:00:01 GMT', 'the next second');
  clock.set(new Date('2031-01-01T00:00:00.500Z'));
  t.equal(clock.httpDate(), 'Wed, 01 Jan 2031 00:00:00 GMT', 'at once after the clock is set');
  clock.setOffsetMs(0);
  t.equal(clock.httpDate(), 'Thu, 01 Jan 2026 12:00:01 GMT', 'and after the offset is set');
});

t.test('httpDate is computed at most once a second', async (t) => {
  const real = fakeRealTime(t);
  const clock = createClock(SUNSET);
  let formatted = 0;
  const toUTCString = Date.prototype.toUTCString;
  Date.prototype.toUTCString = function (this: Date) {
    formatted++;
    return toUTCString.call(this);
  };
  t.teardown(() => {
    Date.prototype.toUTCString = toUTCString;
  });
  for (let i = 0; i < 100; i++) clock.httpDate();
  t.equal(formatted, 1, 'a hundred answers in one second: one formatting');
  real.ms += 1000;
  clock.httpDate();
  t.equal(formatted, 2, 'a new second: formatted again');
});
