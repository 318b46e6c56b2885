/**
 * `petstore conform` run in-process through the real CLI (`run` from
 * cli/main), with stdout and stderr captured.
 */
import { Writable } from 'node:stream';
import type { ConformanceResult } from '../../conformance/index.js';
import { run } from '../../cli/main.js';

export interface ConformRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function capture(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

let active = 0;
let saved: typeof process.exitCode;

/** Runs `petstore <argv>` and resolves with its exit code and output. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ConformRun> {
  const stdout = capture();
  const stderr = capture();
  // `run` reports the exit code through process.exitCode (the way bin/ sets
  // it); in a test process that would become the test file's own exit code,
  // so it is put back when the last run in flight ends.
  if (active++ === 0) saved = process.exitCode;
  process.exitCode = undefined;
  try {
    const code = await run(argv, { stdout: stdout.stream, stderr: stderr.stream, env });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    if (--active === 0) process.exitCode = saved;
  }
}

/** `petstore conform` against `url` with a fixed seed and the JSON reporter; the report parsed. */
export async function conformJson(url: string, apiKey: string, extra: readonly string[] = []): Promise<ConformRun & { result: ConformanceResult }> {
  const out = await runCli(['conform', '--base-url', url, '--api-key', apiKey, '--seed', '1', '--reporter', 'json', '--quiet', ...extra]);
  let result: ConformanceResult;
  try {
    result = JSON.parse(out.stdout) as ConformanceResult;
  } catch {
    throw new Error(`conform (exit ${out.code}) printed no JSON report; stderr: ${out.stderr}`);
  }
  return { ...out, result };
}

/** The failures of a result, one line each, for assertion messages. */
export function describeFailures(result: ConformanceResult): string {
  return result.failures.map((f) => `[${f.family}] ${f.checkId}: ${f.message}`).join('\n') || '(no failures)';
}
