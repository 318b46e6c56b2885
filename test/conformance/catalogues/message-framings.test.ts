// The whole POST messages http.*.message writes by hand (conformance/catalogues/message-framings.ts): the framings
// RFC 9112 lets any client use (chunked §7.1, chunk extensions §7.1.1, a trailer §7.1.2), a Range field on POST that a
// server MUST ignore (RFC 9110 §14.2), and Transfer-Encoding beside Content-Length (RFC 9112 §6.3). What the check
// sends and judges is tested in test/conformance/checks/http.test.ts; this says, by RFC 9112, what each message is.
import * as http from 'node:http';
import * as net from 'node:net';
import fc from 'fast-check';
import t from 'tap';
import { chunks, head, MESSAGE_CASES } from '../../../conformance/catalogues/message-framings.js';

const PARTS = {
  host: '127.0.0.1:4010',
  path: '/v1/pets',
  authorization: 'Bearer k3y-Example_1.~',
  // Characters of one, two, three and four bytes in UTF-8: a size counted in characters would be wrong.
  body: '{"name":"Rex é € 🐈","categoryId":9223372036854775807}',
};
/** RFC 9110 §5.6.2 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

interface Parsed {
  requestLine: string;
  fields: Array<[string, string]>;
  /** The fields named `name` (case-insensitive), in order. */
  all: (name: string) => string[];
  /** The body as its framing delimits it. */
  body: Buffer;
  /** The chunk-ext of each chunk line, the last chunk's included (chunked only). */
  extensions: string[];
  /** The sizes of the data chunks (chunked only). */
  sizes: number[];
  trailers: Array<[string, string]>;
  /** Bytes after the end of the message as its framing delimits it. */
  rest: Buffer;
}

/** A field section's lines: field-name ":" OWS field-value OWS (RFC 9112 §5). */
function fieldLines(lines: string[]): Array<[string, string]> {
  return lines.map((line) => {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`not a field line: ${JSON.stringify(line)}`);
    const name = line.slice(0, colon);
    if (!TOKEN.test(name)) throw new Error(`not a field name: ${JSON.stringify(name)}`);
    return [name, line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '')];
  });
}

/** The chunked transfer coding (RFC 9112 §7.1): chunks, the last chunk, the trailer section, CRLF. */
function dechunk(bytes: Buffer): Pick<Parsed, 'body' | 'extensions' | 'sizes' | 'trailers' | 'rest'> {
  const data: Buffer[] = [];
  const extensions: string[] = [];
  const sizes: number[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error('a chunk line without its CRLF');
    const line = bytes.subarray(at, lineEnd).toString('latin1');
    const match = /^([0-9A-Fa-f]+)(.*)$/.exec(line);
    if (!match) throw new Error(`not a chunk-size: ${JSON.stringify(line)}`);
    const size = Number.parseInt(match[1]!, 16);
    extensions.push(match[2]!);
    at = lineEnd + 2;
    if (size === 0) break;
    sizes.push(size);
    data.push(bytes.subarray(at, at + size));
    if (bytes.subarray(at + size, at + size + 2).toString('latin1') !== '\r\n') throw new Error('chunk-data not followed by CRLF');
    at += size + 2;
  }
  const trailerLines: string[] = [];
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error('the trailer section does not end');
    const line = bytes.subarray(at, lineEnd).toString('latin1');
    at = lineEnd + 2;
    if (line === '') break;
    trailerLines.push(line);
  }
  return { body: Buffer.concat(data), extensions, sizes, trailers: fieldLines(trailerLines), rest: bytes.subarray(at) };
}

/** One request message read as RFC 9112 §6.3 says a server reads it: Transfer-Encoding chunked over any Content-Length. */
function parse(message: string): Parsed {
  const bytes = Buffer.from(message, 'utf8');
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error('no end to the header section');
  const [requestLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const fields = fieldLines(lines);
  const all = (name: string) => fields.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
  const after = bytes.subarray(end + 4);
  const te = all('transfer-encoding');
  if (te.length > 0) {
    if (te.join(',').split(',').at(-1)?.trim().toLowerCase() !== 'chunked') throw new Error('a request whose final coding is not chunked');
    return { requestLine, fields, all, ...dechunk(after) };
  }
  const [length] = all('content-length');
  const n = Number(length ?? 0);
  return { requestLine, fields, all, body: after.subarray(0, n), extensions: [], sizes: [], trailers: [], rest: after.subarray(n) };
}

const built = MESSAGE_CASES.map((c) => ({ ...c, message: c.build(PARTS) }));
const byLabel = (pattern: RegExp) => {
  const found = built.filter((c) => pattern.test(c.label));
  if (found.length !== 1) throw new Error(`${found.length} cases match ${pattern}`);
  return found[0]!;
};

t.test('head: each line of the section ended by CRLF, then the empty line', async (t) => {
  t.equal(head(['POST /v1/pets HTTP/1.1', 'Host: a']), 'POST /v1/pets HTTP/1.1\r\nHost: a\r\n\r\n');
  t.equal(head(['GET / HTTP/1.1']), 'GET / HTTP/1.1\r\n\r\n');
});

t.test('chunks: two chunks sized in bytes, in hexadecimal, each size followed by the extension', async (t) => {
  t.equal(chunks('{"a":1}'), '3\r\n{"a\r\n4\r\n":1}\r\n', 'split between the third and fourth characters');
  t.equal(chunks('ééé€'), '4\r\néé\r\n5\r\né€\r\n', 'sizes in bytes of UTF-8, not in characters');
  const long = `{"name":"${'x'.repeat(40)}"}`;
  t.equal(chunks(long, ';e=1'), `19;e=1\r\n${long.slice(0, 25)}\r\n1a;e=1\r\n${long.slice(25)}\r\n`, 'hexadecimal sizes (25, 26), each with the extension');
});

t.test('property: a JSON object chunked is two non-empty chunks that decode to exactly its bytes', async (t) => {
  const objects = fc.dictionary(fc.string({ unit: 'binary' }), fc.oneof(fc.string({ unit: 'binary' }), fc.integer())).map((o) => JSON.stringify(o));
  fc.assert(
    fc.property(objects, fc.constantFrom('', ';x', ';conform=1'), (body, extension) => {
      const decoded = dechunk(Buffer.from(`${chunks(body, extension)}0\r\n\r\n`, 'utf8'));
      return (
        decoded.body.equals(Buffer.from(body, 'utf8')) &&
        decoded.sizes.length === 2 &&
        decoded.sizes.every((s) => s > 0) &&
        decoded.extensions.slice(0, 2).every((e) => e === extension) &&
        decoded.rest.length === 0
      );
    }),
    { seed: 1, numRuns: 200 },
  );
  t.pass('200 JSON objects framed and read back');
});

t.test('every case is a complete HTTP/1.1 POST by its own framing: the fields given, the body whole, nothing after it', async (t) => {
  for (const c of built) {
    const m = parse(c.message);
    t.equal(m.requestLine, `POST ${PARTS.path} HTTP/1.1`, `${c.label}: the request line`);
    t.same(m.all('host'), [PARTS.host], `${c.label}: one Host, the one given (RFC 9112 §3.2)`);
    t.same(m.all('authorization'), [PARTS.authorization], `${c.label}: the credential given`);
    t.same(m.all('content-type'), ['application/json'], `${c.label}: JSON`);
    t.equal(m.body.toString('utf8'), PARTS.body, `${c.label}: the body, read by the framing a server must use (RFC 9112 §6.3)`);
    t.equal(m.rest.length, 0, `${c.label}: no byte after the message`);
  }
});

t.test('the cases are distinct, each labelled by the section it probes', async (t) => {
  t.equal(new Set(built.map((c) => c.label)).size, built.length, 'no two labels alike');
  t.equal(new Set(built.map((c) => c.message)).size, built.length, 'no two messages alike');
  for (const c of built) t.match(c.label, /\(RFC 911[02] §\d+(\.\d+)*\)$/, `${c.label}: names its section`);
  t.ok(built.length >= 5, 'chunked, extensions, trailer, Range, both framings');
});

t.test('Transfer-Encoding and Content-Length together in the one case marked conflicting, and only there (RFC 9112 §6.2, §6.3)', async (t) => {
  for (const c of built) {
    const m = parse(c.message);
    const both = m.all('transfer-encoding').length > 0 && m.all('content-length').length > 0;
    t.equal(both, c.conflicting === true, `${c.label}: ${both ? 'both framings' : 'one framing'}`);
  }
  t.equal(built.filter((c) => c.conflicting).length, 1, 'one such case');
  const conflicting = parse(byLabel(/beside a Content-Length/).message);
  t.same(conflicting.all('content-length'), ['1']);
  t.same(conflicting.all('transfer-encoding'), ['chunked']);
  // Read by its Content-Length instead, one byte is the body and the rest of the chunked coding is left on the
  // connection, to be taken for the next request: what the case is there to catch.
  const afterHead = Buffer.from(byLabel(/beside a Content-Length/).message, 'utf8');
  const leftOver = afterHead.subarray(afterHead.indexOf('\r\n\r\n') + 4 + 1);
  t.ok(leftOver.length > PARTS.body.length, `a Content-Length reader leaves ${leftOver.length} bytes behind`);
});

t.test('the chunked cases: extensions are name=value on every chunk (§7.1.1), the trailer field is the one Trailer announced (§7.1.2)', async (t) => {
  const plain = parse(byLabel(/^a chunked body \(/).message);
  t.same(plain.extensions, ['', '', ''], 'plain: no extension on any chunk line');
  t.same(plain.trailers, [], 'and no trailer');
  const extended = parse(byLabel(/chunk extensions/).message);
  t.equal(extended.extensions.length, 3, 'two data chunks and the last chunk');
  for (const ext of extended.extensions) t.match(ext, /^;[!#$%&'*+.^_`|~0-9A-Za-z-]+=[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, `${ext}: ";" name "=" value, tokens`);
  const trailed = parse(byLabel(/trailer field/).message);
  t.same(
    trailed.trailers.map(([name]) => name.toLowerCase()),
    trailed.all('trailer').map((v) => v.toLowerCase()),
    'the trailer section holds the field the Trailer field names',
  );
  t.equal(trailed.trailers.length, 1);
  for (const c of built.filter((c) => /chunk/i.test(c.label) && !c.conflicting))
    t.same(parse(c.message).all('content-length'), [], `${c.label}: no Content-Length`);
});

t.test('the Range case: a byte range on POST, a method §14.2 says a server ignores it on, with the body framed by Content-Length', async (t) => {
  const m = parse(byLabel(/Range field/).message);
  const [range] = m.all('range');
  const spec = /^bytes=(\d+)-(\d+)$/.exec(range ?? '');
  t.ok(spec && Number(spec[1]) <= Number(spec[2]), `Range: ${range} is one byte range, first to last (RFC 9110 §14.1.2)`);
  t.ok(spec && Number(spec[2]) < Buffer.byteLength(PARTS.body), 'within the body, so honouring it would change what is read');
  t.same(m.all('content-length'), [String(Buffer.byteLength(PARTS.body))], 'Content-Length is the body length in bytes');
  t.same(m.all('transfer-encoding'), []);
});

t.test('a real HTTP/1.1 parser (Node.js) reads every case but the conflicting one as the same body, and refuses that one', async (t) => {
  const got: Array<{ body: string; trailers: NodeJS.Dict<string> }> = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      got.push({ body: Buffer.concat(parts).toString('utf8'), trailers: req.trailers });
      res.writeHead(201, { connection: 'close' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as net.AddressInfo;
  const send = (message: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(message));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
  for (const c of built) {
    const before = got.length;
    const answer = await send(c.message);
    if (c.conflicting) {
      t.match(answer, /^HTTP\/1\.1 400 /, `${c.label}: refused with 400`);
      t.equal(got.length, before, 'and not handed to the application');
    } else {
      t.match(answer, /^HTTP\/1\.1 201 /, `${c.label}: answered`);
      t.equal(got.at(-1)?.body, PARTS.body, `${c.label}: the body whole`);
    }
  }
  t.equal(got.find((g) => g.trailers['conform-trailer'] !== undefined)?.trailers['conform-trailer'], '1', 'the trailer field reached the application');
});
