// Seed §2 (NewPet.name: a string; its maximum length is "not shown", and the
// schema has no minLength): any JSON string is a name, and it comes back as sent.
import t from 'tap';
import { startTestServer } from '../../../helpers/server.js';

const names: ReadonlyArray<readonly [string, string]> = [
  ['astral-plane emoji', '🐶🦄 Rex 🐈‍⬛'],
  ['a flag (two regional indicators)', '🇳🇱'],
  ['combining marks', 'Zoe\u0308 e\u0301 n\u0303'],
  ['right-to-left text', 'قطة سعيدة'],
  ['bidirectional controls', '\u202eRex\u202c'],
  ['CJK', '小狗'],
  ['the empty string', ''],
  ['white space only', '   '],
  ['quotes and backslashes', 'Rex "the \\ dog"'],
  ['control characters', 'line\nbreak\ttab\u0000nul\u001f'],
  ['U+2028 and U+2029', 'a\u2028b\u2029c'],
  ['a noncharacter', '\uffff'],
];

t.test('any string is a name and is returned exactly as sent, by createPet, getPet and listPets', async (t) => {
  const { api } = await startTestServer(t);
  for (const [what, name] of names) {
    const created = await api('/pets', { json: { name, categoryId: 1 } });
    t.equal(created.status, 201, what);
    t.equal(created.body.name, name, `${what}: 201`);
    t.equal((await api(`/pets/${created.body.id}`)).body.name, name, `${what}: getPet`);
  }
  const listed = await api('/pets?limit=100');
  t.strictSame(
    listed.body.map((p: { name: string }) => p.name),
    names.map(([, name]) => name),
    'listPets',
  );
});

t.test('a name written with \\u escapes, surrogate pairs included, is decoded', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets', { body: '{"name":"\\ud83d\\udc36 \\u00e9\\/","categoryId":1}', headers: { 'content-type': 'application/json' } });
  t.equal(r.status, 201);
  t.equal(r.body.name, '🐶 é/');
});

t.test('a lone surrogate escape in a name is kept and returned as an escape (well-formed JSON.stringify)', async (t) => {
  const { api } = await startTestServer(t);
  const r = await api('/pets', { body: '{"name":"a\\ud800b","categoryId":1}', headers: { 'content-type': 'application/json' } });
  t.equal(r.status, 201);
  t.match(r.text, /"name":"a\\ud800b"/, 'written as \\ud800, never as invalid UTF-8');
  t.equal(r.body.name, 'a\ud800b');
});

t.test('a long name is kept whole', async (t) => {
  const { api } = await startTestServer(t);
  const name = '🐕'.repeat(100_000);
  const r = await api('/pets', { json: { name, categoryId: 1 } });
  t.equal(r.status, 201);
  t.equal((await api('/pets/1')).body.name, name);
});
