/**
 * The real binary, `node bin/petstore.js <args>`, in a child process (it runs
 * the compiled dist/, built by `npm test`'s pretest).
 */
import { spawn } from 'node:child_process';

const BIN = new URL('../../bin/petstore.js', import.meta.url).pathname;

export interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs `node bin/petstore.js <args>`; PETSTORE_API_KEY is never inherited. */
export function petstore(args: readonly string[], env: Record<string, string> = {}): Promise<Exit> {
  const { PETSTORE_API_KEY: _inherited, ...parent } = process.env;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...parent, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: performance.now() - started });
    });
  });
}
