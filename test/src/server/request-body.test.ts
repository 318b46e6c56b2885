// Request bodies (§4.2; RFC 9110 §8.3, §8.4.1; RFC 8259): application/json
// only, in UTF-8, without a content coding, within the size limit, parsed
// whole. The reader on its own, with a stream for the request.
import { PassThrough } from 'node:stream';
import t from 'tap';
import { isJsonContentType, readJsonBody } from '../../../src/server/request-body.js';
import type { Exchange, Responder } from '../../../src/server/respond.js';

t.test('a JSON content type is application/json in any case, with no charset but UTF-8', async (t) => {
  for (const type of [
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
    ' application/json ; charset = utf-8 ',
    'application/json; foo=bar',
  ]) {
    t.ok(isJsonContentType(type), type);
  }
  for (const type of [
    undefined,
    '',
    'text/plain',
    'application/json-patch+json',
    'application/jsonx',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json; charset', // a parameter without a value
    'application/json; charset=utf"-8', // a quote only at the ends is taken off
    'json',
  ]) {
    t.notOk(isJsonContentType(type), String(type));
  }
});

interface Answer {
  code?: string;
  message?: string;
  close?: boolean;
  value?: unknown;
  failed?: unknown;
  requestBody?: string;
}

/** Sends `chunks` as the body of a request with `headers`, and resolves to how it was answered. */
function read(headers: Record<string, string>, chunks: readonly string[], maxBytes = 16, then?: (value: unknown) => void): Promise<Answer> {
  return new Promise((resolve) => {
    const req = Object.assign(new PassThrough(), { headers });
    const x = { req } as unknown as Exchange;
    const respond = {
      sendError: (_x: Exchange, code: string, message: string, extra?: unknown) =>
        resolve({ code, message, close: extra !== undefined, requestBody: x.requestBody?.toString() }),
      fail: (_x: Exchange, error: unknown) => resolve({ failed: error }),
    } as unknown as Responder;
    readJsonBody(x, respond, { maxBytes, parse: { maxDepth: 8, maxMembers: 100 }, expected: 'a NewPet as JSON' }, (value) => {
      then?.(value);
      resolve({ value, requestBody: x.requestBody?.toString() });
    });
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const JSON_TYPE = { 'content-type': 'application/json' };
const sized = (text: string, extra: Record<string, string> = {}) => ({ ...JSON_TYPE, 'content-length': String(Buffer.byteLength(text)), ...extra });

t.test('a JSON body is parsed whole, however it is split, and kept for the journal', async (t) => {
  t.same(await read(sized('{"a":1}'), ['{"a":1}']), { value: { a: 1n }, requestBody: '{"a":1}' });
  t.same(await read(sized('{"a":[1,2]}'), ['{"a"', ':[1,', '2]}']), { value: { a: [1n, 2n] }, requestBody: '{"a":[1,2]}' });
  t.same(await read({ ...JSON_TYPE, 'transfer-encoding': 'chunked' }, ['[', 'true', ']']), { value: [true], requestBody: '[true]' });
});

t.test('no body is refused as invalid_body, naming what is expected', async (t) => {
  t.same(await read(JSON_TYPE, []), { code: 'invalid_body', message: 'a request body is required: a NewPet as JSON', close: false, requestBody: undefined });
  t.same((await read({ ...JSON_TYPE, 'content-length': '0' }, [])).code, 'invalid_body');
});

t.test('another media type, or none, is refused as unsupported_media_type', async (t) => {
  t.same(await read({ 'content-type': 'text/plain', 'content-length': '2' }, ['{}']), {
    code: 'unsupported_media_type',
    message: 'the body must be sent as application/json, not text/plain',
    close: false,
    requestBody: undefined,
  });
  t.same((await read({ 'content-length': '2' }, ['{}'])).message, 'the body must be sent as application/json, not without a Content-Type');
});

t.test('a content coding other than identity is refused as unsupported_media_type (RFC 9110 §8.4.1)', async (t) => {
  t.same(await read(sized('{}', { 'content-encoding': ' GZip ' }), ['{}']), {
    code: 'unsupported_media_type',
    message: 'Content-Encoding gzip is not supported: send the JSON as it is',
    close: false,
    requestBody: undefined,
  });
  t.same((await read(sized('{}', { 'content-encoding': 'identity' }), ['{}'])).value, {}, 'identity is no coding');
  t.same((await read(sized('{}', { 'content-encoding': ' Identity ' }), ['{}'])).value, {}, 'in any case');
  t.same((await read(sized('{}', { 'content-encoding': '' }), ['{}'])).value, {}, 'an empty field names no coding');
});

t.test('a body over the limit is refused as payload_too_large and the connection closed, declared or not', async (t) => {
  const big = '"0123456789abcdef"'; // 18 bytes, over 16
  t.same(await read(sized(big), [big]), { code: 'payload_too_large', message: 'the body is larger than 16 bytes', close: true, requestBody: undefined });
  t.same((await read({ ...JSON_TYPE, 'transfer-encoding': 'chunked' }, ['"0123456', '789abcdef"'])).code, 'payload_too_large', 'counted as it arrives');
  t.same((await read({ ...JSON_TYPE, 'content-length': '17' }, ['1'])).code, 'payload_too_large', 'a declared length over the limit, before reading');
  const exact = '"0123456789abcd"'; // 16 bytes
  t.same((await read(sized(exact), [exact])).value, '0123456789abcd', 'exactly the limit is accepted');
  t.same((await read({ ...JSON_TYPE, 'transfer-encoding': 'chunked' }, ['"01234567', '89abcd"'])).value, '0123456789abcd', 'in chunks too');
  t.same((await read({ ...JSON_TYPE, 'content-length': '16' }, ['1'])).value, 1n, 'a declared length at the limit is read');
});

t.test('a body that is not JSON is refused as malformed_json, and kept for the journal', async (t) => {
  const answer = await read(sized('{"a":'), ['{"a":']);
  t.equal(answer.code, 'malformed_json');
  t.equal(answer.requestBody, '{"a":');
  t.equal(answer.close, false);
});

t.test('what the handler throws is answered as a failure, not left to crash the process', async (t) => {
  const boom = new Error('boom');
  t.same(
    await read(sized('1'), ['1'], 16, () => {
      throw boom;
    }),
    { failed: boom },
  );
});

t.test('a body over the limit is answered once, however much more arrives', async (t) => {
  const answers: string[] = [];
  const req = Object.assign(new PassThrough(), { headers: { ...JSON_TYPE, 'transfer-encoding': 'chunked' } });
  const x = { req } as unknown as Exchange;
  const respond = {
    sendError: (_x: Exchange, code: string) => answers.push(code),
    fail: () => answers.push('fail'),
  } as unknown as Responder;
  readJsonBody(x, respond, { maxBytes: 4, parse: { maxDepth: 8, maxMembers: 100 }, expected: 'JSON' }, () => answers.push('value'));
  for (const chunk of ['"abc', 'defgh', 'ijk', 'lmn"']) req.write(chunk);
  req.end();
  req.resume();
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.same(answers, ['payload_too_large']);
});
