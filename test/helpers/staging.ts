/**
 * The parts a real staging is built from, started for one test on loopback
 * and ephemeral ports: a certificate authority with a server and a client
 * certificate (openssl), nginx as a TLS-terminating gateway, and tinyproxy
 * as a forward proxy (both Debian packages; `.ci/run` installs them when
 * they are missing). Each is stopped when its test ends.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
export const TINYPROXY = ['/usr/bin/tinyproxy', '/usr/sbin/tinyproxy'].find((p) => existsSync(p));

export function scratch(t: Test, name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `petstore-${name}-`));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A port free right now on 127.0.0.1 (for programs that cannot be told to pick one and say which). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`it exited (${child.exitCode}) before listening on ${port}: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port} after 10 s: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Pki {
  /** PEM files. */
  readonly ca: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
}

/** A CA of its own, a server certificate for 127.0.0.1 and localhost, and a client certificate, all signed by it. */
export function makePki(dir: string): Pki {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const file = (name: string) => join(dir, name);
  run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=petstore test CA', '-keyout', 'ca.key', '-out', 'ca.pem');
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', 'server.key', '-out', 'server.csr');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'server.ext',
    '-out',
    'server.pem',
  );
  writeFileSync(file('client.ext'), 'extendedKeyUsage=clientAuth\n');
  run('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=petstore conform', '-keyout', 'client.key', '-out', 'client.csr');
  run(
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'client.ext',
    '-out',
    'client.pem',
  );
  return { ca: file('ca.pem'), serverCert: file('server.pem'), serverKey: file('server.key'), clientCert: file('client.pem'), clientKey: file('client.key') };
}

export interface Nginx {
  readonly port: number;
  /** The error log so far, for assertion messages. */
  log(): string;
}

/**
 * nginx in the foreground with `server` (the body of one `server { }` block,
 * `listen` included: `{port}` is replaced by a free port) and `http` (more
 * directives of the http block: an upstream), temp files in its own folder.
 */
export async function startNginx(t: Test, server: (port: number) => string, http = ''): Promise<Nginx> {
  if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx; .ci/run does it)');
  const dir = scratch(t, 'nginx');
  // Started as root, nginx's workers run as nobody: they buffer large bodies in this folder.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const conf = `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${http}
  server {
    ${server(port)}
  }
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const log = await startDaemon(t, NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], port, join(dir, 'error.log'));
  return { port, log };
}

export interface Tinyproxy {
  readonly url: string;
  /** The requests it forwarded and the tunnels it opened, from its log. */
  log(): string;
}

/** tinyproxy in the foreground, for 127.0.0.1 only, CONNECT allowed to any port (its shipped config allows 443 and 563 only). */
export async function startTinyproxy(t: Test): Promise<Tinyproxy> {
  if (!TINYPROXY) throw new Error('tinyproxy is not installed (apt-get install tinyproxy; .ci/run does it)');
  const dir = scratch(t, 'tinyproxy');
  const port = await freePort();
  const logFile = join(dir, 'tinyproxy.log');
  writeFileSync(
    join(dir, 'tinyproxy.conf'),
    [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 60',
      'MaxClients 100',
      'Allow 127.0.0.1',
      `LogFile "${logFile}"`,
      'LogLevel Info',
      `PidFile "${join(dir, 'tinyproxy.pid')}"`,
      // Run as root would be refused; nobody can still write the log in a folder it may write.
      'User nobody',
      'Group nogroup',
    ].join('\n'),
  );
  chmodSync(dir, 0o777);
  const log = await startDaemon(t, TINYPROXY, ['-d', '-c', join(dir, 'tinyproxy.conf')], port, logFile);
  return { url: `http://127.0.0.1:${port}`, log };
}

/** A program in the foreground, stopped when the test ends, once `port` accepts connections; resolves to what it has logged so far. */
async function startDaemon(t: Test, program: string, args: readonly string[], port: number, logFile: string): Promise<() => string> {
  const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const log = () => `${stderr}${existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''}`;
  t.teardown(() => stop(child));
  await waitForPort(port, child, log);
  return log;
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 3000).unref();
  });
}
