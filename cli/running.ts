/**
 * What `petstore serve` and `petstore proxy` share from start to exit: the
 * request log and notices on stdout, the ways to be asked to stop, and the
 * findings' report at shutdown that keeps the verdict in the exit code.
 */
import { writeFile } from 'node:fs/promises';
import { createLineBuffer, createNoticeWriter, createRequestLogger, describeFindings, utf8Bytes, type Finding } from '../src/index.js';
import type { CliIo } from './io.js';

/**
 * The request log and the notices. Request lines are gathered and written
 * together (line-buffer.ts); a notice goes through the same buffer, flushed
 * at once, so lines stay in order. What waits is UTF-8 bytes, one character
 * per byte (utf8Bytes), so that writing it is a copy. close() flushes.
 */
export function openOutput(io: CliIo, options: { readonly quiet: boolean; readonly log: 'pretty' | 'json' }) {
  const out = createLineBuffer((bytes) => io.stdout.write(Buffer.from(bytes, 'latin1')));
  const stopFlushingOnExit = out.flushOnExit();
  const log = createRequestLogger(options.quiet ? 'off' : options.log, out.write);
  // With --log json every line of stdout is JSON, notices included.
  const notice = createNoticeWriter(options.log, (text) => {
    out.write(utf8Bytes(text));
    out.flush();
  });
  return {
    log,
    notice,
    close() {
      out.flush();
      stopFlushingOnExit();
    },
  };
}

export interface FindingsReportOptions {
  /** --findings FILE */
  readonly findings?: string | undefined;
  /** --fail-on-findings */
  readonly failOnFindings?: 'error' | 'warning' | undefined;
}

/**
 * At shutdown: the findings to their file (--findings), a line saying how
 * many there were, and with --fail-on-findings, exit 1 and every finding on
 * stderr, so a client's end-to-end job fails on them and says why.
 */
export async function reportFindings(options: FindingsReportOptions, io: CliIo, findings: Finding[], notice: (text: string) => void): Promise<void> {
  if (options.findings) {
    try {
      await writeFile(options.findings, `${JSON.stringify(findings, null, 2)}\n`);
    } catch (error) {
      io.stderr.write(`petstore: cannot write the findings to ${options.findings}: ${(error as Error).message}\n`);
      process.exitCode = 1;
    }
  }
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  if (findings.length > 0) {
    notice(
      `petstore: ${plural(findings.length, 'finding')} in ${whose(findings)} (${plural(errors, 'error')}, ${plural(warnings, 'warning')})${options.findings ? `, written to ${options.findings}` : ''}\n`,
    );
  }
  const failing = options.failOnFindings === 'error' ? errors : options.failOnFindings === 'warning' ? findings.length : 0;
  if (failing > 0) {
    io.stderr.write(`petstore: exit 1 (--fail-on-findings ${options.failOnFindings}): ${describeFindings(findings)}\n`);
    process.exitCode = 1;
  }
}

/**
 * The ways to stop: SIGINT, SIGTERM, or POST /__control/shutdown (for a
 * script that cannot signal the server, such as one behind npx). `asked`
 * resolves at the first; a signal after that exits at once, as the user means
 * it. The signals are watched from `watch()`, once the server listens, to
 * `unwatch()`, once it has stopped: a start-up that fails leaves no handler.
 */
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Where the findings were seen: what clients sent, and (behind the proxy) what the upstream answered. */
function whose(findings: readonly Finding[]): string {
  const server = findings.filter((f) => f.side === 'server').length;
  if (server === 0) return 'what clients sent';
  const client = findings.length - server;
  return client === 0 ? 'what the upstream answered' : `what clients sent (${client}) and what the upstream answered (${server})`;
}

export function stopRequests(notice: (text: string) => void) {
  let stopping = false;
  let resolve!: () => void;
  const asked = new Promise<void>((done) => (resolve = done));
  const ask = (reason: string) => {
    if (stopping) return;
    stopping = true;
    notice(`petstore: ${reason}, finishing in-flight requests\n`);
    resolve();
  };
  const onSignal = (signal: NodeJS.Signals) => (stopping ? process.exit(130) : ask(signal));
  return {
    ask,
    asked,
    watch: () => process.on('SIGINT', onSignal).on('SIGTERM', onSignal),
    unwatch: () => process.off('SIGINT', onSignal).off('SIGTERM', onSignal),
  };
}
