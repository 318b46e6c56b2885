/**
 * A real redis-server (the Debian package; `.ci/run` installs it when it is
 * missing) for one test: on 127.0.0.1 and a free port, with no persistence
 * (nothing is written to disk), stopped when the test ends. It can be
 * stopped and started again on the same port (its data is then gone, as
 * after a crash), or paused and resumed (SIGSTOP/SIGCONT: it keeps its data
 * but answers nothing meanwhile).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Test } from 'tap';

const CANDIDATES = [process.env['REDIS_SERVER_PATH'], '/usr/bin/redis-server', '/usr/local/bin/redis-server'].filter((p): p is string => !!p);

export function redisServerPath(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path));
}

export interface TestRedis {
  readonly port: number;
  /** `redis://127.0.0.1:<port>/0` */
  readonly url: string;
  /** Kills the server (SIGKILL: a crash, no goodbye to its clients); its data is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Freezes it: it keeps its data and its connections, and answers nothing. */
  pause(): void;
  resume(): void;
}

export async function startRedis(t: Test): Promise<TestRedis> {
  const binary = redisServerPath();
  if (!binary) throw new Error('redis-server is not installed (apt-get install redis-server; .ci/run does it)');
  let child: ChildProcess | undefined;
  let port = 0;
  const launch = async () => {
    child = await launchOn(binary, port);
  };
  // A free port now may be taken by the time Redis binds it: try a few.
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await launch();
      break;
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    running.kill('SIGCONT');
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  t.teardown(stop);
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    stop,
    start: launch,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
  };
}

/** Starts redis-server on `port` and resolves once it accepts connections. */
function launchOn(binary: string, port: number): Promise<ChildProcess> {
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no', '--logfile', ''], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start on port ${port} in 10 s:\n${output}`)), 10_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const exited = (code: number | null) => fail(new Error(`redis-server exited (${code}) on port ${port}:\n${output}`));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.removeListener('exit', exited);
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve(child);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', exited);
    child.once('error', fail);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
