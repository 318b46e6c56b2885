#!/usr/bin/env node
/**
 * npm run bench [-- --quick] [-- --generator wrk|autocannon] [-- --seconds N] [-- --rounds N]
 *                [-- --against DIR[,DIR…]] [-- --no-redis] [-- --scenario TEXT] [-- --only NAMES]
 *                [-- --section proxy|imports]
 *
 * Side-by-side throughput and latency of the reference server, the bare
 * node:http ceiling and Prism 5.12 (static and dynamic), on the interface's
 * scenarios; the 1k-vs-1M scaling runs; and a default `petstore conform` run.
 *
 * The reference runs twice in the same rounds: in its default configuration
 * (`reference`: the request log on, written to a file as a deployment's
 * stdout would be, the journal and the findings on), which is what a client
 * developer runs, and as `reference --quiet` (`--quiet --journal-size 0`:
 * no log, no journal; findings stay on, as they cannot be turned off from
 * the command line). The issue's targets are the default's: list, getPet and
 * 401 at 0.9x the ceiling or more, POST at 0.8x.
 * Every server is started here, on 127.0.0.1 and an ephemeral port, pinned to
 * core 0 while the load generator runs on core 1 (where `taskset` exists).
 *
 * Servers are interleaved A B A B within each round so drift hits all alike.
 * On a shared VM the speed of a core drifts by as much as 2x within seconds,
 * so the runs are short (1 s) and many (15 rounds): the two runs of a pair are
 * little more than a second apart, and drift cancels within the pair. Each req/s and latency is
 * the median over the rounds, each ratio the median of the ratios within each
 * round, shown with the range of its middle half. Before the rounds of a
 * scenario, every server gets one run that is not counted (JIT warm-up), and
 * every run starts once all the servers have been idle for 100 ms (settle).
 *
 * The load generator is wrk when it is on PATH (apt-get install wrk), else
 * autocannon from devDependencies. A run where the generator used over 90% of
 * its core is marked "generator-bound": then the figure is the generator's
 * ceiling, not the server's.
 *
 * --only NAMES keeps only the named servers (comma-separated, as the table names
 * them: `reference,prism-static`) beside the ceiling, in the same rounds.
 *
 * The proxy's overhead (issue 48; bench/proxy.mjs, whose header comment tells how): the reference
 * alone, behind `petstore proxy` and behind Prism's proxy, in the same rounds. It runs in the whole
 * bench after the side-by-side table; `--section proxy` runs it alone (with `--scenario`, on the
 * scenarios it keeps; with `--against DIR`, that checkout's proxy beside this one's).
 *
 * What a test file pays to load the stand-in's entry ends the bench; `--section imports` runs it
 * alone (coldImports below).
 *
 * --against DIR adds another checkout's reference server (DIR, built; several, comma-separated), in its
 * default configuration (its log to a file too), to the side-by-side rounds as
 * `reference@DIR`: a before/after comparison run in the same rounds, so the
 * machine's drift hits both alike.
 *
 * The shared store: when redis-server is on PATH (and not --no-redis), the
 * in-memory reference and the same server with --store redis:// are run side
 * by side on the same scenarios, and one Redis-backed instance against two
 * sharing one Redis (each loaded with half the connections at once), with
 * the CPU each process spent, to show where the time goes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import net from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { proxyOverhead } from './proxy.mjs';

const root = new URL('..', import.meta.url).pathname;
const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    generator: { type: 'string' },
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '50' },
    against: { type: 'string' },
    'no-redis': { type: 'boolean', default: false },
    scenario: { type: 'string' },
    only: { type: 'string' },
    section: { type: 'string' },
  },
});
const quick = args.quick;
const seconds = Number(args.seconds ?? 1);
const rounds = Number(args.rounds ?? (quick ? 1 : 15));
const connections = Number(args.connections);
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const hasWrk = spawnSync('wrk', ['--version']).error === undefined;
const generator = args.generator ?? (hasWrk ? 'wrk' : 'autocannon');
if (generator === 'wrk' && !hasWrk) fail('wrk is not on PATH (apt-get install wrk), or use --generator autocannon');
if (args.section !== undefined && !['proxy', 'imports'].includes(args.section)) {
  fail(`--section ${args.section}: the sections that run alone are proxy and imports`);
}
const KEY = 'bench-key';
const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

function fail(message) {
  console.error(`bench: ${message}`);
  process.exit(2);
}

const pinned = (core, command, argv) => (hasTaskset ? ['taskset', ['-c', String(core), command, ...argv]] : [command, argv]);

/** A port that was free a moment ago (for servers that cannot report an ephemeral one). */
function freePort() {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * Starts a server process and resolves once it is ready: when it prints its
 * port (`readyPattern`), or, given a `port`, when that port accepts connections.
 */
async function startServer(name, command, argv, readyPattern, port, logFile) {
  if (logFile !== undefined) return startLoggingServer(name, command, argv, readyPattern, logFile);
  if (port !== undefined) {
    const started = performance.now();
    const [cmd, cmdArgs] = pinned(0, command, argv);
    const child = spawn(cmd, cmdArgs, { cwd: root, stdio: 'ignore' });
    children.add(child);
    let exited = false;
    child.on('exit', () => (exited = true));
    while (!(await accepts(port))) {
      if (exited || performance.now() - started > 120_000) throw new Error(`${name} did not start`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return { name, child, port, startMs: performance.now() - started };
  }
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const [cmd, cmdArgs] = pinned(0, command, argv);
    const child = spawn(cmd, cmdArgs, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 120 s:\n${output}`)), 120_000);
    const onData = (chunk) => {
      output += chunk;
      const match = readyPattern.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stdout.resume();
        child.stderr.resume();
        resolve({ name, child, port: Number(match[1]), startMs: performance.now() - started });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready:\n${output}`)));
  });
}

/**
 * Starts a server whose stdout goes to `logFile` (as a deployment's would:
 * to a file or a collector, not a pipe the bench drains), and resolves once
 * the file shows its ready line.
 */
async function startLoggingServer(name, command, argv, readyPattern, logFile) {
  const started = performance.now();
  const fd = openSync(logFile, 'w');
  const [cmd, cmdArgs] = pinned(0, command, argv);
  const child = spawn(cmd, cmdArgs, { cwd: root, stdio: ['ignore', fd, 'pipe'] });
  closeSync(fd);
  children.add(child);
  let exited = false;
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.on('exit', () => (exited = true));
  for (;;) {
    const match = readyPattern.exec(readFileSync(logFile, 'utf8'));
    if (match) return { name, child, port: Number(match[1]), startMs: performance.now() - started, logFile };
    if (exited || performance.now() - started > 120_000) throw new Error(`${name} did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopServer(server) {
  server.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  server.child.kill('SIGKILL');
  children.delete(server.child);
}

/** The process id doing the work (taskset execs, so it is the child itself). */
function procStatus(pid, field) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds used by a process, or by one of its threads when `tid` is given. */
function cpuSeconds(pid, tid) {
  try {
    const fields = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8')
      .split(') ')[1]
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return undefined;
  }
}

/**
 * Waits until no server has used any CPU for 100 ms (at most 2 s). Prism
 * goes on answering requests it had queued, and collecting garbage, for tens
 * of milliseconds after wrk exits; without this, that work would take the
 * core from the first part of the next server's run, and only the server
 * that comes after Prism in the order would pay for it.
 */
async function settle(servers) {
  const deadline = performance.now() + 2000;
  const used = () => servers.map((server) => cpuSeconds(server.child.pid));
  let last = used();
  let quietSince = performance.now();
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    const now = used();
    if (now.some((seconds, i) => seconds !== last[i])) {
      last = now;
      quietSince = performance.now();
    } else if (performance.now() - quietSince >= 100) return;
  }
}

/** Runs the load generator; resolves with { rps, p50, p99, generatorCpu } (latencies in ms). */
let wrkScripts = 0;
function load({ port, method, path, body, auth, seconds: duration, connections: conns = connections }) {
  const url = `http://127.0.0.1:${port}${path}`;
  const headers = auth ? { Authorization: `Bearer ${KEY}` } : {};
  if (body) headers['Content-Type'] = 'application/json';
  let command;
  let argv;
  if (generator === 'wrk') {
    // One file per run: two runs at once (two instances under load together) must not share one.
    const script = join(work, `wrk-${method}-${++wrkScripts}.lua`);
    const lines = [
      `wrk.method = "${method}"`,
      'done = function(summary, latency, requests)',
      '  io.write(string.format("RESULT %d %f %f %f\\n", summary.requests, summary.duration, latency:percentile(50), latency:percentile(99)))',
      'end',
    ];
    if (body) lines.unshift(`wrk.body = '${body}'`);
    writeFileSync(script, lines.join('\n'));
    command = 'wrk';
    argv = ['-t1', `-c${conns}`, `-d${duration}s`, '-s', script, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
  } else {
    command = process.execPath;
    argv = [
      join(root, 'node_modules/autocannon/autocannon.js'),
      '-j',
      '-c',
      String(conns),
      '-d',
      String(duration),
      '-m',
      method,
      ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
      ...(body ? ['-b', body] : []),
      url,
    ];
  }
  return new Promise((resolve, reject) => {
    const [cmd, cmdArgs] = pinned(1, command, argv);
    const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let cpu = 0;
    const sampler = setInterval(() => {
      cpu = cpuSeconds(child.pid) ?? cpu;
    }, 200);
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('exit', () => {
      clearInterval(sampler);
      children.delete(child);
      const generatorCpu = cpu / duration;
      if (generator === 'wrk') {
        const m = /RESULT (\d+) ([\d.]+) ([\d.]+) ([\d.]+)/.exec(out);
        if (!m) return reject(new Error(`wrk failed:\n${out}`));
        resolve({ rps: Number(m[1]) / (Number(m[2]) / 1e6), p50: Number(m[3]) / 1000, p99: Number(m[4]) / 1000, generatorCpu });
      } else {
        try {
          const r = JSON.parse(out.slice(out.indexOf('{')));
          resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, generatorCpu });
        } catch {
          reject(new Error(`autocannon failed:\n${out}`));
        }
      }
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The middle half of `xs`: its first and third quartiles. */
const middleHalf = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return [sorted[Math.floor((sorted.length - 1) / 4)], sorted[Math.ceil(((sorted.length - 1) * 3) / 4)]];
};

function seedFile(count) {
  const file = join(work, `seed-${count}.json`);
  const statuses = ['available', 'pending', 'sold', undefined];
  const parts = [];
  for (let i = 0; i < count; i++) {
    const status = statuses[i % 4];
    parts.push(`{"name":"pet-${i}","categoryId":${(i % 50) + 1}${status ? `,"status":"${status}"` : ''}}`);
  }
  writeFileSync(file, `[${parts.join(',\n')}]`);
  return file;
}

/** The reference server: with `--quiet` unless `logged`, where its request log goes to a file. */
const reference = (seed, { name = 'reference --quiet', checkout = root, extra = [], logged = false } = {}) => [
  name,
  process.execPath,
  [join(checkout, 'bin/petstore.js'), 'serve', '--port', '0', ...(logged ? [] : ['--quiet']), '--api-key', KEY, ...(seed ? ['--seed', seed] : []), ...extra],
  /at http:\/\/127\.0\.0\.1:(\d+)\/v1/,
  undefined,
  logged ? join(work, `${name.replace(/[^a-z0-9]+/gi, '-')}.log`) : undefined,
];
/** The default configuration, as a client developer runs it: log (to a file), journal and findings on. */
const referenceDefault = (seed, options = {}) => reference(seed, { name: 'reference', logged: true, ...options });
/** Another checkout's reference server, in its default configuration, for a before/after comparison in the same rounds. */
const referenceAt = (seed, dir) => referenceDefault(seed, { name: `reference@${dir.replace(/\/+$/, '').split('/').pop()}`, checkout: dir });
const ceiling = () => ['ceiling', process.execPath, [join(root, 'bench/ceiling.mjs'), '0'], /listening on (\d+)/];
// Not a target: the same bare server writing through the reference's outbox,
// to show what that write policy is worth apart from the rest of the server.
const ceilingOutbox = () => ['ceiling + outbox', process.execPath, [join(root, 'bench/ceiling.mjs'), '0', '--outbox'], /listening on (\d+)/];
const prismBin = join(root, 'node_modules/@stoplight/prism-cli/dist/index.js');
// Logs off for every server, as in the issue's measurements (the reference with --quiet); Prism then prints nothing, so its port is chosen here.
const prism = async (dynamic) => {
  const port = await freePort();
  return [
    dynamic ? 'prism-dynamic' : 'prism-static',
    process.execPath,
    [prismBin, 'mock', join(root, 'spec/openapi.json'), '-p', String(port), '-v', 'silent', ...(dynamic ? ['-d'] : [])],
    null,
    port,
  ];
};

function fmt(n, digits = 0) {
  return n === undefined || Number.isNaN(n) ? '–' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

async function main() {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`# petstore-harness bench${quick ? ' (quick)' : ''}`);
  console.log(
    `machine: ${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}; generator ${generator}${generator === 'wrk' ? '' : ' (install wrk for higher ceilings)'}, ${connections} connections, ${seconds} s per run, ${rounds} round(s), median; ${hasTaskset ? 'server on core 0, generator on core 1' : 'no taskset: unpinned'}`,
  );
  console.log('');

  // ---- Throughput, side by side -------------------------------------------------------
  const seed = seedFile(1000);
  const allScenarios = [
    { name: 'GET /pets?limit=20', method: 'GET', path: '/pets?limit=20', auth: true },
    { name: 'GET /pets/{id}', method: 'GET', path: '/pets/7', auth: true },
    { name: 'POST /pets', method: 'POST', path: '/pets', auth: true, body: '{"name":"Rex","categoryId":9007199254740993,"status":"available"}' },
    { name: '401 (no key)', method: 'GET', path: '/pets', auth: false },
  ];
  // --scenario runs the side-by-side rounds of the scenarios whose names contain it, and nothing else.
  const scenarios = args.scenario ? allScenarios.filter((s) => s.name.includes(args.scenario)) : allScenarios;
  if (scenarios.length === 0) fail(`no scenario's name contains ${JSON.stringify(args.scenario)}: ${allScenarios.map((s) => s.name).join(', ')}`);
  const proxySection = () =>
    proxyOverhead({
      root,
      work,
      quick,
      rounds,
      seconds,
      connections,
      seed,
      scenarios,
      against: args.against ? args.against.split(',').map((dir) => dir.trim()) : [],
      startServer,
      stopServer,
      settle,
      load,
      freePort,
      referenceDefault,
      procStatus,
      cpuSeconds,
      median,
      middleHalf,
      fmt,
      prismBin,
    });
  if (args.section === 'proxy') return proxySection();
  if (args.section === 'imports') return coldImports();
  // The ceiling and the reference side by side, so that each pair of runs is as close in time as can be.
  const servers = [
    ceiling(),
    referenceDefault(seed),
    reference(seed, { extra: ['--journal-size', '0'] }),
    ...(args.against ? args.against.split(',').map((dir) => referenceAt(seed, dir.trim())) : []),
    ceilingOutbox(),
    await prism(false),
    ...(quick ? [] : [await prism(true)]),
  ];
  // --only runs the named servers alone (comma-separated; the ceiling stays, as every ratio needs it): the
  // getPet figure depends on how many servers share the rounds (docs/performance.md, "Method").
  if (args.only) {
    const names = new Set(['ceiling', ...args.only.split(',').map((name) => name.trim())]);
    for (let i = servers.length - 1; i >= 0; i--) if (!names.has(servers[i][0])) servers.splice(i, 1);
  }
  const results = new Map(); // `${scenario}|${server}` -> [{rps,p50,p99,generatorCpu}]
  const peakRss = new Map();
  const running = [];
  for (const spec of servers) {
    try {
      running.push(await startServer(...spec));
    } catch (error) {
      console.log(`(skipping ${spec[0]}: ${error.message.split('\n')[0]})`);
    }
  }
  for (const scenario of scenarios) {
    // Prism serves the spec's paths without the /v1 of its server URL.
    const run = async (server) => {
      await settle(running);
      return load({
        port: server.port,
        method: scenario.method,
        path: (server.name.startsWith('prism') ? '' : '/v1') + scenario.path,
        body: scenario.body,
        auth: scenario.auth,
        seconds,
      });
    };
    if (!quick) for (const server of running) await run(server);
    for (let round = 0; round < rounds; round++) {
      for (const server of round % 2 === 0 ? running : [...running].reverse()) {
        const r = await run(server);
        const key = `${scenario.name}|${server.name}`;
        results.set(key, [...(results.get(key) ?? []), r]);
      }
    }
  }
  for (const server of running) {
    peakRss.set(server.name, procStatus(server.child.pid, 'VmHWM'));
    await stopServer(server);
  }
  console.log('| scenario | server | req/s | p50 ms | p99 ms | × ceiling (middle half) | × Prism static | note |');
  console.log('|---|---|---:|---:|---:|---:|---:|---|');
  const againstOutbox = [];
  const defaultVsQuiet = [];
  const targets = [];
  for (const scenario of scenarios) {
    const summary = (name) => {
      const runs = results.get(`${scenario.name}|${name}`);
      if (!runs) return undefined;
      return {
        rps: median(runs.map((r) => r.rps)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        gen: Math.max(...runs.map((r) => r.generatorCpu)),
      };
    };
    // A ratio is the median of the ratios within each round: the two runs of
    // a round are little more than a second apart, so drift in the machine's speed (large on a
    // shared VM) cancels in each pair instead of adding to the spread.
    const pairedRatio = (name, baseline) => {
      const runs = results.get(`${scenario.name}|${name}`);
      const base = results.get(`${scenario.name}|${baseline}`);
      if (!runs || !base) return undefined;
      return runs.map((r, round) => r.rps / base[round].rps);
    };
    const ratioText = (ratios) => {
      if (!ratios) return '–';
      const [low, high] = middleHalf(ratios);
      return ratios.length < 4 ? fmt(median(ratios), 2) : `${fmt(median(ratios), 2)} (${fmt(low, 2)}–${fmt(high, 2)})`;
    };
    const top = summary('ceiling');
    const prismStatic = summary('prism-static');
    for (const server of running) {
      const s = summary(server.name);
      if (!s) continue;
      const note = s.gen > 0.9 ? `generator-bound (${Math.round(s.gen * 100)}% CPU)` : '';
      const prismRatios = prismStatic ? pairedRatio(server.name, 'prism-static') : undefined;
      console.log(
        `| ${scenario.name} | ${server.name} | ${fmt(s.rps)} | ${fmt(s.p50, 2)} | ${fmt(s.p99, 2)} | ${top ? ratioText(pairedRatio(server.name, 'ceiling')) : '–'} | ${prismRatios ? fmt(median(prismRatios), 1) : '–'} | ${note} |`,
      );
    }
    const sameWrites = pairedRatio('reference', 'ceiling + outbox');
    if (sameWrites) againstOutbox.push(`${scenario.name} ${ratioText(sameWrites)}`);
    const againstQuiet = pairedRatio('reference', 'reference --quiet');
    if (againstQuiet) defaultVsQuiet.push(`${scenario.name} ${ratioText(againstQuiet)}`);
    const toCeiling = top ? pairedRatio('reference', 'ceiling') : undefined;
    if (toCeiling) {
      const target = scenario.method === 'POST' ? 0.8 : 0.9;
      const ratio = median(toCeiling);
      targets.push(`${scenario.name} ${fmt(ratio, 2)}x ${ratio >= target ? '≥' : '<'} ${target}x ${ratio >= target ? 'met' : 'MISSED'}`);
    }
  }
  console.log('');
  if (defaultVsQuiet.length > 0)
    console.log(`reference (default: log to a file, journal, findings) × reference --quiet --journal-size 0, paired: ${defaultVsQuiet.join('; ')}`);
  if (targets.length > 0) console.log(`issue 26 targets (the default configuration × ceiling, median): ${targets.join('; ')}`);
  if (againstOutbox.length > 0) {
    console.log('');
    console.log(
      '× ceiling is against the bare ceiling. "ceiling + outbox" is not a target: the same bare server ending its answers through the reference\'s outbox (while busy, a turn\'s answers leave together at its end).',
    );
    console.log(`reference × (ceiling + outbox), paired the same way: ${againstOutbox.join('; ')}`);
  }
  console.log('');
  console.log('| server | peak RSS MiB |');
  console.log('|---|---:|');
  for (const [name, rss] of peakRss) console.log(`| ${name} | ${rss ? fmt(rss / 2 ** 20, 1) : '–'} |`);
  console.log('');
  if (args.scenario) return;
  await proxySection();
  if (!args['no-redis']) await sharedStore(seed, scenarios);

  // ---- Flat with size: 1k vs 1M pets ----------------------------------------------------
  const big = quick ? 100_000 : 1_000_000;
  const empty = await startServer(...reference(undefined));
  const emptyRss = procStatus(empty.child.pid, 'VmRSS');
  const emptyStart = empty.startMs;
  await stopServer(empty);
  const small = await startServer(...reference(seedFile(1000)));
  const large = await startServer(...reference(seedFile(big)));
  const largeRss = procStatus(large.child.pid, 'VmRSS');
  const scaling = [
    { name: 'GET /pets?status=sold&limit=100', path: '/v1/pets?status=sold&limit=100' },
    { name: 'GET /pets/{id}', path: (n) => `/v1/pets/${n - 1}` },
  ];
  console.log(`| scaling (10 connections) | 1,000 pets p50 ms | ${fmt(big)} pets p50 ms | ratio | 1,000 pets req/s | ${fmt(big)} pets req/s |`);
  console.log('|---|---:|---:|---:|---:|---:|');
  const sides = [
    ['small', small, 1000],
    ['large', large, big],
  ];
  for (const scenario of scaling) {
    const runs = { small: [], large: [] };
    const run = async (server, count) => {
      await settle([small, large]);
      return load({
        port: server.port,
        method: 'GET',
        path: typeof scenario.path === 'function' ? scenario.path(count) : scenario.path,
        auth: true,
        seconds,
        connections: 10,
      });
    };
    if (!quick) for (const [, server, count] of sides) await run(server, count);
    for (let round = 0; round < rounds; round++) {
      for (const [label, server, count] of round % 2 === 0 ? sides : [...sides].reverse()) runs[label].push(await run(server, count));
    }
    const s = median(runs.small.map((r) => r.p50));
    const l = median(runs.large.map((r) => r.p50));
    // Paired within each round, as for the throughput ratios.
    const ratio = median(runs.large.map((r, round) => r.p50 / runs.small[round].p50));
    console.log(
      `| ${scenario.name} | ${fmt(s, 3)} | ${fmt(l, 3)} | ${fmt(ratio, 2)} | ${fmt(median(runs.small.map((r) => r.rps)))} | ${fmt(median(runs.large.map((r) => r.rps)))} |`,
    );
  }
  await stopServer(small);
  await stopServer(large);
  const perPet = largeRss && emptyRss ? (largeRss - emptyRss) / big : undefined;
  console.log('');
  console.log(
    `store of ${fmt(big)} pets: RSS ${fmt(largeRss / 2 ** 20, 0)} MiB vs ${fmt(emptyRss / 2 ** 20, 0)} MiB empty = ${fmt(perPet, 0)} bytes per pet; start-up with the seed ${fmt(large.startMs / 1000, 2)} s (empty: ${fmt(emptyStart / 1000, 2)} s, so loading took ${fmt((large.startMs - emptyStart) / 1000, 2)} s)`,
  );
  console.log('');

  // ---- The suite ------------------------------------------------------------------------
  const target = await startServer(...reference(undefined));
  const report = join(work, 'conform.json');
  const suiteStart = performance.now();
  const [cmd, cmdArgs] = pinned(1, process.execPath, [
    join(root, 'bin/petstore.js'),
    'conform',
    '--base-url',
    `http://127.0.0.1:${target.port}/v1`,
    '--seed',
    '1',
    '--reporter',
    'json',
    '--output',
    report,
    '--quiet',
    ...(quick ? ['--runs', '20'] : []),
  ]);
  const suite = spawn(cmd, cmdArgs, { env: { ...process.env, PETSTORE_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
  let suiteCpu = 0;
  let suiteMainCpu = 0;
  const serverCpuStart = cpuSeconds(target.child.pid) ?? 0;
  let serverCpu = serverCpuStart;
  const sampler = setInterval(() => {
    suiteCpu = cpuSeconds(suite.pid) ?? suiteCpu;
    suiteMainCpu = cpuSeconds(suite.pid, suite.pid) ?? suiteMainCpu;
    serverCpu = cpuSeconds(target.child.pid) ?? serverCpu;
  }, 100);
  const code = await new Promise((resolve) => suite.on('exit', resolve));
  clearInterval(sampler);
  const wall = (performance.now() - suiteStart) / 1000;
  const result = JSON.parse(readFileSync(report, 'utf8'));
  // The floor: as many requests through the suite's client alone, as cold.
  const [floorCmd, floorArgs] = pinned(1, process.execPath, [
    join(root, 'bench/client-floor.mjs'),
    `http://127.0.0.1:${target.port}/v1`,
    KEY,
    String(result.requests),
  ]);
  const floor = spawnSync(floorCmd, floorArgs, { encoding: 'utf8' });
  const floorSeconds = floor.status === 0 ? Number(floor.stdout.trim()) : undefined;
  await stopServer(target);
  const loadSeconds = result.validatorLoadMs / 1000;
  const checksSeconds = (result.durationMs - result.validatorLoadMs) / 1000;
  console.log(
    `suite: petstore conform (default run${quick ? ', --runs 20' : ''}) against the reference server: exit ${code}, ${fmt(result.requests)} requests in ${fmt(checksSeconds, 2)} s of checks = ${fmt(result.requests / checksSeconds)} req/s; before them ${fmt(loadSeconds, 2)} s loading Prism; ${fmt(wall, 2)} s wall with process start-up`,
  );
  console.log(
    `  where the time goes: suite process ${fmt(suiteCpu, 2)} s CPU (main thread ${fmt(suiteMainCpu, 2)} s; other threads ${fmt(suiteCpu - suiteMainCpu, 2)} s: V8's compiler and GC threads, Prism's worker), server ${fmt(serverCpu - serverCpuStart, 2)} s CPU, over ${fmt(wall, 2)} s wall → ${suiteCpu > (serverCpu - serverCpuStart) ? 'bounded by the suite (generation and validation), not the server' : 'bounded by the server'}`,
  );
  console.log(
    `  the floor: the suite's client alone (bench/client-floor.mjs, ${fmt(result.requests)} requests, 8 in flight, nothing generated or judged, from a fresh process) ${floorSeconds === undefined ? `failed: ${floor.stderr.trim().split('\n')[0]}` : `${fmt(floorSeconds, 2)} s = ${fmt(result.requests / floorSeconds)} req/s`}`,
  );
  coldImports();
}

/**
 * What a client's test file pays to load the stand-in (issue 47: at most 150 ms): `import('petstore-harness')`
 * and `require('petstore-harness')`, each in a fresh process started in a consumer's project (an empty
 * directory whose node_modules/petstore-harness links to this checkout, so the name resolves through the
 * package's exports as an installed copy's does), timed inside it from just before the load to just after,
 * the median of 11. The entry loads no Redis client, Prism or fast-check (test/src/index/cost.test.ts keeps
 * them out of it).
 */
function coldImports() {
  const project = mkdtempSync(join(tmpdir(), 'petstore-bench-consumer-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(root, join(project, 'node_modules', 'petstore-harness'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  const probe = (load) => `const t0 = performance.now(); ${load}; console.log(JSON.stringify({ ms: performance.now() - t0 }));`;
  try {
    for (const [label, code, type] of [
      ["import('petstore-harness')", probe("await import('petstore-harness')"), 'module'],
      ["require('petstore-harness')", probe("require('petstore-harness')"), 'commonjs'],
    ]) {
      const times = [];
      for (let i = 0; i < 11; i++) {
        const ran = spawnSync(process.execPath, ['--input-type', type, '-e', code], { cwd: project, encoding: 'utf8' });
        if (ran.status !== 0) fail(`${label} in a consumer's project failed: ${ran.stderr}`);
        times.push(JSON.parse(ran.stdout.trim()).ms);
      }
      times.sort((x, y) => x - y);
      console.log(
        `library entry, ${label} cold in a consumer's project (median of 11 fresh processes; target at most 150 ms): ${fmt(times[5], 1)} ms (fastest ${fmt(times[0], 1)}, slowest ${fmt(times[10], 1)})`,
      );
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/**
 * The shared store beside the in-memory default: the same scenarios, rounds
 * interleaved as above, then one Redis-backed instance against two sharing
 * one Redis. Redis runs on the generator's core (there are two): what it
 * spends there is shown, as is every process's CPU per request.
 */
async function sharedStore(seed, scenarios) {
  if (spawnSync('redis-server', ['--version']).error !== undefined) {
    console.log('(shared store skipped: redis-server is not on PATH; apt-get install redis-server)');
    console.log('');
    return;
  }
  const port = await freePort();
  const [redisCmd, redisArgs] = pinned(1, 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--logfile', '']);
  const redis = spawn(redisCmd, redisArgs, { stdio: 'ignore' });
  children.add(redis);
  while (!(await accepts(port))) await new Promise((r) => setTimeout(r, 100));
  const url = `redis://127.0.0.1:${port}/0`;
  const memory = await startServer(...reference(seed, { name: 'in memory' }));
  const shared = await startServer(...reference(seed, { name: 'redis', extra: ['--store', url] }));
  const sides = [memory, shared];
  const sharedRounds = quick ? 1 : Math.max(3, Math.ceil(rounds / 3));
  console.log(`## Shared store: in memory vs --store redis:// (${sharedRounds} round(s), median; Redis on core 1 with the generator)`);
  console.log('');
  console.log(
    '| scenario | in memory req/s | redis req/s | redis × memory | in memory p50 ms | redis p50 ms | redis p99 ms | CPU µs per request: server / redis-server |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const scenario of scenarios) {
    const runs = new Map(sides.map((side) => [side.name, []]));
    const cpu = { server: 0, redis: 0, requests: 0 };
    const run = async (side) => {
      await settle([...sides, { child: redis }]);
      const before = [cpuSeconds(side.child.pid) ?? 0, cpuSeconds(redis.pid) ?? 0];
      const r = await load({ port: side.port, method: scenario.method, path: `/v1${scenario.path}`, body: scenario.body, auth: scenario.auth, seconds });
      if (side === shared) {
        cpu.server += (cpuSeconds(side.child.pid) ?? 0) - before[0];
        cpu.redis += (cpuSeconds(redis.pid) ?? 0) - before[1];
        cpu.requests += r.rps * seconds;
      }
      return r;
    };
    if (!quick) for (const side of sides) await run(side);
    for (let round = 0; round < sharedRounds; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) runs.get(side.name).push(await run(side));
    }
    const m = runs.get('in memory');
    const r = runs.get('redis');
    const perRequest = (seconds) => (cpu.requests ? fmt((seconds / cpu.requests) * 1e6, 1) : '–');
    console.log(
      `| ${scenario.name} | ${fmt(median(m.map((x) => x.rps)))} | ${fmt(median(r.map((x) => x.rps)))} | ${fmt(median(r.map((x, i) => x.rps / m[i].rps)), 2)} | ${fmt(median(m.map((x) => x.p50)), 2)} | ${fmt(median(r.map((x) => x.p50)), 2)} | ${fmt(median(r.map((x) => x.p99)), 2)} | ${perRequest(cpu.server)} / ${perRequest(cpu.redis)} |`,
    );
  }
  await stopServer(memory);
  // One instance against two sharing one Redis: the same connections in all, split across the two.
  const second = await startServer(...reference(undefined, { name: 'redis #2', extra: ['--store', url] }));
  console.log('');
  console.log(`| one vs two instances sharing one Redis (${connections} connections in all) | one instance req/s | two instances req/s (sum) | two × one |`);
  console.log('|---|---:|---:|---:|');
  for (const scenario of scenarios.filter((s) => s.auth)) {
    const one = [];
    const two = [];
    const options = { method: scenario.method, path: `/v1${scenario.path}`, body: scenario.body, auth: true, seconds };
    for (let round = 0; round < sharedRounds; round++) {
      await settle([shared, second, { child: redis }]);
      one.push((await load({ ...options, port: shared.port })).rps);
      await settle([shared, second, { child: redis }]);
      const pair = await Promise.all([shared, second].map((side) => load({ ...options, port: side.port, connections: Math.ceil(connections / 2) })));
      two.push(pair[0].rps + pair[1].rps);
    }
    console.log(`| ${scenario.name} | ${fmt(median(one))} | ${fmt(median(two))} | ${fmt(median(two.map((x, i) => x / one[i])), 2)} |`);
  }
  console.log('');
  console.log(
    'Both instances run on core 0 (where the one instance runs alone), so two can only win by overlapping their waits on Redis; on a machine with a core per instance, the sum is the figure to expect to scale.',
  );
  console.log('');
  await stopServer(second);
  await stopServer(shared);
  redis.kill('SIGKILL');
  children.delete(redis);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
