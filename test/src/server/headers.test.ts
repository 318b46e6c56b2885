// Header fields (src/server/headers.ts): answers are written as a raw list of
// name, value pairs with lower-case names; `Connection: close` in such a list
// ends the connection, and a request has a body when its framing says so (RFC 9112 §6.3).
import type { IncomingMessage } from 'node:http';
import t from 'tap';
import { CLOSE, hasBody, saysClose } from '../../../src/server/headers.js';

const request = (headers: IncomingMessage['headers']) => ({ headers }) as IncomingMessage;

t.test('CLOSE is the field Connection: close, in the raw list form', async (t) => {
  t.strictSame(CLOSE, ['connection', 'close']);
  t.equal(saysClose(CLOSE), true);
});

t.test('a list asks to close when a name is connection and its value close', async (t) => {
  t.equal(saysClose(['content-type', 'application/json', 'connection', 'close']), true, 'after other fields');
  t.equal(saysClose(['connection', 'close', 'retry-after', '1']), true, 'before other fields');
  t.equal(saysClose(['connection', 'keep-alive']), false, 'another value');
  t.equal(saysClose(['x-note', 'connection', 'close', 'x']), false, 'a value that reads "connection" is no name');
  t.equal(saysClose(['retry-after', 1]), false);
  t.equal(saysClose([]), false);
  t.equal(saysClose(undefined), false, 'no extra fields at all');
});

t.test('a request has a body when it is chunked or its Content-Length is above zero', async (t) => {
  t.equal(hasBody(request({ 'transfer-encoding': 'chunked' })), true);
  t.equal(hasBody(request({ 'transfer-encoding': 'chunked', 'content-length': '0' })), true, 'Transfer-Encoding wins');
  t.equal(hasBody(request({ 'content-length': '5' })), true);
  t.equal(hasBody(request({ 'content-length': '0' })), false, 'Content-Length: 0 is no body');
  t.equal(hasBody(request({})), false, 'no framing field: no body');
  t.equal(hasBody(request({ 'content-type': 'application/json' })), false, 'a media type alone is no body');
});
