// losslessFetch (src/client/lossless-fetch.ts): answers whose JSON bodies
// read every int64 digit for digit, as a generated client reads them with
// response.json(); other answers as they came.
import t from 'tap';
import { losslessFetch } from '../../../src/client/lossless-fetch.js';
import { stringifyJson } from '../../../spec/json/index.js';
import { startTestServer } from '../../helpers/server.js';

t.test('a created pet and the list read back with their int64 values exact', async (t) => {
  const { url, key } = await startTestServer(t, { ids: 'large' });
  const fetchJson = losslessFetch();
  const auth = { authorization: `Bearer ${key}` };
  const created = await fetchJson(`${url}/pets`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: stringifyJson({ name: 'Rex', categoryId: 9007199254740993n }),
  });
  t.equal(created.status, 201);
  const pet = (await created.json()) as { id: bigint; categoryId: bigint };
  t.equal(pet.categoryId, 9007199254740993n, 'categoryId digit for digit');
  t.equal(pet.id, 9007199254740993n, 'the id the server gave, beyond 2^53 (--ids large)');
  const list = (await (await fetchJson(`${url}/pets`, { headers: auth })).json()) as { id: bigint }[];
  t.same(
    list.map((p) => p.id),
    [9007199254740993n],
  );
  const plain = (await (await fetch(`${url}/pets`, { headers: auth })).json()) as { id: number }[];
  t.equal(plain[0]!.id, 9007199254740992, 'where the platform fetch rounds it');
});

t.test('small integers are bigints too, errors keep their status and body, other answers pass as they came', async (t) => {
  const { url, key } = await startTestServer(t);
  const fetchJson = losslessFetch();
  const created = await fetchJson(`${url}/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":3}',
  });
  const pet = (await created.json()) as { id: unknown; categoryId: unknown };
  t.equal(pet.id, 1n, 'every integer a bigint, small ones too: an id is one type whatever its size');
  t.equal(pet.categoryId, 3n);
  const refused = await fetchJson(`${url}/pets`);
  t.equal(refused.status, 401);
  t.match(await refused.json(), { code: 'unauthorized', status: 401n });
  const options = await fetchJson(`${url}/pets`, { method: 'OPTIONS' });
  t.equal(options.status, 204, 'an answer without a body is the one that came');
  const page = await fetchJson(`${url.replace(/\/v1$/, '')}/docs/init.js`);
  t.match(page.headers.get('content-type'), /javascript/);
  t.match(await page.text(), /SwaggerUIBundle/, 'not JSON: untouched');
});

t.test('a JSON body that is not JSON says so when read', async (t) => {
  const fake = async () => new Response('{"id":', { status: 200, headers: { 'content-type': 'application/json' } });
  const answer = await losslessFetch(fake as typeof fetch)('http://127.0.0.1:1/v1/pets');
  await t.rejects(answer.json(), /the body is not JSON/);
});
