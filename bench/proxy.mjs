/**
 * The proxy's overhead (issue 48), a section of `npm run bench` (run.mjs calls it with its helpers;
 * `npm run bench -- --section proxy` runs it alone, `--quick` and `--scenario TEXT` apply).
 *
 * One reference server, in its default configuration (its log to a file, journal and findings on), is
 * the upstream of everything here. In the same rounds, interleaved as in run.mjs, the load generator
 * sends each scenario
 *   - to the reference directly (`reference`),
 *   - through `petstore proxy --upstream …/v1 --port 0` in its default configuration (`proxy → reference`:
 *     the request log on, written to a file as the reference's is; the findings on; nothing else given),
 *   - through Prism 5.12's proxy (`prism proxy spec/openapi.json …/v1`, as run.mjs runs Prism's mock: the
 *     CLI, `-v silent`; its defaults otherwise: prism-http's createInstance with `isProxy`, `upstream`,
 *     `validateRequest: true`, `validateResponse: true`, `checkSecurity: true`, `errors: false`), the anchor.
 * and two floors that check nothing, to show what forwarding alone costs on this machine:
 *   - `bare node forwarder → reference` (bench/bare-forwarder.mjs): node:http and an undici Pool, the
 *     proxy's own stack, passing requests and answers on and doing nothing else;
 *   - `nginx → reference` (when nginx is on PATH or in /usr/sbin): nginx's `proxy_pass` with keep-alive to the
 *     upstream, one process (`master_process off`), its access log on, as a gateway in front of a
 *     staging would be.
 * The proxies run on core 0 beside their upstream (the generator has core 1): on this machine a proxy
 * and its upstream share one core, so the proxy's CPU comes out of the throughput, as it would on a
 * one-core host; on a host with a core to spare for the proxy the ratio is an underestimate.
 *
 * Each throughput ratio is the median of the within-round ratios to the direct run (middle half in
 * brackets), each "p50 added" the median of the within-round differences. The issue's targets: at least
 * 0.6x the direct throughput and at most 0.3 ms added to p50, both at the bench's connections (50).
 * A second, shorter series sends one request at a time (1 connection): there the p50 is the hop's own
 * latency, without the queueing that 50 connections add in front of a slower server.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `bench` holds run.mjs's helpers and settings: { root, work, quick, rounds, seconds, connections,
 * seed, scenarios, against, startServer, stopServer, settle, load, freePort, referenceDefault, procStatus,
 * cpuSeconds, median, middleHalf, fmt, prismBin }.
 */
export async function proxyOverhead(bench) {
  const { root, work, quick, rounds, seconds, connections, seed, scenarios, startServer, stopServer, settle, load, median, middleHalf, fmt } = bench;
  const upstream = await startServer(...bench.referenceDefault(seed));
  const upstreamUrl = `http://127.0.0.1:${upstream.port}/v1`;
  const petstoreProxy = (name, checkout) => [
    name,
    process.execPath,
    [join(checkout, 'bin/petstore.js'), 'proxy', '--upstream', upstreamUrl, '--port', '0'],
    /at http:\/\/127\.0\.0\.1:(\d+)\/v1/,
    undefined,
    join(work, `${name.replace(/[^a-z0-9]+/gi, '-')}.log`),
  ];
  const prismPort = await bench.freePort();
  const nginxPort = await bench.freePort();
  const nginx = nginxFront(work, upstream.port, nginxPort);
  const fronts = [
    petstoreProxy('proxy → reference', root),
    // --against DIR: another checkout's proxy (built) in the same rounds, for a before/after comparison.
    ...(bench.against ?? []).map((dir) => petstoreProxy(`proxy@${dir.replace(/\/+$/, '').split('/').pop()} → reference`, dir)),
    [
      'prism proxy → reference',
      process.execPath,
      [bench.prismBin, 'proxy', join(root, 'spec/openapi.json'), upstreamUrl, '-p', String(prismPort), '-v', 'silent'],
      null,
      prismPort,
    ],
    [
      'bare node forwarder → reference',
      process.execPath,
      [join(root, 'bench/bare-forwarder.mjs'), `http://127.0.0.1:${upstream.port}`],
      /at http:\/\/127\.0\.0\.1:(\d+)\/v1/,
    ],
    ...(nginx ? [['nginx → reference', nginx.command, nginx.argv, null, nginxPort]] : []),
  ];
  const running = [upstream];
  for (const spec of fronts) {
    try {
      running.push(await startServer(...spec));
    } catch (error) {
      console.log(`(skipping ${spec[0]}: ${error.message.split('\n')[0]})`);
    }
  }
  // Prism serves the spec's paths without the /v1 of its server URL; the proxy serves the upstream's path.
  const pathOf = (server, scenario) => (server.name.startsWith('prism') ? '' : '/v1') + scenario.path;
  const latencyRounds = quick ? 1 : Math.max(3, Math.ceil(rounds / 3));
  const results = new Map(); // `${series}|${scenario}|${server}` -> [{rps,p50,p99,generatorCpu,cpu}]
  for (const [series, conns, seriesRounds] of [
    ['load', connections, rounds],
    ['one', 1, latencyRounds],
  ]) {
    for (const scenario of scenarios) {
      const run = async (server) => {
        await settle(running);
        // CPU of the process in front (none for the direct runs) and of the upstream, for "where the time goes".
        const before = [bench.cpuSeconds(server.child.pid) ?? 0, bench.cpuSeconds(upstream.child.pid) ?? 0];
        const r = await load({
          port: server.port,
          method: scenario.method,
          path: pathOf(server, scenario),
          body: scenario.body,
          auth: scenario.auth,
          seconds,
          connections: conns,
        });
        const after = [bench.cpuSeconds(server.child.pid) ?? 0, bench.cpuSeconds(upstream.child.pid) ?? 0];
        const requests = r.rps * seconds;
        const cpu =
          server === upstream
            ? { front: undefined, upstream: (after[1] - before[1]) / requests }
            : { front: (after[0] - before[0]) / requests, upstream: (after[1] - before[1]) / requests };
        return { ...r, cpu };
      };
      if (!quick) for (const server of running) await run(server);
      for (let round = 0; round < seriesRounds; round++) {
        for (const server of round % 2 === 0 ? running : [...running].reverse()) {
          const key = `${series}|${scenario.name}|${server.name}`;
          results.set(key, [...(results.get(key) ?? []), await run(server)]);
        }
      }
    }
  }
  const peakRss = running.map((server) => [server.name, bench.procStatus(server.child.pid, 'VmHWM')]);
  for (const server of [...running].reverse()) await stopServer(server);

  const runsOf = (series, scenario, name) => results.get(`${series}|${scenario.name}|${name}`);
  const paired = (series, scenario, name, f) => {
    const runs = runsOf(series, scenario, name);
    const base = runsOf(series, scenario, upstream.name);
    return runs && base ? runs.map((r, round) => f(r, base[round])) : undefined;
  };
  const withMiddle = (xs, digits) => {
    if (!xs) return '–';
    const [low, high] = middleHalf(xs);
    return xs.length < 4 ? fmt(median(xs), digits) : `${fmt(median(xs), digits)} (${fmt(low, digits)}–${fmt(high, digits)})`;
  };
  const signed = (ms) => (ms === undefined ? '–' : `${ms >= 0 ? '+' : '−'}${fmt(Math.abs(ms), 2)}`);
  const micros = (seconds) => (seconds === undefined || !Number.isFinite(seconds) ? '–' : fmt(seconds * 1e6, 1));

  console.log(`## The proxy's overhead: reference alone vs behind petstore proxy vs behind Prism's proxy (${connections} connections, ${rounds} round(s))`);
  console.log('');
  console.log('| scenario | server | req/s | p50 ms | p99 ms | × direct (middle half) | p50 added ms | CPU µs per request: proxy / reference | note |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
  const targets = [];
  for (const scenario of scenarios) {
    for (const server of running) {
      const runs = runsOf('load', scenario, server.name);
      if (!runs) continue;
      const direct = server === upstream;
      const ratios = direct ? undefined : paired('load', scenario, server.name, (r, b) => r.rps / b.rps);
      const added = direct ? undefined : paired('load', scenario, server.name, (r, b) => r.p50 - b.p50);
      const gen = Math.max(...runs.map((r) => r.generatorCpu));
      const note = gen > 0.9 ? `generator-bound (${Math.round(gen * 100)}% CPU)` : '';
      console.log(
        `| ${scenario.name} | ${server.name} | ${fmt(median(runs.map((r) => r.rps)))} | ${fmt(median(runs.map((r) => r.p50)), 2)} | ${fmt(median(runs.map((r) => r.p99)), 2)} | ${direct ? '1' : withMiddle(ratios, 2)} | ${direct ? '–' : signed(added && median(added))} | ${direct ? '–' : micros(median(runs.map((r) => r.cpu.front)))} / ${micros(median(runs.map((r) => r.cpu.upstream)))} | ${note} |`,
      );
      if (server.name === 'proxy → reference' && ratios && added) {
        const ratio = median(ratios);
        const ms = median(added);
        targets.push(
          `${scenario.name} ${fmt(ratio, 2)}x ${ratio >= 0.6 ? '≥ 0.6x met' : '< 0.6x MISSED'}, ${signed(ms)} ms ${ms <= 0.3 ? '≤ 0.3 ms met' : '> 0.3 ms MISSED'}`,
        );
      }
    }
  }
  console.log('');
  if (targets.length > 0) console.log(`issue 48 targets (proxy → reference × reference, ${connections} connections, median): ${targets.join('; ')}`);
  console.log('');
  console.log(`| scenario (1 connection, ${latencyRounds} round(s)) | server | req/s | p50 ms | p99 ms | p50 added ms |`);
  console.log('|---|---|---:|---:|---:|---:|');
  for (const scenario of scenarios) {
    for (const server of running) {
      const runs = runsOf('one', scenario, server.name);
      if (!runs) continue;
      const added = server === upstream ? undefined : paired('one', scenario, server.name, (r, b) => r.p50 - b.p50);
      console.log(
        `| ${scenario.name} | ${server.name} | ${fmt(median(runs.map((r) => r.rps)))} | ${fmt(median(runs.map((r) => r.p50)), 3)} | ${fmt(median(runs.map((r) => r.p99)), 3)} | ${added ? signed(median(added)) : '–'} |`,
      );
    }
  }
  console.log('');
  console.log(`peak RSS MiB: ${peakRss.map(([name, rss]) => `${name} ${rss ? fmt(rss / 2 ** 20, 1) : '–'}`).join('; ')}`);
  console.log('');
}

/** nginx as a bare forwarder to the upstream, or undefined when this machine has no nginx. */
function nginxFront(work, upstreamPort, port) {
  const command = ['nginx', '/usr/sbin/nginx'].find((c) => spawnSync(c, ['-v']).error === undefined);
  if (command === undefined) {
    console.log('(nginx → reference skipped: nginx is not installed; apt-get install nginx)');
    return undefined;
  }
  const dir = join(work, 'nginx');
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${join(dir, t)};`).join(' ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off; master_process off; worker_processes 1; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'logs/error.log')} warn;
events { worker_connections 4096; }
http {
  access_log ${join(dir, 'logs/access.log')};
  ${temp}
  upstream reference { server 127.0.0.1:${upstreamPort}; keepalive 128; }
  server {
    listen 127.0.0.1:${port};
    location / { proxy_pass http://reference; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
`,
  );
  return { command, argv: ['-p', dir, '-c', join(dir, 'nginx.conf')] };
}
