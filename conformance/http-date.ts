/**
 * Reading an HTTP-date (RFC 9110 §5.6.7) as an instant. Date.parse reads
 * IMF-fixdate and the RFC 850 form by their "GMT", but the asctime form has
 * no zone, and Date.parse takes a date without one for local time: on a
 * machine east of UTC, "Thu Dec  5 00:00:00 2030" would be 4 December.
 * RFC 9110 says every HTTP-date is in UTC, so asctime is read as such.
 */
const ASCTIME = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/** Milliseconds since the epoch, or NaN when the text is no date Date.parse knows. */
export function parseHttpDate(value: string): number {
  return Date.parse(ASCTIME.test(value) ? `${value} GMT` : value);
}
