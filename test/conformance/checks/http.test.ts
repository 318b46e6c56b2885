// The messages http.createPet.message writes by hand (conformance/checks/http.ts):
// what goes on the wire, read at the reference server's sockets. Node's
// parser answers the conflicting framing itself, so no fixture built on
// node:http can show what a server with a parser of its own would make of
// it; what is sent is stated here. Then what the other checks of the file
// record and judge that no fixture of the corpus shows: the record of a raw
// message, a cache in front of authentication, the methods tried, a target
// past a removal date, --read-only.
import * as http from 'node:http';
import * as net from 'node:net';
import t, { type Test } from 'tap';
import type { Exchange } from '../../../conformance/client.js';
import { runConformance } from '../../../conformance/index.js';
import { operations } from '../../../spec/operations.js';
import { chunks } from '../../../conformance/checks/http.js';
import { startServer } from '../../../src/index.js';
import { createServer } from '../../../src/server/index.js';
import { runCheck } from '../../helpers/check-run.js';
import { startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

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
  t.equal((await runCheck(url, key, 'http.createPet.message', { seed: 3 })).status, 'passed');
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
  // Each connection's bytes end with the list read that followed its message.
  const extended = wire.map((w) => w.replace(/GET \/v1\/pets\?limit=1 HTTP\/1\.1\r\n[\s\S]*$/, '')).filter((w) => /\r\n0;conform=end\r\n\r\n$/.test(w));
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
 * With `closeAfterBoth` it closes the connection after answering such a request (as §6.3 requires), so nothing is
 * smuggled; with `unvalidated` it makes a pet of whatever a POST carried, a body that is not a JSON object giving a
 * pet with an id alone. A GET or HEAD is the list, 200 and [] (the follow-up's, `?limit=1`, is `followUp` if given);
 * `Connection: close` is honoured.
 * With `onePerArrival` it takes one request from its buffer each time bytes arrive, so what it left unread waits
 * and is glued to the front of the next request; after a request `silentAfter` picks, it answers nothing more.
 */
function lengthFirstServer(
  options: {
    closeAfterBoth?: true;
    unvalidated?: true;
    onePerArrival?: true;
    silentAfter?: (lines: string[]) => boolean;
    followUp?: { status: number; body: string };
  } = {},
): net.Server {
  let nextId = 1;
  const reasons: Record<number, string> = { 200: 'OK', 201: 'Created', 400: 'Bad Request', 429: 'Too Many Requests' };
  return net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    let silent = false;
    const answer = (status: number, body: string, head = false) =>
      socket.write(
        `HTTP/1.1 ${status} ${reasons[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${head ? '' : body}`,
      );
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (let first = true; !silent && (first || !options.onePerArrival); first = false) {
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
        const both = length !== undefined && field('transfer-encoding') !== undefined;
        silent = options.silentAfter?.(lines) ?? false;
        if (/^(GET|HEAD) /.test(lines[0]!)) {
          const list = (lines[0]!.includes('?limit=1 ') && options.followUp) || { status: 200, body: '[]' };
          answer(list.status, list.body, lines[0]!.startsWith('HEAD '));
          if (field('connection') === 'close') socket.end();
        } else if (options.unvalidated && lines[0]!.startsWith('POST ')) {
          // Whatever it read becomes a pet: what is not a JSON object, a pet with an id alone.
          let text = body.toString('utf8');
          try {
            const value: unknown = JSON.parse(text);
            if (typeof value !== 'object' || value === null || Array.isArray(value)) text = '{}';
          } catch {
            text = '{}';
          }
          answer(201, `{"id":${nextId++}${text === '{}' ? '' : ','}${text.slice(1)}`);
        } else
          try {
            // Echoed as sent, with an id in front: JSON.parse would round a categoryId past 2^53.
            const text = body.toString('utf8');
            const pet = JSON.parse(text) as Record<string, unknown>;
            if (typeof pet['name'] !== 'string' || typeof pet['categoryId'] !== 'number' || !text.startsWith('{')) throw new Error('not a NewPet');
            answer(201, `{"id":${nextId++},${text.slice(1)}`);
          } catch {
            answer(400, '{"code":"invalid_body","message":"the body is not a NewPet","status":400}');
          }
        if (both && options.closeAfterBoth) {
          socket.end();
          return;
        }
      }
    });
  });
}

/** The outcome of http.createPet.message against `server`, listening on an ephemeral port for the test. */
async function messageCheckOn(t: Test, server: net.Server | http.Server, options: { timeoutMs?: number } = {}) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as net.AddressInfo;
  return (await runCheck(`http://127.0.0.1:${port}/v1`, 'secret-key-123', 'http.createPet.message', { seed: 3, ...options })).outcome;
}

t.test('a server that reads the body by Content-Length beside Transfer-Encoding is caught smuggling the rest as a second request', async (t) => {
  const outcome = await messageCheckOn(t, lengthFirstServer());
  t.equal(outcome?.status, 'failed');
  t.match(outcome?.failure?.message, /then another answer on the same connection: the body was read by its Content-Length/);
});

const CONFLICTING = 'Transfer-Encoding: chunked beside a Content-Length of 1 (RFC 9112 §6.3)';
const hasBothFramings = (lines: string[]) => lines.some((l) => /^content-length:/i.test(l)) && lines.some((l) => /^transfer-encoding:/i.test(l));

t.test('a server that frames by Content-Length beside Transfer-Encoding and glues the rest to the next request: the follow-up shows it', async (t) => {
  // One request per arrival of bytes: the second answer never comes by itself, so only the list read after it shows
  // what the connection became.
  const outcome = await messageCheckOn(t, lengthFirstServer({ onePerArrival: true }));
  t.equal(outcome?.status, 'failed');
  t.equal(
    outcome?.failure?.message,
    `after ${CONFLICTING} was answered 400, a well-formed list request on the same connection got 400, not the 200 with a JSON array it gets on its own: the connection was desynchronised by the previous message (request smuggling, RFC 9112 §6.3, §11.2)`,
  );
  t.ok(hasBothFramings(outcome?.failure?.request?.raw?.split('\r\n\r\n')[0]?.split('\r\n') ?? []), 'the failure shows the message that desynchronised it');
});

t.test('a server still reading the first message when the follow-up comes: no answer on an open connection is a desync', async (t) => {
  const server = lengthFirstServer({ closeAfterBoth: true, silentAfter: (lines) => lines.some((l) => /^transfer-encoding:/i.test(l)) });
  const outcome = await messageCheckOn(t, server, { timeoutMs: 500 });
  t.equal(outcome?.status, 'failed');
  t.match(
    outcome?.failure?.message,
    /^after a chunked body \(RFC 9112 §7\.1\) was answered 201, a well-formed list request on the same connection got no answer, the connection left open, .* desynchronised by the previous message/,
  );
});

t.test('the follow-up must get what it gets on its own: another status, or a 200 without a JSON array, fails; a 429 says nothing', async (t) => {
  const verdict = async (followUp: { status: number; body: string }) =>
    (await messageCheckOn(t, lengthFirstServer({ closeAfterBoth: true, followUp })))?.failure?.message;
  t.match(
    await verdict({ status: 201, body: '{"id":1}' }),
    /^after a chunked body \(RFC 9112 §7\.1\) was answered 201, a well-formed list request on the same connection got 201, /,
  );
  t.match(await verdict({ status: 200, body: '{}' }), /list request on the same connection got 200 without a JSON array, /);
  t.equal(await verdict({ status: 429, body: '{}' }), undefined, 'a rate limit on the follow-up is no verdict');
  t.equal(await verdict({ status: 200, body: '[]' }), undefined, 'a server that closes after the conflicting message and answers every follow-up passes');
});

t.test('the reads written by hand are followed too: a server silent after two Host fields fails http.listPets.message', async (t) => {
  const server = lengthFirstServer({ silentAfter: (lines) => lines.filter((l) => /^host:/i.test(l)).length === 2 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as net.AddressInfo;
  const { outcome } = await runCheck(`http://127.0.0.1:${port}/v1`, 'secret-key-123', 'http.listPets.message', { seed: 3, timeoutMs: 500 });
  t.equal(outcome?.status, 'failed');
  t.match(
    outcome?.failure?.message,
    /^after two Host fields was answered 200, a well-formed list request on the same connection got no answer, the connection left open/,
  );
});

t.test('a server that frames by Content-Length beside Transfer-Encoding but closes the connection: its 201 is for a pet not sent, and fails', async (t) => {
  // Nothing is smuggled (the connection is closed), but the body read was one byte of the chunked coding: what it
  // created is not the NewPet sent, and a 201 to that request is judged like any other create (RFC 9112 §6.3).
  const outcome = await messageCheckOn(t, lengthFirstServer({ closeAfterBoth: true, unvalidated: true }));
  t.equal(outcome?.status, 'failed');
  const head = (outcome?.failure?.request?.raw ?? '').split('\r\n\r\n')[0]!.split('\r\n');
  t.ok(head.some((l) => /^content-length:/i.test(l)) && head.some((l) => /^transfer-encoding:/i.test(l)), 'the failing request is the one with both framings');
  t.equal(outcome?.failure?.response?.status, 201, 'and the failure shows the 201 it got');
});

t.test('a 201 to a chunked create that carries no Pet fails the check, with that answer shown', async (t) => {
  // Node's parser frames every message right; the create answers 201 and no content (RFC 9110 §15.3.2 lets a 201
  // say little, the interface promises the Pet created).
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') res.writeHead(201, { location: '/v1/pets/1' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
  });
  t.teardown(() => server.closeAllConnections());
  const outcome = await messageCheckOn(t, server);
  t.equal(outcome?.status, 'failed');
  // The target's fault, shown with its answer: not the check stumbling over a body it did not expect.
  t.equal(outcome?.failure?.response?.status, 201, 'the failure shows the 201');
  t.equal(outcome?.failure?.response?.text, '');
});

/** The request line's method and the fields of a message written by hand, read from its bytes. */
function parseHead(raw: string): { method: string; fields: Map<string, string> } {
  const lines = raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n');
  const fields = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    fields.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { method: lines[0]!.split(' ')[0]!, fields };
}

t.test('each message written by hand is recorded as it went on the wire, and as off the spec; the list read after it, as on it', async (t) => {
  const { url, key } = await startTestServer(t);
  const raw: Exchange[] = [];
  const result = await runConformance({
    baseUrl: url,
    apiKey: key,
    seed: 3,
    runs: 25,
    families: ['http'],
    checkIds: ['http.createPet.message', 'http.listPets.message'],
    observe: (exchange) => {
      if (exchange.request.raw !== undefined) raw.push(exchange);
    },
  });
  for (const check of result.checks) t.not(check.status, 'failed', check.id);
  t.ok(raw.length > 0);
  // What the other judges read from a record (http.allow the method, http.shared-cache the credential, the report
  // all three) is what the bytes said. HTTP lets a server answer these messages in ways the spec does not list (400
  // to a conflicting framing, 411 to a chunked body, no content to HEAD): only the check that wrote them judges them.
  const recorded = raw.map(({ request }) => ({
    method: request.method,
    authorization: request.headers['authorization'],
    contentType: request.headers['content-type'],
    offSpec: request.offSpec,
  }));
  // The follow-up is the list read as the spec has it, so the rules over every answer judge what it gets.
  const followUp = (raw: string) => raw.startsWith('GET /v1/pets?limit=1 HTTP/1.1\r\n');
  const sent = raw.map(({ request }) => {
    const { method, fields } = parseHead(request.raw!);
    return { method, authorization: fields.get('authorization'), contentType: fields.get('content-type'), offSpec: followUp(request.raw!) ? undefined : true };
  });
  t.same(recorded, sent);
  const followUps = raw.filter(({ request }) => followUp(request.raw!));
  t.ok(followUps.length > 0, 'follow-ups were sent');
  t.ok(
    followUps.every(({ request, response }) => request.operationId === 'listPets' && request.path === '/pets?limit=1' && response.status === 200),
    'each as listPets, answered 200',
  );
});

/** Every answer of a run (its request and response), for what the checks sent. */
async function observedRun(
  options: Parameters<typeof runConformance>[0],
): Promise<{ result: Awaited<ReturnType<typeof runConformance>>; exchanges: Exchange[] }> {
  const exchanges: Exchange[] = [];
  const result = await runConformance({ seed: 3, runs: 25, families: ['http'], ...options, observe: (e) => exchanges.push(e) });
  return { result, exchanges };
}

const keyless = (e: Exchange) => e.request.headers['authorization'] === undefined;

/**
 * The conditional check's verdict against a cache in front of authentication: every request without the key is
 * judged (RFC 9110 §13.2.1: preconditions are evaluated only where the answer would otherwise be a 2xx, so without the
 * key the answer is the 401 whatever they say), so the check fails at the first such request answered otherwise.
 */
async function preAuthCache(
  t: Test,
  answer: (req: { path: string; headers: http.IncomingHttpHeaders }, stored: { at: number } | undefined) => number | undefined,
) {
  const { url, key } = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n }] });
  const stored = new Map<string, { at: number; status: number; headers: Record<string, string>; body: Buffer }>();
  const front = await startFront(t, url, async (req, forward) => {
    const own = req.method === 'GET' ? answer(req, stored.get(req.path)) : undefined;
    const kept = stored.get(req.path);
    if (own === 200 && kept) return kept;
    if (own === 304 && kept) return { status: 304, headers: {}, body: Buffer.alloc(0) };
    const got = await forward();
    if (req.method === 'GET' && got.status === 200 && req.headers.authorization !== undefined) stored.set(req.path, { at: Date.now(), ...got });
    return got;
  });
  const { result, exchanges } = await observedRun({ baseUrl: front, apiKey: key, checkIds: ['http.getPet.conditional'] });
  const outcome = result.checks.find((c) => c.id === 'http.getPet.conditional');
  t.equal(outcome?.status, 'failed');
  const first = exchanges.find((e) => keyless(e) && e.response.status !== 401);
  t.ok(first, 'a request without the key was answered other than 401');
  t.same(outcome?.failure?.request?.headers, first?.request.headers, 'and the failure names the first of them');
  t.equal(outcome?.failure?.response?.status, first?.response.status);
}

t.test('a cache in front of authentication that serves its stored 200 to any GET: the first precondition without the key fails', async (t) => {
  await preAuthCache(t, (_req, stored) => (stored ? 200 : undefined));
});

t.test('a cache in front of authentication that answers If-Modified-Since by the time it stored the 200: a 304 without the key fails', async (t) => {
  // It knows dates only (so it also misses §13.1.3: If-Modified-Since is ignored beside If-None-Match).
  await preAuthCache(t, (req, stored) => {
    const since = Date.parse(String(req.headers['if-modified-since'] ?? ''));
    return stored && !Number.isNaN(since) && since >= stored.at ? 304 : undefined;
  });
});

t.test('the other methods: each one the check names is sent, and those that change an item only to an id no pet has', async (t) => {
  // The target holds a pet at the first id the check would try for a missing one: asked first, it is passed over.
  const held = 9223372036854775801n;
  const { url, key } = await startTestServer(t, { seed: [{ id: held, name: 'Rex', categoryId: 1n }] });
  const { result, exchanges } = await observedRun({ baseUrl: url, apiKey: key, checkIds: ['http.getPet.other-methods', 'http.listPets.other-methods'] });
  for (const operationId of ['getPet', 'listPets']) {
    const outcome = result.checks.find((c) => c.id === `http.${operationId}.other-methods`);
    t.not(outcome?.status, 'failed', operationId);
    // The title names the methods it tries (RFC 9110 §9.1 defines what each may get): every one of them, once.
    const named = /\(([^)]+)\) are answered/.exec(outcome?.title ?? '')?.[1]?.split(', ');
    const sent = exchanges.filter((e) => e.request.operationId === operationId && e.request.offSpec).map((e) => e.request.method);
    t.ok(named && named.length > 1, `${operationId}: the methods named`);
    t.same([...sent].sort(), [...(named ?? [])].sort(), `${operationId}: each method named is sent, once`);
  }
  const found = (path: string) => exchanges.some((e) => e.request.method === 'GET' && e.request.path === path && e.response.status === 200);
  const changed = exchanges.filter((e) => ['PUT', 'PATCH', 'DELETE'].includes(e.request.method));
  t.ok(changed.length > 0);
  t.same(
    changed.filter((e) => found(e.request.path)).map((e) => `${e.request.method} ${e.request.path}`),
    [],
    'no method that changes an item is sent to a pet the target holds',
  );
});

t.test('past the removal date, an operation still answered 200 is held to the preconditions', async (t) => {
  // A target whose clock is past the sunset of a deprecated read that it still serves (what deprecation judges), with
  // a cache that answers 304 to any If-None-Match: a tag it never issued must still get the 200 (RFC 9110 §13.1.2).
  const op = operations.find((o) => o.method === 'GET' && o.sunset !== undefined)!;
  const after = new Date(op.sunset!.getTime() + 86_400_000).toUTCString();
  const { url, key } = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n }] });
  const front = await startFront(t, url, async (req, forward) => {
    const got = await forward();
    const status = req.method === 'GET' && got.status === 200 && req.headers['if-none-match'] !== undefined ? 304 : got.status;
    return { status, headers: { ...got.headers, date: after }, body: status === 304 ? Buffer.alloc(0) : got.body };
  });
  const { result } = await observedRun({ baseUrl: front, apiKey: key, checkIds: [`http.${op.operationId}.conditional`] });
  t.ok(result.targetDate && Date.parse(result.targetDate) > op.sunset!.getTime(), 'the target said a date past the sunset');
  t.equal(result.checks.find((c) => c.id === `http.${op.operationId}.conditional`)?.status, 'failed');
});

t.test('--read-only still runs the checks that only read: the messages on the list and the preconditions', async (t) => {
  const { url, key } = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n }] });
  const { result, exchanges } = await observedRun({
    baseUrl: url,
    apiKey: key,
    readOnly: true,
    checkIds: ['http.listPets.message', 'http.listPets.conditional', 'http.getPet.conditional'],
  });
  const asked = result.checks.filter((c) => c.family === 'http');
  t.equal(asked.length, 3);
  for (const check of result.checks) t.ok(['passed', 'advisory'].includes(check.status), `${check.id}: ${check.status}`);
  t.same(
    exchanges.filter((e) => !['GET', 'HEAD'].includes(e.request.method)),
    [],
    'and they sent nothing but GET and HEAD',
  );
});

// A chunked body is split between characters, so a name whose astral
// character straddles the middle reaches the server whole (a split surrogate
// pair would be written as U+FFFD, and a correct server would be failed for
// echoing what it was sent).
t.test('a body is chunked between characters, never inside a surrogate pair', async (t) => {
  for (const body of ['{"name":"🐈🐈"}', '{"name":"a🐈"}', 'x🐈', '🐈x', '{"name":"plain"}']) {
    const text = chunks(body);
    const parts: string[] = [];
    for (let rest = text; !rest.startsWith('0\r\n') && rest !== ''; ) {
      const line = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.slice(0, line), 16);
      const data = Buffer.from(rest.slice(line + 2), 'utf8')
        .subarray(0, size)
        .toString('utf8');
      parts.push(data);
      rest = rest.slice(line + 2 + data.length + 2);
    }
    t.equal(parts.join(''), body, `${JSON.stringify(body)} comes back whole from its chunks`);
    t.notOk(parts.join('').includes('\ufffd'), 'no replacement character');
  }
});

t.test('the run that once failed the reference server (seed 404268968) passes', async (t) => {
  const api = await startServer();
  t.teardown(() => api.close());
  const result = await runConformance({
    baseUrl: api.url,
    apiKey: api.apiKey,
    seed: 404268968,
    runs: 5,
    families: ['http'],
    checkIds: ['http.createPet.message'],
  });
  t.same(
    result.failures.map((f) => f.message),
    [],
    'no failure',
  );
  t.equal(result.checks.find((c) => c.id === 'http.createPet.message')?.status, 'passed');
});
