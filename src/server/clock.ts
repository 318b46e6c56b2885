/**
 * The server's clock. It runs at real speed from a chosen instant (`--now`),
 * so a client can see the world after the sunset without waiting for 2030;
 * the `Date` header and the sunset check both read it.
 */
export interface Clock {
  now(): number;
  set(instant: Date): void;
  /** Milliseconds the clock is ahead of the real time (negative: behind). */
  offsetMs(): number;
  /** Sets the clock `ms` ahead of the real time: how instances sharing a store keep one clock. */
  setOffsetMs(ms: number): void;
  /** Whether the clock runs with no offset from the real time: then Node.js's own `Date` header is this clock's. */
  isRealTime(): boolean;
  /** The current time as an HTTP-date (RFC 9110 §5.6.7), computed at most once a second. */
  httpDate(): string;
}

export function createClock(start?: Date): Clock {
  let offset = start ? start.getTime() - Date.now() : 0;
  let cachedSecond = NaN;
  let cachedDate = '';
  return {
    now: () => Date.now() + offset,
    isRealTime: () => offset === 0,
    set(instant) {
      offset = instant.getTime() - Date.now();
      cachedSecond = NaN;
    },
    offsetMs: () => offset,
    setOffsetMs(ms) {
      offset = ms;
      cachedSecond = NaN;
    },
    httpDate() {
      const now = Date.now() + offset;
      const second = Math.floor(now / 1000);
      if (second !== cachedSecond) {
        cachedSecond = second;
        cachedDate = new Date(second * 1000).toUTCString();
      }
      return cachedDate;
    },
  };
}
