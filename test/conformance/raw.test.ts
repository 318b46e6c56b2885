// sendRaw: one HTTP/1.1 exchange written byte for byte on a connection of its
// own (what undici will not send), its answer read as RFC 9112 §6.3 frames it
// (Content-Length, chunked, or until the connection closes), interim 1xx
// answers skipped, and whether the server closed the connection recorded.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import t, { type Test } from 'tap';
import { type RawTarget, sendRaw } from '../../conformance/raw.js';

interface RawServer {
  readonly target: RawTarget;
  /** The bytes the server received, once it has received `expected` of them. */
  readonly received: Promise<Buffer>;
}

/** A plain TCP server on 127.0.0.1 that records the bytes of one connection and, once `expected` bytes have come, writes its reply. */
async function rawServer(t: Test, expected: number, reply: (socket: Socket) => void, target: Partial<RawTarget> = {}): Promise<RawServer> {
  const sockets = new Set<Socket>();
  let settle: (bytes: Buffer) => void = () => {};
  const received = new Promise<Buffer>((resolve) => {
    settle = resolve;
  });
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    let bytes = Buffer.alloc(0);
    let replied = false;
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      if (replied || bytes.length < expected) return;
      replied = true;
      settle(bytes);
      reply(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
  return { target: { origin, timeoutMs: 5000, maxResponseBytes: 1_000_000, ...target }, received };
}

const GET = 'GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** Sends `request` to a server that answers with `answer` (and leaves the connection open unless `close`). */
async function exchange(t: Test, answer: string | Buffer, { request = GET, close = false, target = {} as Partial<RawTarget> } = {}) {
  const server = await rawServer(
    t,
    Buffer.byteLength(request),
    (socket) => {
      if (close) socket.end(answer);
      else socket.write(answer);
    },
    target,
  );
  return { server, answer: await sendRaw(server.target, request) };
}

t.test('the request is written exactly as given: a chunk extension, a trailer, no Host, Content-Length beside Transfer-Encoding', async (t) => {
  const request =
    'POST /v1/pets HTTP/1.1\r\n' +
    'Content-Length: 4\r\n' +
    'Transfer-Encoding: chunked\r\n' +
    'Authorization: Bearer  two-spaces\r\n' +
    '\r\n' +
    '5;name="ext"\r\n{"a":\r\n' +
    '2\r\n1}\r\n' +
    '0\r\n' +
    'X-Trailer: yes\r\n' +
    '\r\n';
  const { server, answer } = await exchange(t, 'HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n', { request });
  t.strictSame(await server.received, Buffer.from(request, 'latin1'), 'every byte, in order, nothing added');
  t.equal(answer.response.status, 400);
});

t.test('an answer framed by Content-Length: its status, its fields by lower-case name (repeated ones joined), its body parsed as JSON', async (t) => {
  const body = '{"id":9007199254740993,"name":"Rex"}';
  const { answer } = await exchange(
    t,
    `HTTP/1.1 201 Created\r\nContent-Type:  application/json \r\nContent-Length: ${body.length}\r\nX-Tag: a\r\nx-tag: b\r\n\r\n${body}`,
  );
  t.equal(answer.response.status, 201);
  t.equal(answer.response.headers['content-type'], 'application/json', 'the value without its surrounding white space');
  t.equal(answer.response.headers['x-tag'], 'a, b', 'a field sent twice, its values in order');
  t.equal(answer.response.text, body);
  const pet = answer.response.json as Record<string, unknown>;
  t.equal(pet['id'], 9007199254740993n, 'an int64 keeps every digit');
  t.equal(pet['name'], 'Rex');
  t.equal(answer.closed, false, 'the server kept the connection open');
  t.equal(answer.more, false, 'nothing came after the answer');
  t.ok(answer.response.durationMs >= 0);
});

t.test('a chunked answer is put together from its chunks, chunk extensions and trailer fields aside (RFC 9112 §7.1)', async (t) => {
  const { answer } = await exchange(
    t,
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\n[{"id\r\nA\r\n":1}, {"id\r\n5\r\n":2}]\r\n0\r\nX-Checksum: abc\r\n\r\n',
  );
  t.equal(answer.response.text, '[{"id":1}, {"id":2}]');
  t.same(answer.response.json, [{ id: 1n }, { id: 2n }]);
  t.equal(answer.more, false, 'the trailer section is part of the answer');
});

t.test('a body is read as its Content-Encoding says', async (t) => {
  const zipped = gzipSync('{"ok":true}');
  const head = `HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${zipped.length}\r\n\r\n`;
  const { answer } = await exchange(t, Buffer.concat([Buffer.from(head), zipped]));
  t.equal(answer.response.text, '{"ok":true}');
  t.equal(answer.response.coding, 'gzip');
});

t.test('interim 1xx answers are skipped: the final answer is read', async (t) => {
  const { answer } = await exchange(
    t,
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}',
  );
  t.equal(answer.response.status, 201);
  t.equal(answer.response.headers['link'], undefined, 'the fields of an interim answer are not the final answer’s');
  t.equal(answer.response.text, '{}');
});

t.test('the answer to HEAD, and a 204, end with their header section, whatever Content-Length says', async (t) => {
  const head = await exchange(t, 'HTTP/1.1 200 OK\r\nContent-Length: 120\r\n\r\n', { request: 'HEAD /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n' });
  t.equal(head.answer.response.status, 200);
  t.equal(head.answer.response.text, '');
  t.equal(head.answer.more, false);
  const noContent = await exchange(t, 'HTTP/1.1 204 No Content\r\n\r\n');
  t.equal(noContent.answer.response.status, 204);
  t.equal(noContent.answer.response.text, '');
});

t.test('an answer without a length ends when the server closes the connection, which is recorded', async (t) => {
  const { answer } = await exchange(t, 'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n\r\n{"code":"bad"}', { close: true });
  t.equal(answer.response.status, 400);
  t.equal(answer.response.text, '{"code":"bad"}');
  t.equal(answer.closed, true);
});

t.test('`Connection: close` on the answer counts as closed, even before the server closes', async (t) => {
  const { answer } = await exchange(t, 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  t.equal(answer.closed, true);
});

t.test('a second answer after the first shows the server read part of the request as another one', async (t) => {
  const { answer } = await exchange(t, 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
  t.equal(answer.response.status, 200, 'the first answer is the one read');
  t.equal(answer.response.text, '[]');
  t.equal(answer.more, true);
});

t.test('what is not an HTTP/1.1 answer is an error, never an answer', async (t) => {
  await t.rejects(exchange(t, 'SSH-2.0-OpenSSH_9.6\r\n\r\n'), /not an HTTP\/1\.1 status line: "SSH-2\.0-OpenSSH_9\.6"/);
  await t.rejects(exchange(t, 'HTTP/1.1 200 OK\r\nContent-Len', { close: true }), /the connection closed before a complete answer/);
  await t.rejects(exchange(t, '', { close: true }), /the connection closed before a complete answer/, 'closed with no answer at all');
});

t.test('no answer within the timeout, or an answer larger than the limit, is an error', async (t) => {
  const silent = await rawServer(t, 1, () => {}, { timeoutMs: 150 });
  await t.rejects(sendRaw(silent.target, GET), /^no answer within 150 ms$/);
  const big = 'x'.repeat(100_000);
  await t.rejects(
    exchange(t, `HTTP/1.1 200 OK\r\nContent-Length: ${big.length}\r\n\r\n${big}`, { target: { maxResponseBytes: 1000 } }),
    /^the answer is larger than 1000 bytes$/,
  );
});

const FOLLOW_UP = 'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
const OK_EMPTY = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]';

/**
 * A plain TCP server whose one connection is answered by `turn`, called with
 * everything received so far each time bytes arrive; it returns how much of
 * that it has now dealt with (what it leaves is glued to what comes next).
 */
async function conversation(t: Test, turn: (pending: string, socket: Socket) => number, target: Partial<RawTarget> = {}) {
  const arrivals: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      arrivals.push(chunk.toString('latin1'));
      pending += chunk.toString('latin1');
      pending = pending.slice(turn(pending, socket));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const origin = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
  return { target: { origin, timeoutMs: 5000, maxResponseBytes: 1_000_000, ...target } satisfies RawTarget, arrivals };
}

/** Answers each whole request (a header section, no body) in turn with the next of `answers`, closing after the last if `close`. */
function inTurn(answers: string[], close = false) {
  return (pending: string, socket: Socket) => {
    const end = pending.indexOf('\r\n\r\n');
    if (end === -1) return 0;
    const answer = answers.shift();
    if (answer === undefined) return end + 4;
    if (close && answers.length === 0) socket.end(answer);
    else socket.write(answer);
    return end + 4;
  };
}

t.test('a follow-up is sent on the same connection once the first answer is in, never with it, and its answer read', async (t) => {
  const server = await conversation(t, inTurn(['HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}', OK_EMPTY]));
  const answer = await sendRaw(server.target, GET, FOLLOW_UP);
  t.equal(answer.response.status, 201, 'the first answer is the first request’s');
  t.same(server.arrivals, [GET, FOLLOW_UP], 'the follow-up came in a later arrival: it was written after the first answer');
  t.equal(answer.followUp?.response?.status, 200);
  t.equal(answer.followUp?.response?.text, '[]');
  t.same(answer.followUp?.response?.json, []);
  t.equal(answer.followUp?.closed, false);
  t.notOk(answer.followUp?.timedOut);
  t.equal(answer.closed, false);
});

t.test('without a follow-up nothing more is sent, and none is reported', async (t) => {
  const server = await conversation(t, inTurn([OK_EMPTY, OK_EMPTY]));
  const answer = await sendRaw(server.target, GET);
  t.equal(answer.followUp, undefined);
  t.same(server.arrivals, [GET]);
});

t.test('a server that closes after its first answer is not sent the follow-up: closed, no answer', async (t) => {
  const server = await conversation(t, inTurn([OK_EMPTY], true));
  const answer = await sendRaw(server.target, GET, FOLLOW_UP);
  t.equal(answer.closed, true);
  t.same(answer.followUp, { closed: true });
  t.same(server.arrivals, [GET], 'the follow-up was never written');
});

t.test('a server that says `Connection: close` is taken at its word: the follow-up is not sent, even before it closes', async (t) => {
  const server = await conversation(t, inTurn(['HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n[]', OK_EMPTY]));
  const answer = await sendRaw(server.target, GET, FOLLOW_UP);
  t.same(answer.followUp, { closed: true });
  t.same(server.arrivals, [GET]);
});

t.test('a server that closes when the follow-up comes, without answering it, closed the connection', async (t) => {
  const server = await conversation(t, (pending, socket) => {
    if (pending === FOLLOW_UP) socket.destroy();
    else socket.write(OK_EMPTY);
    return pending.length;
  });
  const answer = await sendRaw(server.target, GET, FOLLOW_UP);
  t.equal(answer.closed, false, 'it kept the connection open after the first answer');
  t.same(answer.followUp, { closed: true });
});

t.test('bytes a server left unread are glued to the front of the follow-up: its answer is what that makes of them', async (t) => {
  // Frames the body by Content-Length: 1, leaving the rest of the chunked body for the next request.
  const request = 'POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n';
  const leftover = '\r\n{}\r\n0\r\n\r\n';
  const server = await conversation(t, (pending, socket) => {
    const end = pending.indexOf('\r\n\r\n');
    if (pending.startsWith('POST ')) {
      socket.write('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return end + 4 + 1;
    }
    // One request per arrival: what was left waits for the next bytes.
    if (pending.length === leftover.length) return 0;
    socket.write(`HTTP/1.1 400 Bad Request\r\nContent-Length: ${end}\r\n\r\n${pending.slice(0, end)}`);
    return pending.length;
  });
  const answer = await sendRaw(server.target, request, FOLLOW_UP);
  t.equal(answer.response.status, 400);
  t.equal(answer.more, false, 'one answer alone shows nothing');
  t.equal(answer.followUp?.response?.status, 400, 'the follow-up got the answer to the leftover');
  t.equal(answer.followUp?.response?.text, '\r\n{}\r\n0');
});

t.test('a follow-up left unanswered on an open connection times out: the server is still reading the first request', async (t) => {
  const server = await conversation(
    t,
    (pending, socket) => {
      if (pending === GET) socket.write(OK_EMPTY);
      return pending.length;
    },
    { timeoutMs: 300 },
  );
  const answer = await sendRaw(server.target, GET, FOLLOW_UP);
  t.equal(answer.response.status, 200, 'the first answer is still reported');
  t.same(answer.followUp, { closed: false, timedOut: true });
});

t.test('a follow-up answered with what is not HTTP/1.1 says so', async (t) => {
  const server = await conversation(t, (pending, socket) => {
    socket.write(pending === GET ? OK_EMPTY : '0\r\n\r\n');
    return pending.length;
  });
  const answer = await sendRaw(server.target, GET, FOLLOW_UP);
  t.match(answer.followUp, { closed: false, unreadable: /not an HTTP\/1\.1 status line/ });
});

t.test('when a second answer already came, no follow-up is sent: the connection is already shown out of step', async (t) => {
  const server = await conversation(t, inTurn([`${OK_EMPTY}HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n`, OK_EMPTY]));
  const answer = await sendRaw(server.target, GET, FOLLOW_UP);
  t.equal(answer.more, true);
  t.equal(answer.followUp, undefined);
  t.same(server.arrivals, [GET]);
});
