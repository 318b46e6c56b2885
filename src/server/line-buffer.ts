/**
 * Log lines gathered and written together, the way fast Node.js loggers
 * write (pino's sonic-boom with its `minLength`): by size, once 16 KiB wait,
 * and otherwise at the latest 10 ms after the first waiting line, instead of
 * one write per request. Under load that is one write for a hundred lines or
 * more; a developer watching the terminal still sees each line at once, to
 * the eye.
 *
 * Nothing is lost: `flush` writes what waits (at shutdown, before a notice
 * so that lines stay in order), and an 'exit' handler that the caller
 * installs with `flushOnExit` writes the rest when the process ends on a
 * fatal error. Node.js writes files, pipes and terminals synchronously on
 * Linux and macOS, so a write made while exiting reaches them.
 *
 * Not sonic-boom itself: the CLI writes through its injected `io.stdout`
 * (tests pass their own stream), and what sonic-boom adds beyond this, the
 * write on a worker thread, costs the same CPU on the core the server runs on.
 */

export interface LineBuffer {
  /** Adds a line (with its newline): written once enough wait, or soon after. */
  write(line: string): void;
  /** Writes whatever waits, now. */
  flush(): void;
  /** Flushes when the process exits, however it exits; returns a function that stops doing so. */
  flushOnExit(): () => void;
}

export interface LineBufferLimits {
  /** What waits is written once it reaches this many characters. */
  readonly chars: number;
  /** …or this many milliseconds after the first of it was added. */
  readonly delayMs: number;
}

export const LINE_BUFFER_LIMITS: LineBufferLimits = { chars: 16 * 1024, delayMs: 10 };

export function createLineBuffer(sink: (text: string) => void, limits: LineBufferLimits = LINE_BUFFER_LIMITS): LineBuffer {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;

  function flush(): void {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending === '') return;
    const text = pending;
    pending = '';
    sink(text);
  }

  const onTime = () => {
    timer = undefined;
    flush();
  };

  return {
    write(line) {
      pending += line;
      if (pending.length >= limits.chars) return flush();
      // Not keeping the process alive for a log line: the exit handler writes it.
      if (timer === undefined) timer = setTimeout(onTime, limits.delayMs).unref();
    },
    flush,
    flushOnExit() {
      process.on('exit', flush);
      return () => process.off('exit', flush);
    },
  };
}
