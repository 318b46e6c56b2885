/**
 * A user's project, for the tests of the package as users get it
 * (test/long/consumer-*.test.ts): their shell's environment, with nothing
 * from this repository or from the npm run and tap around the test, and
 * commands run there.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * `npm pack` of this repository into `dir`, one pack at a time across test processes: packing swaps
 * package.json for one without `prepare` and puts it back after (scripts/pack-manifest.js), so two packs
 * at once may each pack the other's restored manifest. A lock directory in the system's temporary
 * directory serializes them; one left by a killed process is taken over after five minutes.
 */
export async function packTarball(dir: string): Promise<{ tarball: string; files: string[] }> {
  const lock = join(tmpdir(), 'petstore-harness-pack.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', dir], ROOT, { ...userEnv(), PATH: process.env['PATH'] ?? '' });
    if (packed.code !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
    const report = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    const first = report[0];
    if (!first) throw new Error(`npm pack said nothing: ${packed.stdout}`);
    return { tarball: join(dir, first.filename), files: first.files.map((f) => f.path).sort() };
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
