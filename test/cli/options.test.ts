// The parsers of option values (cli/options.ts): whole numbers and seconds
// within a range, ports, ISO 8601 instants with an offset (src/server/instant.ts)
// and repeatable options; a bad value throws commander's InvalidArgumentError.
import { InvalidArgumentError } from '@commander-js/extra-typings';
import t from 'tap';
import { collect, parseInstant, parseInteger, parsePort, parseSeconds } from '../../cli/options.js';

t.test('a whole number within its range is read; anything else is an invalid argument naming the range', async (t) => {
  const runs = parseInteger(1, 100);
  t.equal(runs('1'), 1);
  t.equal(runs('100'), 100);
  t.equal(runs('042'), 42, 'leading zeros are decimal, not octal');
  t.equal(runs(' 7 '), 7, 'white space around is allowed');
  for (const bad of ['0', '101', '-5', '+5', '1.0', '1e2', '0x10', 'ten', '', '1 2']) {
    const error = t.throws(() => runs(bad), bad || 'empty');
    t.ok(error instanceof InvalidArgumentError, `${bad || 'empty'}: InvalidArgumentError`);
    t.equal((error as Error).message, 'expected a whole number from 1 to 100');
  }
});

t.test('a port is a whole number from 0 to 65535', async (t) => {
  t.equal(parsePort('0'), 0, '0: the system picks one');
  t.equal(parsePort('4010'), 4010);
  t.equal(parsePort('65535'), 65535);
  t.throws(() => parsePort('65536'), { message: 'expected a whole number from 0 to 65535' });
  t.throws(() => parsePort('-1'), InvalidArgumentError);
});

t.test('seconds may have a fraction and are returned in milliseconds, within the range in seconds', async (t) => {
  const grace = parseSeconds(0, 600);
  t.equal(grace('0'), 0);
  t.equal(grace('0.5'), 500);
  t.equal(grace('2'), 2000);
  t.equal(grace('1.2345'), 1235, 'rounded to the millisecond');
  t.equal(grace('600'), 600_000, 'the top of the range, in seconds');
  for (const bad of ['600.001', '-1', '.5', '5.', '1e2', 'soon', '']) {
    t.throws(() => grace(bad), { message: 'expected a number of seconds from 0 to 600' }, bad || 'empty');
  }
});

t.test('an instant is an ISO 8601 date or date-time with an offset; anything else is an invalid argument', async (t) => {
  t.equal(parseInstant('2030-12-05T00:00:00Z').getTime(), Date.UTC(2030, 11, 5));
  t.equal(parseInstant('2030-12-05T02:00:00+02:00').getTime(), Date.UTC(2030, 11, 5));
  t.equal(parseInstant('2030-12-05').getTime(), Date.UTC(2030, 11, 5), 'a date alone is midnight UTC');
  for (const bad of ['2030-12-05T00:00:00', 'tomorrow', '2031-02-29', '']) {
    const error = t.throws(() => parseInstant(bad), bad || 'empty');
    t.ok(error instanceof InvalidArgumentError);
    t.match((error as Error).message, /ISO 8601 instant such as 2030-12-05T00:00:00Z/);
  }
});

t.test('a repeatable option collects its values in order, leaving the earlier list as it was', async (t) => {
  const first = collect('a');
  t.strictSame(first, ['a'], 'the first value starts a list');
  const second = collect('b', first);
  t.strictSame(second, ['a', 'b']);
  t.strictSame(first, ['a'], 'the earlier list is not changed');
});
