import t from 'tap';
import { parseHttpDate } from '../../conformance/http-date.js';

// RFC 9110 §5.6.7: all three HTTP-date forms name the same instant, in UTC,
// whatever the time zone of the machine the suite runs on.
const REMOVAL = Date.UTC(2030, 11, 5);
const FORMS = ['Thu, 05 Dec 2030 00:00:00 GMT', 'Thursday, 05-Dec-30 00:00:00 GMT', 'Thu Dec  5 00:00:00 2030'];

for (const zone of ['UTC', 'Asia/Tokyo', 'America/New_York']) {
  t.test(`every HTTP-date form is read as UTC on a machine in ${zone}`, async (t) => {
    const before = process.env['TZ'];
    process.env['TZ'] = zone;
    t.teardown(() => {
      if (before === undefined) delete process.env['TZ'];
      else process.env['TZ'] = before;
    });
    // Node.js reads TZ again when it changes: the local reading does differ outside UTC.
    if (zone !== 'UTC') t.not(Date.parse('Thu Dec  5 00:00:00 2030'), REMOVAL, 'Date.parse alone reads asctime as local time');
    for (const form of FORMS) t.equal(parseHttpDate(form), REMOVAL, form);
  });
}

t.test('what is no date stays NaN', async (t) => {
  t.ok(Number.isNaN(parseHttpDate('soon')));
  t.ok(Number.isNaN(parseHttpDate('Thu Xyz  5 00:00:00 2030')));
});
