// What an answer's bytes say (conformance/response-body.ts): the content codings
// of Content-Encoding undone in reverse order of application (RFC 9110 §8.4),
// then the bytes read as UTF-8 JSON (RFC 8259 §8.1); whatever stands in the way
// (an unknown or broken coding, a BOM, repeated names) is recorded, never thrown.
import * as zlib from 'node:zlib';
import t from 'tap';
import { readBody } from '../../conformance/response-body.js';

const MAX = 1 << 20;
const PET = '{"id":9007199254740993,"name":"Rex"}';
const bytes = Buffer.from(PET);
/** A parsed object has no prototype: its members, to compare. */
const members = (json: unknown) => ({ ...(json as object) });

t.test('a body without a coding is read as it came, integers losslessly', async (t) => {
  const read = readBody(bytes, undefined, MAX);
  t.equal(read.text, PET);
  t.strictSame(members(read.json), { id: 9007199254740993n, name: 'Rex' });
  t.notOk('coding' in read);
  t.notOk('parseError' in read);
  t.notOk('bom' in read);
  t.notOk('duplicateKeys' in read);
  t.notOk('coding' in readBody(bytes, 'identity', MAX), 'identity is no coding');
});

t.test('each registered coding this reader knows is undone, its name as Content-Encoding gave it', async (t) => {
  const cases: [string, Buffer][] = [
    ['gzip', zlib.gzipSync(bytes)],
    ['x-gzip', zlib.gzipSync(bytes)],
    ['deflate', zlib.deflateSync(bytes)],
    ['br', zlib.brotliCompressSync(bytes)],
  ];
  for (const [coding, body] of cases) {
    const read = readBody(body, coding, MAX);
    t.equal(read.coding, coding, coding);
    t.equal(read.text, PET, `${coding}: the text`);
    t.strictSame(members(read.json), { id: 9007199254740993n, name: 'Rex' }, `${coding}: the value`);
  }
  const raw = readBody(zlib.deflateRawSync(bytes), 'deflate', MAX);
  t.equal(raw.text, PET, 'raw deflate under the name deflate is read too, as browsers read it');
  t.equal(readBody(zlib.gzipSync(bytes), ' GZip ', MAX).coding, 'gzip', 'coding names are case-insensitive');
});

t.test('codings are undone last applied first (RFC 9110 §8.4)', async (t) => {
  const body = zlib.brotliCompressSync(zlib.gzipSync(bytes));
  const read = readBody(body, 'gzip, br', MAX);
  t.equal(read.coding, 'gzip, br');
  t.equal(read.text, PET);
  const wrong = readBody(body, 'br, gzip', MAX);
  t.match(wrong.undecodable, /^the body does not decode as gzip: /, 'the other order does not decode');
  t.equal(readBody(zlib.gzipSync(bytes), 'identity, gzip', MAX).text, PET, 'identity among them changes nothing');
});

t.test('a body that does not decode as its coding says is recorded, and read from the bytes as they came', async (t) => {
  const read = readBody(bytes, 'gzip', MAX);
  t.match(read.undecodable, /^the body does not decode as gzip: /);
  t.notOk('coding' in read);
  t.equal(read.text, PET);
  t.strictSame(members(read.json), { id: 9007199254740993n, name: 'Rex' });
});

t.test('decoding stops at the most bytes allowed', async (t) => {
  const big = zlib.gzipSync(Buffer.alloc(10_000, 0x20));
  t.match(readBody(big, 'gzip', 1000).undecodable, /^the body does not decode as gzip: /);
  t.equal(readBody(big, 'gzip', 20_000).text.length, 10_000);
});

t.test('an unknown coding is no registered one; a registered one this reader cannot undo leaves the body unjudged', async (t) => {
  const unknown = readBody(bytes, 'snappy', MAX);
  t.equal(unknown.undecodable, '"snappy" is not a registered content coding (RFC 9110 §8.4.1, §16.6.1)');
  t.notOk('unsupportedCoding' in unknown);
  for (const coding of ['compress', 'x-compress', 'aes128gcm', 'dcb']) {
    const read = readBody(bytes, coding, MAX);
    t.equal(read.unsupportedCoding, coding, coding);
    t.notOk('undecodable' in read, `${coding}: not a failure to decode`);
  }
  const zstdCompress = (zlib as unknown as { zstdCompressSync?: (b: Buffer) => Buffer }).zstdCompressSync;
  if (zstdCompress) t.equal(readBody(zstdCompress(bytes), 'zstd', MAX).text, PET, 'zstd is undone where Node.js can');
  else t.equal(readBody(bytes, 'zstd', MAX).unsupportedCoding, 'zstd', 'zstd before Node 22.15 is left unjudged');
});

t.test('an empty body is not decoded and holds no JSON, without a parse error', async (t) => {
  const read = readBody(Buffer.alloc(0), 'gzip', MAX);
  t.strictSame({ ...read }, { text: '', json: undefined });
});

t.test('what is not JSON has a parse error; bytes that are not UTF-8 are replaced in the text', async (t) => {
  const text = readBody(Buffer.from('<h1>Not Found</h1>'), undefined, MAX);
  t.equal(text.json, undefined);
  t.type(text.parseError, 'string');
  const latin1 = readBody(Buffer.from([0x22, 0xe9, 0x22]), undefined, MAX);
  t.equal(latin1.text, '"\ufffd"');
  t.equal(latin1.json, undefined);
  t.match(latin1.parseError, /UTF-8/);
});

t.test('a byte order mark is recorded (RFC 8259 §8.1: a sender MUST NOT add one)', async (t) => {
  const read = readBody(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]), undefined, MAX);
  t.equal(read.bom, true);
  t.equal(read.text, `\ufeff${PET}`, 'the text keeps it');
});

t.test('names repeated within an object are recorded in order, with whether the values were the same (RFC 8259 §4)', async (t) => {
  const read = readBody(Buffer.from('{"a":1,"a":1,"b":{"c":1,"c":2},"d":[{"e":{"x":1},"e":{"x":1}}]}'), undefined, MAX);
  t.strictSame(read.duplicateKeys, [
    { name: 'a', sameValue: true },
    { name: 'c', sameValue: false },
    { name: 'e', sameValue: true },
  ]);
  t.notOk('duplicateKeys' in readBody(Buffer.from('{"a":1,"a":2'), undefined, MAX), 'not for a body that does not parse');
  t.notOk('duplicateKeys' in readBody(Buffer.from('{"a":1,"b":{"a":2}}'), undefined, MAX), 'the same name in two objects is no repeat');
});
