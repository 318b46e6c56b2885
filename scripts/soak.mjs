#!/usr/bin/env node
// npm run soak [-- --seconds N] [-- --concurrency N]
//
// A bounded soak of the reference server: `petstore serve` (from dist/) as a
// child process on 127.0.0.1 and an ephemeral port, driven at full speed by
// undici with mixed valid and invalid traffic and bounded concurrency. For
// the first third of the run about a quarter of the requests create pets;
// then no pet is created, so the store stops growing and the server's RSS
// must level off. Prints requests, requests/s, transport errors, 5xx and the
// RSS (VmRSS from /proc) at start, when the store stopped growing, and at
// the end. Exits 1 if there was any transport error or 5xx, if RSS kept
// climbing once the store stopped growing, or if the server did not exit 0
// on SIGTERM. Not part of `npm test`.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  const value = i === -1 ? fallback : Number(args[i + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`soak: ${name} must be a positive number`);
    process.exit(2);
  }
  return value;
};
const SECONDS = option('--seconds', 60);
const CONCURRENCY = option('--concurrency', 64);
const GROWTH_SECONDS = SECONDS / 3;
const KEY = 'soak-key-' + Math.random().toString(36).slice(2);
const BIN = fileURLToPath(new URL('../bin/petstore.js', import.meta.url));
const MiB = 1024 * 1024;

// --- the server ------------------------------------------------------------
const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--quiet'], {
  env: { ...process.env, PETSTORE_API_KEYS: KEY },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let serverOut = '';
let serverErr = '';
child.stdout.setEncoding('utf8').on('data', (chunk) => (serverOut = (serverOut + chunk).slice(-10_000)));
child.stderr.setEncoding('utf8').on('data', (chunk) => (serverErr = (serverErr + chunk).slice(-10_000)));
const exited = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
process.on('exit', () => child.exitCode === null && child.kill('SIGKILL'));

const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`the server did not start: ${serverOut} ${serverErr}`)), 15_000);
  const check = () => {
    const match = /serving .* at (http:\/\/127\.0\.0\.1:\d+\S*)\n/.exec(serverOut);
    if (match) {
      clearTimeout(timer);
      child.stdout.off('data', check);
      resolve(match[1]);
    }
  };
  child.stdout.on('data', check);
  child.once('close', () => reject(new Error(`the server exited: ${serverOut} ${serverErr}`)));
});
const { origin, pathname: base, port } = new URL(url);

/** The server's resident set size, from /proc/<pid>/status. */
function rss() {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) * 1024;
  } catch {
    return NaN;
  }
}

// --- the traffic -----------------------------------------------------------
const AUTH = { authorization: `Bearer ${KEY}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };
const STATUSES = ['available', 'pending', 'sold'];
let created = 0;
let growing = true;
let seq = 0;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const bigBody = JSON.stringify({ name: 'x'.repeat(1024 * 1024), categoryId: 1 });

/** One request of the mix: [method, path, headers, body]. */
function nextRequest() {
  const r = Math.random();
  const n = seq++;
  if (r < 0.25) {
    if (growing) {
      const status = n % 4 === 3 ? '' : `,"status":"${STATUSES[n % 3]}"`;
      return ['POST', '/pets', JSON_AUTH, `{"name":"soak-${n}","categoryId":${9007199254740993n + BigInt(n)}${status}}`];
    }
    // Once the store has stopped growing, the POSTs that would create are refused ones.
    return ['POST', '/pets', JSON_AUTH, pick(['{"name":"no category"}', '{"name":"x","categoryId":1.5}', '{"name":"x","categoryId":1,"status":"lost"}', '[]'])];
  }
  if (r < 0.45) return ['GET', pick(['/pets', '/pets?limit=100', `/pets?status=${pick(STATUSES)}&limit=50`, '/pets?limit=1']), AUTH];
  if (r < 0.6) return ['GET', `/pets/${1 + Math.floor(Math.random() * Math.max(1, created))}`, AUTH];
  if (r < 0.65) return ['GET', `/pets/${pick(['0', '9223372036854775807', '99999999'])}`, AUTH];
  // Invalid requests, each of a kind a real client gets wrong.
  const invalid = [
    ['GET', '/pets', {}],
    ['GET', '/pets', { authorization: 'Bearer wrong-key' }],
    ['GET', '/pets', { authorization: `Basic ${KEY}` }],
    ['GET', '/pets?limit=0', AUTH],
    ['GET', '/pets?limit=abc', AUTH],
    ['GET', '/pets?status=lost', AUTH],
    ['GET', '/pets/abc', AUTH],
    ['GET', '/pets/99999999999999999999999', AUTH],
    ['POST', '/pets', JSON_AUTH, '{"name":'],
    ['POST', '/pets', JSON_AUTH, '{"name":"x","categoryId":1e400}'],
    ['POST', '/pets', { ...AUTH, 'content-type': 'text/plain' }, 'name=x'],
    ['POST', '/pets', JSON_AUTH, '['.repeat(100)],
    ['GET', '/nowhere', AUTH],
    ['DELETE', '/pets/1', AUTH],
    ['PUT', '/pets', JSON_AUTH, '{}'],
    ['OPTIONS', '/pets', { origin: 'https://example.test', 'access-control-request-method': 'POST' }],
    ['HEAD', '/pets', AUTH],
  ];
  if (Math.random() < 0.002) return ['POST', '/pets', JSON_AUTH, bigBody]; // 413, then the connection closes
  const [method, path, headers, body] = pick(invalid);
  return [method, path, headers, body];
}

/** A few requests no client library would send, on raw sockets: each must still get a well-formed answer. */
function rawHostile() {
  const bytes = pick([
    'GARBAGE\r\n\r\n',
    `GET ${base}/pets?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET ${base}/pets HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`,
    `POST ${base}/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef`,
    `GET ${base}/pets HTTP/1.1\r\n\r\n`,
    `CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: x\r\n\r\n`,
  ]);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(bytes));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', () => {});
    const timer = setTimeout(() => socket.destroy(), 5_000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Number(/^HTTP\/1\.1 (\d{3}) /.exec(data)?.[1] ?? 0));
    });
  });
}

const pool = new Pool(origin, { connections: Math.min(CONCURRENCY, 32), headersTimeout: 10_000, bodyTimeout: 10_000 });
const statuses = new Map();
const errors = new Map();
let requests = 0;
let fiveXX = 0;
const count = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
const record = (status) => {
  requests++;
  count(statuses, status);
  if (status >= 500) fiveXX++;
};

const started = Date.now();
const deadline = started + SECONDS * 1000;
const samples = [{ t: 0, rss: rss(), pets: 0 }];
let growthStoppedAt;
const sampler = setInterval(() => {
  const t = (Date.now() - started) / 1000;
  if (growing && t >= GROWTH_SECONDS) {
    growing = false;
    growthStoppedAt = t;
  }
  samples.push({ t, rss: rss(), pets: created });
  if (Math.round(t) % 10 === 0) {
    process.stdout.write(`  ${t.toFixed(0).padStart(4)} s  ${requests} requests  ${created} pets  RSS ${(rss() / MiB).toFixed(1)} MiB\n`);
  }
}, 1000);

async function worker(id) {
  let own = 0;
  while (Date.now() < deadline) {
    // One worker sends every 20th of its requests on a raw socket.
    if (id === 0 && own++ % 20 === 0) {
      const status = await rawHostile();
      record(status);
      if (status === 0) count(errors, 'raw: no answer');
      continue;
    }
    const [method, path, headers, body] = nextRequest();
    try {
      const res = await pool.request({ path: base + path, method, headers, body });
      await res.body.dump();
      record(res.statusCode);
      if (res.statusCode === 201) created++;
    } catch (error) {
      requests++;
      count(errors, `${method} ${path.slice(0, 40)}: ${error.code ?? error.name}`);
    }
  }
}

console.log(`soak: ${SECONDS} s of mixed traffic against petstore serve (pid ${child.pid}) at ${url}, ${CONCURRENCY} in flight`);
await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => worker(i)));
clearInterval(sampler);
const elapsed = (Date.now() - started) / 1000;
samples.push({ t: elapsed, rss: rss(), pets: created });
await pool.close();

child.kill('SIGTERM');
const exit = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve({ code: 'timeout' }), 10_000))]);

// --- the verdict -----------------------------------------------------------
const after = samples.filter((s) => growthStoppedAt !== undefined && s.t >= growthStoppedAt);
const half = Math.floor(after.length / 2);
const maxOf = (list) => Math.max(...list.map((s) => s.rss));
const firstHalfMax = maxOf(after.slice(0, Math.max(1, half)));
const secondHalfMax = maxOf(after.slice(half));
// Levelled off: the second half of the time after growth never goes more
// than 10 % (and 16 MiB) above the highest point of the first half.
const levelled = after.length >= 4 && secondHalfMax <= Math.max(firstHalfMax * 1.1, firstHalfMax + 16 * MiB);
const totalErrors = [...errors.values()].reduce((a, b) => a + b, 0);
const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;

console.log(`requests: ${requests} in ${elapsed.toFixed(1)} s (${Math.round(requests / elapsed)}/s)`);
console.log(`errors (transport): ${totalErrors}${totalErrors ? ' ' + JSON.stringify(Object.fromEntries(errors)) : ''}`);
console.log(`5xx: ${fiveXX}`);
console.log(`statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
console.log(`pets created: ${created}; the store stopped growing at ${growthStoppedAt?.toFixed(1)} s`);
console.log(
  `RSS: start ${mib(samples[0].rss)}, when the store stopped growing ${mib(after[0]?.rss ?? NaN)}, end ${mib(samples.at(-1).rss)}` +
    ` (highest in the first/second half after growth: ${mib(firstHalfMax)} / ${mib(secondHalfMax)})`,
);
console.log(`server exit on SIGTERM: ${exit.code}${serverErr ? `; stderr: ${serverErr.trim().slice(0, 500)}` : ''}`);
const failed = [];
if (totalErrors > 0) failed.push('transport errors');
if (fiveXX > 0) failed.push('5xx answers');
if (!levelled) failed.push('RSS kept climbing after the store stopped growing');
if (exit.code !== 0) failed.push('the server did not exit 0 on SIGTERM');
if (serverErr.trim() !== '') failed.push('the server wrote to stderr');
console.log(failed.length ? `result: FAIL (${failed.join('; ')})` : 'result: PASS');
process.exitCode = failed.length ? 1 : 0;
