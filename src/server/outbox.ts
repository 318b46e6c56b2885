/**
 * When answers leave. An answer made after the event loop has waited for
 * input goes out at once. An answer made while the server is busy (the loop
 * has not waited since the previous answer) is held until the end of this
 * turn of the loop, and the turn's held answers are written one after the
 * other.
 *
 * Why: on one machine, every write to a client asleep in epoll_wait wakes it,
 * and a wake-up costs both processes several microseconds (more on a VM). A
 * busy server that writes each answer as it is made wakes a client with
 * many connections once per answer; one that writes a turn's answers
 * together wakes it about once per turn, and runs its request code and its
 * write code each in one stretch. A lone client (one request at a time) sees
 * little difference: the loop waits for most of its requests (nine in ten
 * in a count at one connection), so their answers go out at once.
 *
 * Only `end` is held: the head is stored by `writeHead` when the answer is
 * made, so `headersSent` and header errors behave as if it were written.
 */
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface Outbox {
  /** Ends `res` with `body` (its head already stored), now or at the end of this turn. */
  end(res: ServerResponse, body: string | Buffer | undefined): void;
}

/**
 * `idleTime` is the loop's total time spent waiting for input, which only
 * changes when the loop has waited (injected by tests).
 */
export function createOutbox(onError: (error: unknown, res: ServerResponse) => void, idleTime: () => number = loopIdleTime): Outbox {
  // res, body, res, body…: no object per held answer.
  let held: (ServerResponse | string | Buffer | undefined)[] = [];
  let idleAtLastAnswer = Number.NaN;

  function flush(): void {
    const answers = held;
    held = [];
    for (let i = 0; i < answers.length; i += 2) {
      const res = answers[i] as ServerResponse;
      try {
        res.end(answers[i + 1]);
      } catch (error) {
        // One broken answer must not keep the rest of the turn's from leaving.
        onError(error, res);
      }
    }
  }

  return {
    end(res, body) {
      const idle = idleTime();
      const waited = idle !== idleAtLastAnswer;
      idleAtLastAnswer = idle;
      if (waited && held.length === 0) {
        res.end(body);
        return;
      }
      if (held.length === 0) setImmediate(flush);
      held.push(res, body);
    },
  };
}

/** Read directly: eventLoopUtilization() gives the same figure but builds an object per call. */
function loopIdleTime(): number {
  return performance.nodeTiming.idleTime;
}
