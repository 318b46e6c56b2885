#!/usr/bin/env node
/**
 * The ceiling, as the issue defines it: bare node:http answering precomputed
 * bodies, with none of the checks the interface requires, each answer written
 * as it is made. The reference server's targets are fractions of it; with its
 * outbox, the reference can pass it (see --outbox below).
 *
 *   node bench/ceiling.mjs [port] [--outbox]   (prints "listening on <port>")
 *
 * With --outbox it ends its answers through the reference server's outbox
 * (src/server/outbox.ts: while busy, a turn's answers leave together at its
 * end): the same bare server with the reference's write policy, which shows
 * what that policy alone is worth.
 */
import http from 'node:http';

const pets = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `pet-${i + 1}`, categoryId: 1, status: 'available' }));
const list = Buffer.from(JSON.stringify(pets));
const one = Buffer.from(JSON.stringify(pets[0]));
const created = Buffer.from(JSON.stringify({ id: 21, name: 'Rex', categoryId: 1, status: 'available' }));
const unauthorized = Buffer.from(JSON.stringify({ code: 'unauthorized', message: 'an API key is required', status: 401 }));
const type = 'application/json';

const outbox = process.argv.includes('--outbox') ? (await import('../dist/src/server/outbox.js')).createOutbox((error) => console.error(error)) : undefined;

function send(res, status, body) {
  res.writeHead(status, { 'content-type': type, 'content-length': body.length });
  if (outbox) outbox.end(res, body);
  else res.end(body);
}

const server = http.createServer((req, res) => {
  if (!req.headers.authorization) return send(res, 401, unauthorized);
  if (req.method === 'POST') {
    req.resume();
    req.on('end', () => send(res, 201, created));
    return;
  }
  send(res, 200, req.url.startsWith('/v1/pets?') || req.url === '/v1/pets' ? list : one);
});
server.keepAliveTimeout = 60_000;
// As the reference server does, so that a client's FIN does not cut off answers the outbox holds.
if (outbox) server.httpAllowHalfOpen = true;
server.listen(Number(process.argv[2] ?? 0) || 0, '127.0.0.1', () => console.log(`listening on ${server.address().port}`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
