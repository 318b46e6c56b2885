// Seed §2 (categoryId and id are int64); decision D5 (int64 values keep every
// digit). JSON.parse rounds integers beyond 2^53, so these tests compare the
// digits of the raw response text.
import t from 'tap';
import { startTestServer } from '../../../helpers/server.js';

const JSON_HEADERS = { 'content-type': 'application/json' };

const exact = ['-9223372036854775808', '9223372036854775807', '9007199254740993', '-9007199254740993', '9007199254740992', '0', '-1'];

t.test('categoryId round-trips every int64 digit for digit, through createPet, getPet and listPets', async (t) => {
  const { api } = await startTestServer(t);
  for (const digits of exact) {
    const created = await api('/pets', { body: `{"name":"Rex","categoryId":${digits}}`, headers: JSON_HEADERS });
    t.equal(created.status, 201, digits);
    t.match(created.text, new RegExp(`"categoryId":${digits}[,}]`), `${digits}: 201`);
    const got = await api(`/pets/${created.body.id}`);
    t.match(got.text, new RegExp(`"categoryId":${digits}[,}]`), `${digits}: getPet`);
  }
  const listed = await api('/pets?limit=100');
  const inList = [...listed.text.matchAll(/"categoryId":(-?\d+)/g)].map((m) => m[1]);
  t.strictSame(inList, exact, 'listPets');
});

t.test('categoryId outside int64 answers 400 invalid_body naming categoryId', async (t) => {
  const { api } = await startTestServer(t);
  for (const digits of [
    '9223372036854775808',
    '-9223372036854775809',
    '18446744073709551616',
    `1${'0'.repeat(30)}`,
    `-${'9'.repeat(400)}`,
    '9.3e18',
    '1e400',
  ]) {
    const r = await api('/pets', { body: `{"name":"Rex","categoryId":${digits}}`, headers: JSON_HEADERS });
    t.equal(r.status, 400, digits.slice(0, 30));
    t.equal(r.body.code, 'invalid_body');
    t.match(r.body.message, /\bcategoryId\b/, `${digits.slice(0, 30)}: the message names categoryId`);
  }
  t.strictSame((await api('/pets')).body, [], 'nothing was created');
});

t.test('an int64 categoryId written with an exponent or a zero fraction keeps its exact value', async (t) => {
  const { api } = await startTestServer(t);
  for (const [literal, digits] of [
    ['9223372036854775807.0', '9223372036854775807'],
    ['9.007199254740993e15', '9007199254740993'],
    ['-9.223372036854775808E18', '-9223372036854775808'],
  ] as const) {
    const r = await api('/pets', { body: `{"name":"Rex","categoryId":${literal}}`, headers: JSON_HEADERS });
    t.equal(r.status, 201, literal);
    t.match(r.text, new RegExp(`"categoryId":${digits}[,}]`), `${literal} is ${digits}`);
  }
});

t.test('petId is read as an int64: the largest int64 is a valid id (not found), beyond it is an invalid parameter', async (t) => {
  const { api } = await startTestServer(t);
  for (const id of ['9223372036854775807', '-9223372036854775808', '9007199254740993', '0', '-1', '007']) {
    const r = await api(`/pets/${id}`);
    t.equal(r.status, 404, id);
    t.equal(r.body.code, 'pet_not_found');
  }
  for (const id of ['9223372036854775808', '-9223372036854775809', `1${'0'.repeat(25)}`]) {
    const r = await api(`/pets/${id}`);
    t.equal(r.status, 400, id);
    t.equal(r.body.code, 'invalid_parameter');
    t.match(r.body.message, /petId/, `${id}: the message names petId`);
  }
});

t.test('a petId beyond int64 never wraps around onto an existing pet', async (t) => {
  // 2^64 + 1 is 1 when truncated to 64 bits; it must not find pet 1.
  const { api } = await startTestServer(t, { seed: [{ name: 'Rex', categoryId: 1n }] });
  t.equal((await api('/pets/1')).status, 200, 'pet 1 exists');
  const r = await api('/pets/18446744073709551617');
  t.equal(r.status, 400);
  t.equal(r.body.code, 'invalid_parameter');
});
