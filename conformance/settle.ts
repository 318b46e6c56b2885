/**
 * Writes that become visible within a window. The seed promises nothing about
 * when a created pet appears in a list or in getPet (a list served from a
 * search index, a read from a replica), so a read that misses what the run
 * wrote is sent again, after a growing pause, until it shows it or the
 * settle window (counted from the 201) ends. Only reads that depend on a
 * write wait; how long they waited is measured per operation and reported as
 * an advisory. A pet that never appears within the window is still a
 * failure, and from then on that operation's reads no longer wait.
 */
import type { WireRequest, WireResponse } from './client.js';

type Sent = { request: WireRequest; response: WireResponse };

export interface LagSummary {
  readonly operationId: string;
  /** Reads that showed the write only after waiting. */
  readonly waited: number;
  readonly medianMs: number;
  readonly worstMs: number;
}

export interface Settler {
  readAfterWrite(read: () => Promise<Sent>, visible: (sent: Sent) => boolean, writtenAt: number): Promise<Sent>;
  summary(): LagSummary[];
}

/** The pauses between reads: short first (an index refreshed every few hundred milliseconds), then at most half a second. */
const pause = (attempt: number): number => Math.min(500, 25 * 2 ** attempt);

export function createSettler(settleMs: number, sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))): Settler {
  const lags = new Map<string, number[]>();
  // Operations seen to miss a write for a whole window: that is a failure already, and waiting
  // again would only slow the rest of the run (shrinking a failed case creates pets anew).
  const expired = new Set<string>();
  return {
    async readAfterWrite(read, visible, writtenAt) {
      let sent = await read();
      if (visible(sent) || settleMs <= 0 || expired.has(sent.request.operationId)) return sent;
      for (let attempt = 0; performance.now() - writtenAt < settleMs; attempt++) {
        await sleep(Math.min(pause(attempt), Math.max(1, writtenAt + settleMs - performance.now())));
        sent = await read();
        if (visible(sent)) {
          const operationId = sent.request.operationId;
          lags.set(operationId, [...(lags.get(operationId) ?? []), performance.now() - writtenAt]);
          return sent;
        }
      }
      expired.add(sent.request.operationId);
      return sent;
    },
    summary() {
      return [...lags.entries()].map(([operationId, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return { operationId, waited: sorted.length, medianMs: sorted[Math.floor((sorted.length - 1) / 2)]!, worstMs: sorted[sorted.length - 1]! };
      });
    },
  };
}
