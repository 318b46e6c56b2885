/**
 * Log lines gathered and written together, the way fast Node.js loggers
 * write (pino's sonic-boom): one write per turn of the event loop, or sooner
 * once 64 KiB are waiting, instead of one write per request. Under load a
 * turn answers dozens of requests, and one write for all their lines costs
 * what one of them cost.
 *
 * Nothing is lost: `flush` writes what waits (at shutdown, before a notice
 * so that lines stay in order), and an 'exit' handler that the caller
 * installs with `flushOnExit` writes the rest when the process ends on a
 * fatal error. Node.js writes files, pipes and terminals synchronously on
 * Linux and macOS, so a write made while exiting reaches them.
 *
 * Not sonic-boom itself: the CLI writes through its injected `io.stdout`
 * (tests pass their own stream), and what sonic-boom adds beyond this, writes
 * on another thread, a file descriptor, is what the tests cannot inject.
 */

export interface LineBuffer {
  /** Adds a line (with its newline); written at the end of this turn, or at once past the size. */
  write(line: string): void;
  /** Writes whatever waits, now. */
  flush(): void;
  /** Flushes when the process exits, however it exits; returns a function that stops doing so. */
  flushOnExit(): () => void;
}

/** What waits is written once it reaches this many characters, without waiting for the turn's end. */
export const LINE_BUFFER_CHARS = 64 * 1024;

export function createLineBuffer(sink: (text: string) => void, maxChars = LINE_BUFFER_CHARS): LineBuffer {
  let pending = '';
  let scheduled = false;

  function flush(): void {
    if (pending === '') return;
    const text = pending;
    pending = '';
    sink(text);
  }

  const atTurnEnd = () => {
    scheduled = false;
    flush();
  };

  return {
    write(line) {
      pending += line;
      if (pending.length >= maxChars) return flush();
      if (!scheduled) {
        scheduled = true;
        setImmediate(atTurnEnd);
      }
    },
    flush,
    flushOnExit() {
      process.on('exit', flush);
      return () => process.off('exit', flush);
    },
  };
}
