// Seed §4.2 (createPet) and §7 (400 for a body lacking required fields or
// holding invalid values); decisions D4 (media type, body rules, 413,
// unknown properties) and D6 (no status key when none was given).
import t from 'tap';
import type { CallOptions } from '../../../helpers/api-client.js';
import { startTestServer } from '../../../helpers/server.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

t.test('createPet answers 201 with the created Pet, including its service-assigned id', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets', { json: { name: 'Rex', categoryId: 3, status: 'available' } });
  t.equal(r.status, 201);
  t.strictSame(r.body, { id: 1, name: 'Rex', categoryId: 3, status: 'available' });
  const again = await api('/pets/1');
  t.strictSame(again.body, r.body, 'getPet answers the same Pet');
});

t.test('createPet accepts each PetStatus value', async (t) => {
  const { api } = await startTestServer(t);
  for (const status of ['available', 'pending', 'sold']) {
    const r = await api('/pets', { json: { name: 'Rex', categoryId: 1, status } });
    t.equal(r.status, 201, status);
    t.equal(r.body.status, status);
  }
});

t.test('a pet created without a status has no status key at all, in 201, getPet and listPets', async (t) => {
  const { api } = await startTestServer(t);
  const created = await api('/pets', { json: { name: 'Tom', categoryId: 2 } });
  t.equal(created.status, 201);
  t.notOk('status' in created.body, '201 body');
  t.notMatch(created.text, /status/, '201 text');
  const got = await api('/pets/1');
  t.notOk('status' in got.body, 'getPet body');
  const listed = await api('/pets');
  t.notOk('status' in listed.body[0], 'listPets item');
  for (const status of ['available', 'pending', 'sold']) {
    t.strictSame((await api(`/pets?status=${status}`)).body, [], `not listed as ${status}`);
  }
});

t.test('Content-Type application/json is accepted with a UTF-8 charset and in any case', async (t) => {
  const { api } = await startTestServer(t);
  for (const type of [
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'Application/JSON',
    'application/json; charset="utf-8"',
  ]) {
    const r = await api('/pets', { body: '{"name":"Rex","categoryId":1}', headers: { 'content-type': type } });
    t.equal(r.status, 201, type);
  }
});

t.test('a body with another Content-Type, or none, answers 415 unsupported_media_type and creates nothing', async (t) => {
  const { api } = await startTestServer(t);
  const body = '{"name":"Rex","categoryId":1}';
  for (const type of [
    'text/plain',
    'application/xml',
    'application/x-www-form-urlencoded',
    'application/json-patch+json',
    'application/json; charset=latin1',
    'text/json',
  ]) {
    const r = await api('/pets', { body, headers: { 'content-type': type } });
    t.equal(r.status, 415, type);
    t.equal(r.body.code, 'unsupported_media_type', `${type}: code`);
  }
  const untyped = await api('/pets', { body });
  t.equal(untyped.status, 415, 'no Content-Type');
  t.strictSame((await api('/pets')).body, [], 'nothing was created');
});

t.test('a body in a content coding the server does not support answers 415 and creates nothing (RFC 9110 §8.4.1)', async (t) => {
  const { gzipSync } = await import('node:zlib');
  const { api } = await startTestServer(t);
  const body = gzipSync('{"name":"Rex","categoryId":1}');
  const r = await api('/pets', { body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
  t.equal(r.status, 415);
  t.equal(r.body.code, 'unsupported_media_type');
  t.match(r.body.message, /gzip/);
  const identity = await api('/pets', {
    body: '{"name":"Rex","categoryId":1}',
    headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
  });
  t.equal(identity.status, 201, 'identity is no coding at all');
  t.equal((await api('/pets')).body.length, 1, 'only the identity body created a pet');
});

t.test('createPet without a body answers 400 invalid_body', async (t) => {
  const { api } = await startTestServer(t);
  const none = await api('/pets', { method: 'POST' });
  t.equal(none.status, 400, 'no body at all');
  t.equal(none.body.code, 'invalid_body');
  const empty = await api('/pets', { body: '', headers: JSON_HEADERS });
  t.equal(empty.status, 400, 'an empty body');
  t.match(empty.body.code, /^(invalid_body|malformed_json)$/);
});

t.test('malformed JSON answers 400 malformed_json and creates nothing', async (t) => {
  const { api } = await startTestServer(t);
  const bodies = [
    '{',
    '{"name":"Rex",}',
    '{"name":"Rex" "categoryId":1}',
    "{'name':'Rex','categoryId':1}",
    '{"name":"Rex","categoryId":1} x',
    '{"name":"Rex","categoryId":01}',
    '{"name":"Rex","categoryId":NaN}',
    '{"name":"Rex\n","categoryId":1}',
    'nul',
    '   ',
  ];
  for (const body of bodies) {
    const r = await api('/pets', { body, headers: JSON_HEADERS });
    t.equal(r.status, 400, JSON.stringify(body));
    t.equal(r.body.code, 'malformed_json', `${JSON.stringify(body)}: code`);
  }
  t.strictSame((await api('/pets')).body, [], 'nothing was created');
});

t.test('a JSON body that is not an object answers 400 invalid_body', async (t) => {
  const { api } = await startTestServer(t);
  for (const body of ['[]', '[{"name":"Rex","categoryId":1}]', '"x"', '1', 'null', 'true']) {
    const r = await api('/pets', { body, headers: JSON_HEADERS });
    t.equal(r.status, 400, body);
    t.equal(r.body.code, 'invalid_body', `${body}: code`);
    t.match(r.body.message, /object/, `${body}: the message says an object is expected`);
  }
});

t.test('a body without a required field answers 400 invalid_body naming the field', async (t) => {
  const { api } = await startTestServer(t);
  for (const [json, field] of [
    [{ categoryId: 1 }, 'name'],
    [{ name: 'Rex' }, 'categoryId'],
    [{ name: 'Rex', categoryid: 1 }, 'categoryId'],
    [{}, 'name'],
  ] as const) {
    const r = await api('/pets', { json });
    t.equal(r.status, 400, JSON.stringify(json));
    t.equal(r.body.code, 'invalid_body');
    t.match(r.body.message, new RegExp(`\\b${field}\\b`), `${JSON.stringify(json)}: the message names ${field}`);
  }
  t.strictSame((await api('/pets')).body, [], 'nothing was created');
});

t.test('a field of the wrong type answers 400 invalid_body naming the field', async (t) => {
  const { api } = await startTestServer(t);
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['{"name":5,"categoryId":1}', 'name'],
    ['{"name":null,"categoryId":1}', 'name'],
    ['{"name":["Rex"],"categoryId":1}', 'name'],
    ['{"name":"Rex","categoryId":"1"}', 'categoryId'],
    ['{"name":"Rex","categoryId":1.5}', 'categoryId'],
    ['{"name":"Rex","categoryId":true}', 'categoryId'],
    ['{"name":"Rex","categoryId":null}', 'categoryId'],
    ['{"name":"Rex","categoryId":{}}', 'categoryId'],
    ['{"name":"Rex","categoryId":1e-1}', 'categoryId'],
  ];
  for (const [body, field] of cases) {
    const r = await api('/pets', { body, headers: JSON_HEADERS });
    t.equal(r.status, 400, body);
    t.equal(r.body.code, 'invalid_body', `${body}: code`);
    t.match(r.body.message, new RegExp(`\\b${field}\\b`), `${body}: the message names ${field}`);
  }
  t.strictSame((await api('/pets')).body, [], 'nothing was created');
});

t.test('a status outside PetStatus, or null, answers 400 invalid_body naming status', async (t) => {
  const { api } = await startTestServer(t);
  for (const status of ['lost', 'Available', 'AVAILABLE', '', ' available', null, 1, true, ['sold']]) {
    const r = await api('/pets', { json: { name: 'Rex', categoryId: 1, status } });
    t.equal(r.status, 400, JSON.stringify(status));
    t.equal(r.body.code, 'invalid_body');
    t.match(r.body.message, /\bstatus\b/, `${JSON.stringify(status)}: the message names status`);
  }
  t.strictSame((await api('/pets')).body, [], 'nothing was created');
});

t.test('an integer written as 1.0 or 1e2 is an integer categoryId', async (t) => {
  const { api } = await startTestServer(t);
  for (const [literal, value] of [
    ['1.0', 1],
    ['1e2', 100],
    ['-0', 0],
    ['2.50e1', 25],
  ] as const) {
    const r = await api('/pets', { body: `{"name":"Rex","categoryId":${literal}}`, headers: JSON_HEADERS });
    t.equal(r.status, 201, literal);
    t.match(r.text, new RegExp(`"categoryId":${value}[,}]`), `${literal} is stored as ${value}`);
  }
});

t.test('a body of exactly 1 MiB is accepted', async (t) => {
  const { api } = await startTestServer(t);
  const frame = '{"name":"","categoryId":1}';
  const body = frame.replace('""', `"${'x'.repeat(1024 * 1024 - frame.length)}"`);
  t.equal(Buffer.byteLength(body), 1024 * 1024);
  const r = await api('/pets', { body, headers: JSON_HEADERS });
  t.equal(r.status, 201);
  t.equal(r.body.name.length, 1024 * 1024 - frame.length);
});

t.test('a body over 1 MiB answers 413 payload_too_large and creates nothing', async (t) => {
  const { api } = await startTestServer(t);
  const frame = '{"name":"","categoryId":1}';
  const body = frame.replace('""', `"${'x'.repeat(1024 * 1024 - frame.length + 1)}"`);
  const r = await api('/pets', { body, headers: JSON_HEADERS });
  t.equal(r.status, 413);
  t.equal(r.body.code, 'payload_too_large');
  t.strictSame((await api('/pets')).body, [], 'nothing was created');
});

t.test('a chunked body over 1 MiB (no Content-Length) answers 413 too', async (t) => {
  const { api } = await startTestServer(t);
  async function* chunks() {
    for (let i = 0; i < 17; i++) yield Buffer.alloc(64 * 1024, 0x20);
  }
  // undici sends an async iterable with Transfer-Encoding: chunked.
  const r = await api('/pets', { body: chunks() as unknown as Buffer, headers: JSON_HEADERS });
  t.equal(r.status, 413);
  t.equal(r.body.code, 'payload_too_large');
});

t.test('unknown properties are ignored: neither stored nor echoed', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets', { json: { name: 'Rex', categoryId: 1, status: 'sold', id: 999, color: 'red', tags: ['a'], owner: { id: 1 } } });
  t.equal(r.status, 201);
  t.strictSame(r.body, { id: 1, name: 'Rex', categoryId: 1, status: 'sold' }, 'the 201 body');
  t.strictSame((await api('/pets/1')).body, { id: 1, name: 'Rex', categoryId: 1, status: 'sold' }, 'a later getPet');
  t.strictSame((await api('/pets')).body, [{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }], 'a later listPets');
  t.equal((await api('/pets/999')).status, 404, 'the id in the body was not used');
});

t.test('__proto__, constructor and prototype keys in a body change nothing', async (t) => {
  const { api } = await startTestServer(t);
  const bodies = [
    '{"name":"Rex","categoryId":1,"__proto__":{"status":"sold","polluted":true}}',
    '{"__proto__":{"name":"Rex","categoryId":1}}',
    '{"name":"Rex","categoryId":1,"constructor":{"prototype":{"polluted":true}}}',
    '{"name":"Rex","categoryId":1,"prototype":{"status":"sold"}}',
  ];
  const created = [];
  for (const body of bodies) {
    const r = await api('/pets', { body, headers: JSON_HEADERS });
    created.push(r.status === 201 ? r.body : r.body.code);
  }
  t.strictSame(created, [{ id: 1, name: 'Rex', categoryId: 1 }, 'invalid_body', { id: 2, name: 'Rex', categoryId: 1 }, { id: 3, name: 'Rex', categoryId: 1 }]);
  t.equal(({} as Record<string, unknown>)['polluted'], undefined, 'Object.prototype is untouched');
  t.strictSame((await api('/pets?status=sold')).body, [], 'no pet got a status from __proto__');
});

t.test('a duplicate key keeps its last value', async (t) => {
  const { api } = await startTestServer(t);
  const first = await api('/pets', { body: '{"name":"A","categoryId":1,"name":"B","categoryId":2}', headers: JSON_HEADERS });
  t.equal(first.status, 201);
  t.strictSame(first.body, { id: 1, name: 'B', categoryId: 2 });
  const fixed = await api('/pets', { body: '{"name":"A","categoryId":1,"status":"lost","status":"sold"}', headers: JSON_HEADERS });
  t.equal(fixed.status, 201, 'an invalid value overwritten by a valid one');
  t.equal(fixed.body.status, 'sold');
  const broken = await api('/pets', { body: '{"name":"A","categoryId":1,"status":"sold","status":"lost"}', headers: JSON_HEADERS });
  t.equal(broken.status, 400, 'a valid value overwritten by an invalid one');
});

t.test('a body that is not valid UTF-8 answers 400 malformed_json', async (t) => {
  const { api } = await startTestServer(t);
  const invalid: ReadonlyArray<readonly [string, number[]]> = [
    ['a lone continuation byte', [0x80]],
    ['0xff', [0xff]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['a UTF-8 encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated sequence', [0xe2, 0x82]],
  ];
  for (const [what, bytes] of invalid) {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('","categoryId":1}')]);
    const r = await api('/pets', { body, headers: JSON_HEADERS });
    t.equal(r.status, 400, what);
    t.equal(r.body.code, 'malformed_json', `${what}: code`);
  }
  t.strictSame((await api('/pets')).body, [], 'nothing was created');
});

t.test('a UTF-8 byte order mark before the body is ignored (RFC 8259 §8.1)', async (t) => {
  const { api } = await startTestServer(t);
  const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Rex","categoryId":1}')]);
  const r = await api('/pets', { body, headers: JSON_HEADERS });
  t.equal(r.status, 201);
  t.equal(r.body.name, 'Rex');
});

t.test('a body nested deeper than 32 levels or with more than 10,000 members answers 400 malformed_json', async (t) => {
  const { api } = await startTestServer(t);
  const deep = `{"name":"Rex","categoryId":1,"x":${'['.repeat(40)}${']'.repeat(40)}}`;
  const wide = `{"name":"Rex","categoryId":1,"x":[${Array(10_001).fill(0).join(',')}]}`;
  const bodies: ReadonlyArray<readonly [string, CallOptions]> = [
    ['deep', { body: deep, headers: JSON_HEADERS }],
    ['wide', { body: wide, headers: JSON_HEADERS }],
  ];
  for (const [what, options] of bodies) {
    const r = await api('/pets', options);
    t.equal(r.status, 400, what);
    t.equal(r.body.code, 'malformed_json', `${what}: code`);
  }
  const fine = `{"name":"Rex","categoryId":1,"x":${'['.repeat(30)}${']'.repeat(30)}}`;
  t.equal((await api('/pets', { body: fine, headers: JSON_HEADERS })).status, 201, 'nesting within the limit is fine');
});

t.test('a full store answers 507 storage_full and keeps the pets it has', async (t) => {
  const { api } = await startTestServer(t, { limits: { maxPets: 2 } });
  t.equal((await api('/pets', { json: { name: 'A', categoryId: 1 } })).status, 201);
  t.equal((await api('/pets', { json: { name: 'B', categoryId: 1 } })).status, 201);
  const full = await api('/pets', { json: { name: 'C', categoryId: 1 } });
  t.equal(full.status, 507);
  t.equal(full.body.code, 'storage_full');
  t.strictSame(
    (await api('/pets')).body.map((p: { name: string }) => p.name),
    ['A', 'B'],
  );
});
