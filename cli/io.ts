/** Where a command writes and what it reads from its environment; swapped in tests. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
}

export const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/** A mistake in how the command was called: reported in one line, exit code 2. */
export class UsageError extends Error {
  readonly code = 'usage';
  readonly exitCode = 2;
}
