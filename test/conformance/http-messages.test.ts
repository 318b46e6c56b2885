// The messages http.createPet.message writes by hand (conformance/checks/http.ts):
// what goes on the wire, read at the reference server's sockets. Node's
// parser answers the conflicting framing itself, so no fixture built on
// node:http can show what a server with a parser of its own would make of
// it; what is sent is stated here.
import * as net from 'node:net';
import t from 'tap';
import { runConformance } from '../../conformance/index.js';
import { createServer } from '../../src/server/index.js';

t.test('the hand-written messages: chunked with extensions, and Transfer-Encoding beside a Content-Length of 1, each complete', async (t) => {
  const server = createServer({ onError: (error) => t.fail(String(error)) });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  const { host } = new URL(url);
  const key = server.apiKeys[0]!;
  const wire: string[] = [];
  server.http.on('connection', (socket) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => wire.push(text));
  });
  const result = await runConformance({ baseUrl: url, apiKey: key, seed: 3, runs: 25, families: ['http'], checkIds: ['http.createPet.message'] });
  t.equal(result.checks.find((c) => c.id === 'http.createPet.message')?.status, 'passed');
  await server.close();
  const heads = wire.map((w) => w.slice(0, w.indexOf('\r\n\r\n')).split('\r\n'));
  const complete = (lines: string[]) =>
    lines[0] === 'POST /v1/pets HTTP/1.1' &&
    lines.includes(`Host: ${host}`) &&
    lines.includes(`Authorization: Bearer ${key}`) &&
    lines.includes('Content-Type: application/json');
  t.ok(
    heads.some((h) => complete(h) && h.includes('Content-Length: 1') && h.includes('Transfer-Encoding: chunked')),
    'a complete POST with both Content-Length: 1 and Transfer-Encoding: chunked',
  );
  const extended = wire.filter((w) => /\r\n0;conform=end\r\n\r\n$/.test(w));
  t.equal(extended.length, 1, 'one chunked body ends with an extension on its last chunk');
  t.ok(
    extended.every((w) => /\r\n[0-9a-f]+;conform=1\r\n/.test(w.slice(w.indexOf('\r\n\r\n'))) && complete(w.slice(0, w.indexOf('\r\n\r\n')).split('\r\n'))),
    'and on each data chunk',
  );
});

/**
 * A server with an HTTP/1.1 parser of its own that reads a body by Content-Length whenever there is one, even beside
 * Transfer-Encoding (RFC 9112 §6.3 forbids it): the rest of a chunked body is then taken for the next request, the
 * request smuggling a front and a back that frame differently let through. Everything else it does right.
 */
function lengthFirstServer(): net.Server {
  let nextId = 1;
  return net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    const answer = (status: number, body: string) =>
      socket.write(
        `HTTP/1.1 ${status} ${status === 201 ? 'Created' : 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
        if (!/^[A-Z]+ \S+ HTTP\/1\.1$/.test(lines[0]!)) {
          buffer = Buffer.alloc(0);
          answer(400, '{"code":"bad_request","message":"malformed request line","status":400}');
          return;
        }
        const field = (name: string) =>
          lines
            .find((l) => l.toLowerCase().startsWith(`${name}:`))
            ?.slice(name.length + 1)
            .trim();
        let rest = buffer.subarray(end + 4);
        let body: Buffer;
        const length = field('content-length');
        if (length !== undefined) {
          if (rest.length < Number(length)) return;
          body = rest.subarray(0, Number(length));
          rest = rest.subarray(Number(length));
        } else if (field('transfer-encoding') === 'chunked') {
          const parts: Buffer[] = [];
          let at = 0;
          for (;;) {
            const lineEnd = rest.indexOf('\r\n', at);
            if (lineEnd < 0) return;
            const size = Number.parseInt(rest.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
            if (size === 0) {
              const trailerEnd = rest.indexOf('\r\n\r\n', lineEnd - 2);
              if (trailerEnd < 0) return;
              rest = rest.subarray(trailerEnd + 4);
              break;
            }
            if (rest.length < lineEnd + 2 + size + 2) return;
            parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
            at = lineEnd + 2 + size + 2;
          }
          body = Buffer.concat(parts);
        } else body = Buffer.alloc(0);
        buffer = rest;
        try {
          // Echoed as sent, with an id in front: JSON.parse would round a categoryId past 2^53.
          const text = body.toString('utf8');
          const pet = JSON.parse(text) as Record<string, unknown>;
          if (typeof pet['name'] !== 'string' || typeof pet['categoryId'] !== 'number' || !text.startsWith('{')) throw new Error('not a NewPet');
          answer(201, `{"id":${nextId++},${text.slice(1)}`);
        } catch {
          answer(400, '{"code":"invalid_body","message":"the body is not a NewPet","status":400}');
        }
      }
    });
  });
}

t.test('a server that reads the body by Content-Length beside Transfer-Encoding is caught smuggling the rest as a second request', async (t) => {
  const server = lengthFirstServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as net.AddressInfo;
  const result = await runConformance({
    baseUrl: `http://127.0.0.1:${port}/v1`,
    apiKey: 'secret-key-123',
    seed: 3,
    runs: 25,
    families: ['http'],
    checkIds: ['http.createPet.message'],
  });
  const outcome = result.checks.find((c) => c.id === 'http.createPet.message');
  t.equal(outcome?.status, 'failed');
  t.match(outcome?.failure?.message, /then another answer on the same connection: the body was read by its Content-Length/);
});
