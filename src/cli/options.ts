/**
 * Parsers for option values, shared by the subcommands. Each throws commander's
 * InvalidArgumentError, which commander reports as a usage error.
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';

export function parseInteger(min: number, max: number) {
  return (text: string): number => {
    if (!/^\d+$/.test(text.trim())) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    const value = Number(text);
    if (value < min || value > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return value;
  };
}

export const parsePort = parseInteger(0, 65535);

export function parseInstant(text: string): Date {
  // ISO 8601 with a date; a time without an offset would depend on the local zone, so it needs one.
  const iso = /^(\d{4})-(\d{2})-(\d{2})(T(\d{2}):\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
  const match = iso.exec(text);
  const date = new Date(text);
  // `new Date` rolls impossible dates over (2031-02-30 becomes 2 March, 24:00 the next day): refuse them instead.
  const [year, month, day, hour] = [match?.[1], match?.[2], match?.[3], match?.[5] ?? '00'].map(Number) as [number, number, number, number];
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day);
  const real = calendar.getUTCFullYear() === year && calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day && hour < 24;
  if (!match || !real || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('expected an ISO 8601 instant such as 2030-12-05T00:00:00Z');
  }
  return date;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
