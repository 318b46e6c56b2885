/**
 * Parsers for option values, shared by the subcommands. Each throws commander's
 * InvalidArgumentError, which commander reports as a usage error.
 */
import { InvalidArgumentError } from '@commander-js/extra-typings';
import { readInstant } from '../src/index.js';

export function parseInteger(min: number, max: number) {
  return (text: string): number => {
    if (!/^\d+$/.test(text.trim())) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    const value = Number(text);
    if (value < min || value > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return value;
  };
}

/** Seconds, with a fraction if wanted (`0.5`), within a range; the value in milliseconds. */
export function parseSeconds(min: number, max: number) {
  return (text: string): number => {
    if (!/^\d+(\.\d+)?$/.test(text.trim())) throw new InvalidArgumentError(`expected a number of seconds from ${min} to ${max}`);
    const value = Number(text);
    if (value < min || value > max) throw new InvalidArgumentError(`expected a number of seconds from ${min} to ${max}`);
    return Math.round(value * 1000);
  };
}

export const parsePort = parseInteger(0, 65535);

export function parseInstant(text: string): Date {
  const instant = readInstant(text);
  if (!instant) throw new InvalidArgumentError('expected an ISO 8601 instant such as 2030-12-05T00:00:00Z');
  return instant;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
