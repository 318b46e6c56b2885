// An ISO 8601 instant for the server clock (src/server/instant.ts), read
// strictly: a time needs an offset, and an impossible date is refused rather
// than rolled over as `new Date` does.
import t from 'tap';
import { readInstant } from '../../../src/server/instant.js';

const iso = (text: string) => readInstant(text)?.toISOString();

t.test('a date-time with an offset is that instant', async (t) => {
  t.equal(iso('2030-12-05T00:00:00Z'), '2030-12-05T00:00:00.000Z');
  t.equal(iso('2030-12-05T09:00:00+09:00'), '2030-12-05T00:00:00.000Z', 'an offset with a colon');
  t.equal(iso('2030-12-04T19:00:00-0500'), '2030-12-05T00:00:00.000Z', 'an offset without one');
  t.equal(iso('2030-12-05T12:30Z'), '2030-12-05T12:30:00.000Z', 'without seconds');
  t.equal(iso('2030-12-05T00:00:00.25Z'), '2030-12-05T00:00:00.250Z', 'a fraction of a second');
});

t.test('a date alone is midnight UTC, whatever the local time zone', async (t) => {
  const before = process.env['TZ'];
  process.env['TZ'] = 'America/New_York';
  t.teardown(() => {
    if (before === undefined) delete process.env['TZ'];
    else process.env['TZ'] = before;
  });
  t.equal(iso('2030-12-05'), '2030-12-05T00:00:00.000Z');
});

t.test('a time without an offset is refused: it would depend on the local zone', async (t) => {
  t.equal(readInstant('2030-12-05T00:00:00'), undefined);
  t.equal(readInstant('2030-12-05T00:00'), undefined);
});

t.test('an impossible date or time is refused, not rolled over', async (t) => {
  for (const text of [
    '2031-02-29',
    '2031-02-30T00:00:00Z',
    '2030-04-31',
    '2030-13-01',
    '2030-00-10',
    '2030-12-00',
    '2030-12-32',
    '1900-02-29',
    '2030-12-05T24:00:00Z',
    '2030-12-05T23:60:00Z',
  ]) {
    t.equal(readInstant(text), undefined, text);
  }
  t.equal(iso('2032-02-29'), '2032-02-29T00:00:00.000Z', 'a leap day');
  t.equal(iso('2000-02-29'), '2000-02-29T00:00:00.000Z', 'a leap day of a year divisible by 400');
  t.equal(readInstant('0050-06-01T00:00:00Z')?.getUTCFullYear(), 50, 'a year below 100 is not taken for 19xx');
});

t.test('what is not ISO 8601 is refused', async (t) => {
  for (const text of [
    '',
    'now',
    'Thu, 05 Dec 2030 00:00:00 GMT',
    '2030-12-5',
    '30-12-05',
    '2030/12/05',
    '2030-12-05 00:00:00Z',
    '2030-12-05t00:00:00z',
    ' 2030-12-05',
    '2030-12-05T00:00:00Z ',
    '1924991200',
  ]) {
    t.equal(readInstant(text), undefined, JSON.stringify(text));
  }
});
