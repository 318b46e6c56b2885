/**
 * A user's project, for the tests of the package as users get it
 * (test/long/consumer-*.test.ts): their shell's environment, with nothing
 * from this repository or from the npm run and tap around the test, and
 * commands run there.
 */
import { execFile } from 'node:child_process';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The environment of a user's shell: nothing from this repository or from the npm run and tap around this test. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|TAP|NODE_OPTIONS$|NODE_PATH$|PETSTORE_)/i.test(name)) continue;
    env[name] = value;
  }
  env['PATH'] = (process.env['PATH'] ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && !dir.startsWith(ROOT) && !dir.includes('node_modules'))
    .join(delimiter);
  return { ...env, ...extra };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: readonly string[], cwd: string, env = userEnv(), timeout = 300_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
