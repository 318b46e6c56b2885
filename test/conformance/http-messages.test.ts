// The messages http.createPet.message writes by hand (conformance/checks/http.ts):
// what goes on the wire, read at the reference server's sockets. Node's
// parser answers the conflicting framing itself, so no fixture built on
// node:http can show what a server with a parser of its own would make of
// it; what is sent is stated here.
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
