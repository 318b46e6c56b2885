// Answers for what Node's HTTP parser refuses (src/server/client-errors.ts): a
// malformed request, headers over the limit, a target over it, a timeout get an
// Error body like every other answer (not Node's empty one), `Connection: close`,
// no body for a HEAD (RFC 9110 §9.3.2), after any answer already due on the connection.
import net from 'node:net';
import t, { type Test } from 'tap';
import { answerClientError } from '../../../src/server/client-errors.js';
import { createClock } from '../../../src/server/clock.js';
import { defaultLimits } from '../../../src/server/decisions.js';
import { connect, parseRawResponse, rawExchange, readAll } from '../../helpers/raw-socket.js';
import { startTestServer } from '../../helpers/server.js';

const NOW = new Date('2030-12-05T00:00:00Z');

/** Checks an answer of the parser's refusal: status, Error body, framing; returns the parsed answer. */
function refusal(t: Test, raw: string, status: number, code: string, message: string) {
  const r = parseRawResponse(raw);
  t.equal(r.status, status, `status ${status}`);
  t.equal(r.headers['content-type'], 'application/json');
  t.equal(r.headers['connection'], 'close');
  t.match(r.headers['date'], /^Thu, 05 Dec 2030 00:0\d:\d\d GMT$/, 'the Date of the server clock');
  t.equal(r.text, JSON.stringify({ code, message, status }));
  t.equal(Number(r.headers['content-length']), Buffer.byteLength(r.text));
  t.equal(raw.length, raw.indexOf('\r\n\r\n') + 4 + Buffer.byteLength(r.text), 'one answer, then the connection ends');
  return r;
}

t.test('a request that is not well-formed HTTP/1.1 answers 400 bad_request with an Error body', async (t) => {
  const { url } = await startTestServer(t, { now: NOW });
  refusal(t, await rawExchange(url, 'GARBAGE\r\n\r\n'), 400, 'bad_request', 'the request is not well-formed HTTP/1.1');
  refusal(
    t,
    await rawExchange(url, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n'),
    400,
    'bad_request',
    'the request is not well-formed HTTP/1.1',
  );
});

t.test('header fields over the limit answer 431 header_too_large', async (t) => {
  const { url, key } = await startTestServer(t, { now: NOW });
  const raw = await rawExchange(url, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
  refusal(t, raw, 431, 'header_too_large', 'the request headers are too large');
});

t.test('a request target longer than the header limit answers 414 uri_too_long, not 431', async (t) => {
  const { url, key } = await startTestServer(t, { now: NOW });
  const raw = await rawExchange(url, `GET /v1/pets?pad=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`);
  refusal(t, raw, 414, 'uri_too_long', `the request target is longer than ${defaultLimits.maxUrlBytes} bytes`);
});

t.test('a HEAD refused by the parser is answered with the head only', async (t) => {
  const { url } = await startTestServer(t, { now: NOW });
  const raw = await rawExchange(url, 'HEAD /v1/pets HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n');
  const end = raw.indexOf('\r\n\r\n');
  t.match(raw, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.equal(raw.length, end + 4, 'nothing after the header section');
  t.equal(
    parseRawResponse(raw).headers['content-length'],
    String(Buffer.byteLength('{"code":"bad_request","message":"the request is not well-formed HTTP/1.1","status":400}')),
    'the length a GET’s body would have',
  );
  const get = await rawExchange(url, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n');
  t.ok(get.length > get.indexOf('\r\n\r\n') + 4, 'a GET’s refusal has its body');
});

t.test('a complete request pipelined before the bytes that broke the parser is answered first', async (t) => {
  const { url, key, server } = await startTestServer(t, { now: NOW });
  const pet = '{"name":"Rex","categoryId":1}';
  const raw = await rawExchange(
    url,
    `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${pet.length}\r\n\r\n${pet}GARBAGE\r\n\r\n`,
  );
  const second = raw.indexOf('HTTP/1.1 400 ');
  t.ok(second > 0, 'two answers');
  t.match(parseRawResponse(raw), { status: 201, text: '{"id":1,"name":"Rex","categoryId":1}' }, 'the POST’s answer first');
  t.match(parseRawResponse(raw.slice(second)), {
    status: 400,
    text: '{"code":"bad_request","message":"the request is not well-formed HTTP/1.1","status":400}',
  });
  t.equal(server.store.size, 1, 'the pet the 201 told of was created');
});

/** Calls answerClientError with `error` on the server side of a fresh connection; returns what the client read. */
async function answerOn(t: Test, error: NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number }): Promise<string> {
  const clock = createClock(NOW);
  const server = net.createServer((socket) => answerClientError(error, socket, clock, { ...defaultLimits }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const socket = await connect(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
  const all = readAll(socket);
  // The client closes its side once it has read the answer, as HTTP clients do after `Connection: close`.
  socket.on('end', () => socket.end());
  return all;
}

const parserError = (code: string, raw?: string): NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number } =>
  Object.assign(new Error(code), { code }, raw === undefined ? {} : { rawPacket: Buffer.from(raw, 'latin1'), bytesParsed: raw.length });

t.test('a request that did not arrive in time answers 408 request_timeout', async (t) => {
  refusal(t, await answerOn(t, parserError('ERR_HTTP_REQUEST_TIMEOUT')), 408, 'request_timeout', 'the request did not arrive in time');
});

t.test('the parser’s own URI limit answers 414; a header overflow that began after the request line is 431', async (t) => {
  refusal(t, await answerOn(t, parserError('HPE_URI_TOO_LONG')), 414, 'uri_too_long', 'the request target is too long');
  refusal(t, await answerOn(t, parserError('HPE_HEADER_OVERFLOW', 'X-Pad: aaaaaaaaaaaa')), 431, 'header_too_large', 'the request headers are too large');
  refusal(
    t,
    await answerOn(t, parserError('HPE_HEADER_OVERFLOW', 'GET /v1/pets HTTP/1.1\r\nX-Pad: aaaa')),
    431,
    'header_too_large',
    'the request headers are too large',
  );
  refusal(
    t,
    await answerOn(t, parserError('HPE_HEADER_OVERFLOW', 'GET /v1/pets?pad=aaaaaaaaaaaaaaaaaaaaaaaa')),
    414,
    'uri_too_long',
    'the request target is longer than 8192 bytes',
  );
  refusal(t, await answerOn(t, parserError('HPE_HEADER_OVERFLOW')), 431, 'header_too_large', 'the request headers are too large');
});

t.test('a connection the client reset is closed without an answer', async (t) => {
  t.equal(await answerOn(t, parserError('ECONNRESET')), '');
});
