#!/usr/bin/env node
/**
 * node bench/bare-forwarder.mjs UPSTREAM_ORIGIN
 *
 * The floor under any proxy written on Node's HTTP stack, an anchor of the proxy section
 * (bench/proxy.mjs): a node:http server that passes every request to the upstream through an
 * undici Pool (the proxy's own transport) and the answer back, and does nothing else: no check, no
 * judgement, no log, no Via. Hop-by-hop fields are dropped both ways, as any proxy must (RFC 9110
 * §7.6.1), so that keep-alive on each side stays each side's own. Prints `at http://127.0.0.1:PORT/v1`
 * when it listens, as `petstore proxy` does.
 */
import http from 'node:http';
import { Pool } from 'undici';

const origin = process.argv[2];
if (!origin) {
  console.error('usage: node bench/bare-forwarder.mjs UPSTREAM_ORIGIN');
  process.exit(2);
}
const pool = new Pool(origin, { connections: 128, pipelining: 1 });
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

/** rawHeaders ([name, value, …]) without the hop-by-hop fields, as an array undici and writeHead both take. */
function endToEnd(raw) {
  const kept = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = typeof raw[i] === 'string' ? raw[i] : String(raw[i]);
    if (!HOP_BY_HOP.has(name.toLowerCase())) kept.push(name, raw[i + 1]);
  }
  return kept;
}

const server = http.createServer((req, res) => {
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  pool.request({ method: req.method, path: req.url, headers: endToEnd(req.rawHeaders), body: hasBody ? req : undefined }, (error, answer) => {
    if (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
      return;
    }
    const headers = {};
    for (const name in answer.headers) if (!HOP_BY_HOP.has(name)) headers[name] = answer.headers[name];
    res.writeHead(answer.statusCode, headers);
    answer.body.on('data', (chunk) => res.write(chunk));
    answer.body.on('end', () => res.end());
    answer.body.on('error', () => res.destroy());
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => console.log(`at http://127.0.0.1:${server.address().port}/v1`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => pool.close().then(() => process.exit(0))));
