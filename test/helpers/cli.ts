/**
 * `petstore` as a child process, run from bin/ against the build in dist/
 * (`npm test` builds it first in pretest).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/petstore.js', import.meta.url));

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface Cli {
  readonly child: ChildProcess;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  readonly exited: Promise<Exit>;
}

export interface RunningServer extends Cli {
  /** The base URL it printed, such as `http://127.0.0.1:54321/v1`. */
  readonly url: string;
}

/** Starts `petstore <args>`; PETSTORE_API_KEYS comes only from `env`. The process is killed when the test ends. */
export function startCli(t: Test, args: readonly string[], env: Record<string, string> = {}): Cli {
  const { PETSTORE_API_KEYS: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves when `cli`'s stdout matches `pattern`; rejects if it exits or `timeoutMs` passes first. */
export function waitForOutput(cli: Cli, pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(cli.stdout());
      if (!match) return;
      done();
      resolve(match);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${pattern} on stdout within ${timeoutMs} ms; stdout: ${cli.stdout()} stderr: ${cli.stderr()}`));
    }, timeoutMs);
    const onExit = () => {
      check();
      done();
      reject(new Error(`exited before printing ${pattern}; stdout: ${cli.stdout()} stderr: ${cli.stderr()}`));
    };
    const done = () => {
      clearTimeout(timer);
      cli.child.stdout?.off('data', check);
      cli.child.off('close', onExit);
    };
    cli.child.stdout?.on('data', check);
    cli.child.once('close', onExit);
    check();
  });
}

/** `petstore serve --port 0 --host 127.0.0.1 <args>`, once it says where it serves. */
export async function startServe(t: Test, args: readonly string[] = [], env: Record<string, string> = {}): Promise<RunningServer> {
  const cli = startCli(t, ['serve', '--port', '0', '--host', '127.0.0.1', ...args], env);
  const match = await waitForOutput(cli, /serving .* at (http:\/\/127\.0\.0\.1:\d+\S*)\n/);
  return { ...cli, url: match[1] as string };
}

/** Runs `petstore <args>` to its end. */
export async function runCli(t: Test, args: readonly string[], env: Record<string, string> = {}): Promise<Exit & { stdout: string; stderr: string }> {
  const cli = startCli(t, args, env);
  const exit = await cli.exited;
  return { ...exit, stdout: cli.stdout(), stderr: cli.stderr() };
}
