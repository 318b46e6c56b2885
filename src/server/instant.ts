/**
 * An ISO 8601 instant for the server clock (`--now`, `PUT /__control/clock`),
 * read strictly: a time needs an offset (without one it would depend on the
 * local zone), and an impossible date is refused rather than rolled over as
 * `new Date` does (2031-02-30 would become 2 March, 24:00 the next day).
 */
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;

export function readInstant(text: string): Date | undefined {
  const match = ISO_INSTANT.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour] = [match[1], match[2], match[3], match[5] ?? '00'].map(Number) as [number, number, number, number];
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day);
  const real = calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day && hour < 24;
  const date = new Date(text);
  return real && !Number.isNaN(date.getTime()) ? date : undefined;
}
