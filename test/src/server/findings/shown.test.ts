// Issue 26 §4: the key never appears in a finding, wherever a client puts it:
// a query parameter, a body field, the path, another header or scheme, a
// target cut through the key.
import t from 'tap';
import { request } from 'undici';
import { describeFindings } from '../../../../src/server/findings/index.js';
import { controlClient } from '../../../helpers/control.js';
import { startTestServer } from '../../../helpers/server.js';

const KEY = 'zz-findings-secret-key-71c3';
const OTHER = 'qq-second-configured-key-4b';

t.test('no finding shows a configured key or the start of one, whatever the client sent', async (t) => {
  const s = await startTestServer(t, { apiKeys: [KEY, OTHER] });
  const send = async (path: string, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }, body?: string) => {
    const res = await request(s.url + path, { method: body === undefined ? 'GET' : 'POST', headers, body: body ?? null });
    await res.body.text();
    return res.statusCode;
  };
  const json = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  await send(`/pets?api_key=${KEY}`);
  await send(`/pets?stauts=${OTHER}`);
  await send(`/pets?${KEY}=1`);
  await send(`/pets?limit=${KEY}`);
  await send(`/pets?status=${KEY}`);
  await send(`/pets/${KEY}`);
  await send(`/${KEY}/pets`);
  await send(`/pets?x=${'a'.repeat(180)}${KEY}`, {});
  await send(`/pets?${'b'.repeat(190)}${KEY}=1`);
  await send('/pets', json, JSON.stringify({ name: 'Rex', categoryId: 1, apiKey: KEY, [KEY]: 1 }));
  await send('/pets', json, JSON.stringify({ name: 'Rex', categoryId: KEY }));
  await send('/pets', json, JSON.stringify({ name: 'Rex', categoryId: 1, status: `${KEY}` }));
  await send('/pets', json, JSON.stringify({ name: 'Rex', categoryId: 1, token: `${'c'.repeat(40)}${KEY}` }));
  await send('/pets', json, JSON.stringify(KEY));
  await send('/pets', { authorization: `bearer ${KEY}` });
  await send('/pets', { authorization: `Bearer  ${OTHER}` });
  await send('/pets', { authorization: `Bearer ${KEY}x` });
  await send('/pets', { authorization: `${KEY}` });
  await send('/pets', { authorization: `${KEY} ${KEY}` });
  await send('/pets', { authorization: `Basic ${KEY}` });
  await send('/pets', { authorization: `Token ${KEY}` });
  await send('/pets', { 'x-api-key': KEY });
  await send('/pets', { authorization: `Bearer ${KEY}`, 'content-type': `text/${KEY}` }, '{}');
  await send('/pets', { authorization: `Bearer ${KEY}`, 'content-encoding': KEY, 'content-type': 'application/json' }, '{}');

  const findings = s.server.findings.list();
  t.ok(findings.length >= 15, `${findings.length} findings`);
  const control = controlClient(t, s.url, KEY);
  const served = (await control('GET', '/findings')).text;
  for (const [where, text] of [
    ['findings()', JSON.stringify(findings)],
    ['GET /__control/findings', served],
    ['describeFindings', describeFindings(findings)],
  ] as const) {
    for (const key of [KEY, OTHER]) {
      t.notOk(text.includes(key), `${where}: no ${key.slice(0, 2)}… key`);
      t.notOk(text.includes(key.slice(0, 8)), `${where}: not even the start of it`);
    }
  }
  t.match(served, /\[redacted\]/, 'a key sent where a value is shown reads [redacted]');
});
