// Parsing that cannot be tricked (decisions D3, D10), end to end through the
// server: only what test/json (the parser alone) and test/server (the usual
// bodies) leave out. Every case has one documented answer.
import t from 'tap';
import { request as undiciRequest } from 'undici';
import { startTestServer } from '../helpers/server.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

t.test('number literals as categoryId: each has one documented answer, the value exact', async (t) => {
  const { api, server } = await startTestServer(t);
  // [literal, the stored categoryId, or the error code]
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['-0', '0'],
    ['-0.0', '0'],
    ['0e999999999', '0'],
    ['100e-2', '1'],
    ['1E+2', '100'],
    ['9223372036854775807e0', '9223372036854775807'],
    ['922337203685477580.7e1', '9223372036854775807'],
    ['-92233720368547758080e-1', '-9223372036854775808'],
    ['1e0000001', '10'], // the exponent's leading zeros do not hide its digits
    ['7e-0000001', 'invalid_body'], // 0.7, not 7
    ['1e-400', 'invalid_body'], // a fraction, however small: not an integer
    ['1e99999999999999999999', 'invalid_body'], // an exponent too long to read is still outside int64
    ['-1e400', 'invalid_body'],
    ['9223372036854775807.5', 'invalid_body'],
    ['-01', 'malformed_json'],
    ['1.', 'malformed_json'],
    ['.5', 'malformed_json'],
    ['+1', 'malformed_json'],
    ['0x10', 'malformed_json'],
    ['Infinity', 'malformed_json'],
    ['1_000', 'malformed_json'],
  ];
  let created = 0;
  for (const [literal, expected] of cases) {
    const r = await api('/pets', { body: `{"name":"N","categoryId":${literal}}`, headers: JSON_HEADERS });
    if (/^-?\d+$/.test(expected)) {
      created++;
      t.equal(r.status, 201, `${literal}: 201`);
      t.match(r.text, new RegExp(`"categoryId":${expected}}$`), `${literal}: stored as ${expected}`);
    } else {
      t.equal(r.status, 400, `${literal}: 400`);
      t.equal(r.body.code, expected, `${literal}: ${expected}`);
    }
  }
  t.equal(server.store.size, created, 'only the accepted ones were created');
});

t.test('keys are compared after unescaping: "n\\u0061me" is name, "\\u005f\\u005fproto__" is __proto__, and the last duplicate wins', async (t) => {
  const { api } = await startTestServer(t);
  const escaped = await api('/pets', { body: '{"n\\u0061me":"Esc","c\\u0061tegoryId":1}', headers: JSON_HEADERS });
  t.equal(escaped.status, 201);
  t.strictSame(escaped.body, { id: 1, name: 'Esc', categoryId: 1 });
  const mixed = await api('/pets', { body: '{"name":"A","n\\u0061me":"B","categoryId":1}', headers: JSON_HEADERS });
  t.strictSame(mixed.body, { id: 2, name: 'B', categoryId: 1 }, 'a duplicate written with an escape still keeps the last value');
  const proto = await api('/pets', { body: '{"\\u005f\\u005fproto__":{"status":"sold"},"name":"P","categoryId":1}', headers: JSON_HEADERS });
  t.strictSame(proto.body, { id: 3, name: 'P', categoryId: 1 }, 'an escaped __proto__ is an ignored key too');
  const nul = await api('/pets', { body: '{"name":"a\\u0000b","categoryId":1,"name\\u0000":"x"}', headers: JSON_HEADERS });
  t.equal(nul.status, 201, 'NUL in a name and in a key');
  t.equal(nul.text, '{"id":4,"name":"a\\u0000b","categoryId":1}', 'the name keeps its NUL, escaped; "name\\u0000" is another key');
  t.equal(({} as Record<string, unknown>)['status'], undefined, 'Object.prototype is untouched');
});

t.test('byte order marks and white space: only one leading UTF-8 BOM and JSON white space are allowed', async (t) => {
  const { api, server } = await startTestServer(t);
  const pet = Buffer.from('{"name":"Rex","categoryId":1}');
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const cases: ReadonlyArray<readonly [string, Buffer, number]> = [
    ['JSON white space around the value', Buffer.concat([Buffer.from(' \t\r\n'), pet, Buffer.from('\n\t ')]), 201],
    ['a BOM then white space', Buffer.concat([bom, Buffer.from('  '), pet]), 201],
    ['two BOMs', Buffer.concat([bom, bom, pet]), 400],
    ['white space then a BOM', Buffer.concat([Buffer.from(' '), bom, pet]), 400],
    ['a BOM at the end', Buffer.concat([pet, bom]), 400],
    ['a UTF-16 BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), pet]), 400],
    ['UTF-16LE text', Buffer.from('\ufeff{"name":"Rex","categoryId":1}', 'utf16le'), 400],
    ['a no-break space (not JSON white space)', Buffer.concat([Buffer.from('\u00a0'), pet]), 400],
    ['a vertical tab', Buffer.concat([Buffer.from('\v'), pet]), 400],
    ['invalid UTF-8 in a key', Buffer.concat([Buffer.from('{"na'), Buffer.from([0xff]), Buffer.from('me":"Rex","name":"Rex","categoryId":1}')]), 400],
  ];
  let created = 0;
  for (const [what, body, status] of cases) {
    const r = await api('/pets', { body, headers: JSON_HEADERS });
    t.equal(r.status, status, `${what}: ${status}`);
    if (status === 201) created++;
    else t.equal(r.body.code, 'malformed_json', `${what}: malformed_json`);
  }
  t.equal(server.store.size, created);
});

t.test('__proto__, constructor and prototype in the query or the path change nothing', async (t) => {
  const { api } = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n, status: 'sold' }] });
  const ignored = await api('/pets?__proto__=1&constructor=x&prototype=y&hasOwnProperty=1&toString=2&__proto__[limit]=0');
  t.equal(ignored.status, 200, 'unknown parameters with such names are ignored');
  t.equal(ignored.body.length, 1);
  for (const query of ['limit=__proto__', 'limit=constructor', 'status=__proto__', 'status=constructor', 'status=toString', 'status=hasOwnProperty']) {
    const r = await api(`/pets?${query}`);
    t.equal(r.status, 400, query);
    t.equal(r.body.code, 'invalid_parameter', `${query}: invalid_parameter`);
  }
  for (const id of ['__proto__', 'constructor', 'prototype', 'toString']) {
    const r = await api(`/pets/${id}`);
    t.equal(r.status, 400, `/pets/${id}`);
    t.equal(r.body.code, 'invalid_parameter', `/pets/${id}: invalid_parameter`);
  }
  t.equal(({} as Record<string, unknown>)['limit'], undefined, 'Object.prototype is untouched');
});

t.test('petId and limit as text: only plain decimal integers, read exactly', async (t) => {
  const { api } = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n }] });
  const cases: ReadonlyArray<readonly [string, number]> = [
    ['/pets/-0', 404], // zero is an int64; no pet has it
    ['/pets/0000000000000000000000000001', 200], // leading zeros, any number of them
    ['/pets/1.0', 400],
    ['/pets/1e0', 400],
    ['/pets/+1', 400],
    ['/pets/%2B1', 400],
    ['/pets/%201', 400],
    ['/pets/1%00', 400],
    ['/pets/%E2%91%A0', 400], // ① is not a digit
    ['/pets/%D9%A1', 400], // nor is Arabic-Indic one
    ['/pets/-9223372036854775809', 400],
    ['/pets?limit=-0', 400], // the value 0, outside 1..100
    ['/pets?limit=%E2%91%A0', 400],
  ];
  for (const [path, status] of cases) t.equal((await api(path)).status, status, `${path}: ${status}`);
});

t.test('header values that are not ASCII are refused or ignored, never misread', async (t) => {
  const { url, key } = await startTestServer(t);
  const net = await import('node:net');
  const { host, pathname, port } = new URL(url);
  const send = (auth: Buffer) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.end(Buffer.concat([Buffer.from(`GET ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: `), auth, Buffer.from('\r\n\r\n')]));
      });
      let data = '';
      socket.on('data', (c: Buffer) => (data += c.toString('latin1')));
      socket.on('close', () => resolve(data));
    });
  t.match(await send(Buffer.from(`Bearer ${key}`)), /^HTTP\/1\.1 200 /, 'the key itself');
  t.match(await send(Buffer.concat([Buffer.from(`Bearer ${key}`), Buffer.from([0xff])])), /^HTTP\/1\.1 401 /, 'the key and a byte 0xff');
  t.match(await send(Buffer.from(`Bearer ${key}é`, 'utf8')), /^HTTP\/1\.1 401 /, 'the key and a UTF-8 é');
  t.match(await send(Buffer.from(`Bearer ${key}`, 'utf16le')), /^HTTP\/1\.1 (400|401) /, 'the key in UTF-16');
  const res = await undiciRequest(`${url}/pets`, { headers: { authorization: `Bearer ${key}` } });
  await res.body.text();
  t.equal(res.statusCode, 200, 'the server keeps serving');
});
