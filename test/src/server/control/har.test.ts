// "What did my client send?" (src/server/control/journal.ts, har.ts): each
// journal entry keeps both sides' headers and bodies, bodies cut after
// limits.journalBodyBytes with a marker, credentials redacted and no API key
// anywhere (query, body, echo, a cut through it); GET /__control/journal.har
// exports the same as HAR 1.2, which Playwright replays as an HTTP client.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { request } from 'undici';
import { openPage } from '../../../helpers/browser.js';
import { controlClient } from '../../../helpers/control.js';
import { startTestServer } from '../../../helpers/server.js';

const KEY = 'zz-journal-secret-key-41c7';

async function start(t: Parameters<typeof startTestServer>[0], limits: { journalBodyBytes?: number } = {}) {
  const s = await startTestServer(t, { apiKeys: [KEY], limits });
  return { ...s, control: controlClient(t, s.url, KEY) };
}

/** One raw request; resolves with the status and the body read in full. */
async function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const res = await request(url, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers: init.headers ?? {}, body: init.body ?? null });
  return { status: res.statusCode, text: await res.body.text() };
}

const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };

interface Message {
  headers: Record<string, string>;
  body?: string;
  bodyBytes?: number;
}
interface Entry {
  method: string;
  path: string;
  status: number;
  request: Message;
  response?: Message;
}

t.test('an entry keeps the request headers and body and the response headers and body; Authorization is redacted', async (t) => {
  const { url, control } = await start(t);
  const body = '{"name":"Rex","categoryId":9007199254740993,"status":"sold"}';
  const created = await send(`${url}/pets`, { headers: { ...json, 'x-request-id': 'abc-1' }, body });
  await send(`${url}/pets/1`, { headers: auth });
  const refused = await send(`${url}/pets`, { headers: { authorization: 'Bearer not-the-key' } });
  const [create, get, unauthorized] = (await control('GET', '/journal')).body as Entry[];

  t.equal(create?.request.body, body, 'the body sent, digit for digit');
  t.equal(create?.request.bodyBytes, Buffer.byteLength(body));
  t.equal(create?.request.headers['content-type'], 'application/json');
  t.equal(create?.request.headers['x-request-id'], 'abc-1', 'every header the client sent');
  t.equal(create?.request.headers['authorization'], '[redacted]', 'Authorization is there, its value redacted');
  t.ok(create?.request.headers['host']?.startsWith('127.0.0.1:'), 'Host');
  t.equal(create?.response?.body, created.text, 'the answer given, as written');
  t.equal(create?.response?.headers['content-type'], 'application/json');
  t.equal(create?.response?.headers['content-length'], String(created.text.length));

  t.notOk('body' in (get?.request ?? {}), 'a request without a body has none');
  t.equal(get?.response?.headers['deprecation'], '@1735689600', "the answer's headers: getPet's Deprecation");
  t.match(get?.response?.headers['sunset'], /2030/);

  t.equal(unauthorized?.request.headers['authorization'], '[redacted]', 'a wrong key is redacted too');
  t.equal(unauthorized?.response?.body, refused.text);
  t.match(unauthorized?.response?.headers['www-authenticate'], /^Bearer realm="petstore", error="invalid_token"/);
});

t.test('a body longer than the journal keeps is cut, with a marker giving its full size', async (t) => {
  const { url, control } = await start(t, { journalBodyBytes: 40 });
  const name = 'x'.repeat(100);
  await send(`${url}/pets`, { headers: json, body: JSON.stringify({ name, categoryId: 1 }) });
  await send(`${url}/pets`, { headers: json, body: '{"name":"Tom","categoryId":1}' });
  const [long, short] = (await control('GET', '/journal')).body as Entry[];
  const sent = JSON.stringify({ name, categoryId: 1 });
  t.equal(long?.request.body, `${sent.slice(0, 40)}… [cut: ${sent.length} bytes in all]`);
  t.equal(long?.request.bodyBytes, sent.length);
  t.match(long?.response?.body, /^\{"id":1,"name":"x{24}… \[cut: 133 bytes in all\]$/, 'the answer is cut the same way');
  t.equal(short?.request.body, '{"name":"Tom","categoryId":1}', 'a body within the size is whole, with no marker');
});

t.test('the journal and its HAR never hold the API key: not from a query, a body, an echo, another header, or a cut through it', async (t) => {
  const { url, control } = await start(t, { journalBodyBytes: 30 });
  await send(`${url}/pets?api_key=${KEY}&limit=1`, { headers: auth });
  await send(`${url}/pets`, { headers: { ...json, 'x-api-key': KEY, cookie: `session=${KEY}` }, body: JSON.stringify({ name: KEY, categoryId: 1 }) });
  // The cut at 30 bytes falls inside the key: '{"name":"x","categoryId":1,"zz' + the rest.
  await send(`${url}/pets`, { headers: json, body: `{"name":"x","categoryId":1,"${KEY}":1}` });
  await send(`${url}/pets`, { headers: { authorization: `Bearer ${KEY.slice(0, -1)}` } });
  await send(`${url}/pets`, { headers: json, body: `"${KEY}"` });
  const entries = await control('GET', '/journal');
  const har = await control('GET', '/journal.har');
  t.equal((entries.body as Entry[]).length, 5);
  t.equal((entries.body as Entry[])[4]?.request.body, '"[redacted]"', 'a key in a body within the size is redacted');
  for (const [what, text] of [
    ['journal', entries.text],
    ['HAR', har.text],
  ] as const) {
    t.notMatch(text, KEY, `${what}: no key`);
    for (const part of [KEY.slice(0, 10), KEY.slice(-10)]) t.notMatch(text, part, `${what}: no part of it (${part})`);
    t.match(text, '[redacted]', `${what}: the places it was are marked`);
  }
  const [query, echoed, cut] = entries.body as Entry[];
  t.equal(query?.path, '/v1/pets?api_key=[redacted]&limit=1');
  t.equal(echoed?.request.body, '{"name":"… [cut: 52 bytes in all]', 'a key the cut went through is left out whole');
  t.equal(echoed?.request.headers['x-api-key'], '[redacted]', 'so is a key in any header');
  t.equal(echoed?.request.headers['cookie'], '[redacted]', 'and a Cookie, whatever it holds');
  t.equal(echoed?.response?.body, '{"id":1,"name":"… [cut: 59 bytes in all]', 'in an echo too');
  t.equal(cut?.request.body, '{"name":"x","categoryId":1,"… [cut: 58 bytes in all]', 'wherever it is');
});

t.test('GET /__control/journal.har is a HAR 1.2 log of the same requests', async (t) => {
  const { url, control } = await start(t);
  const body = '{"name":"Milo","categoryId":9223372036854775807}';
  await send(`${url}/pets?limit=5&status=sold`, { headers: auth });
  await send(`${url}/pets`, { headers: json, body });
  await send(`${url}/pets/1`, { headers: { ...auth, origin: 'http://app.example' } });
  const r = await control('GET', '/journal.har?limit=3');
  t.equal(r.status, 200);
  t.equal(r.headers['content-disposition'], 'attachment; filename="petstore-journal.har"');
  const { log } = r.body as { log: { version: string; creator: { name: string }; entries: Record<string, any>[] } };
  t.equal(log.version, '1.2');
  t.equal(log.creator.name, 'petstore-harness');
  t.equal(log.entries.length, 3);
  const [list, create, get] = log.entries;
  // HAR 1.2's required fields, with its types.
  for (const e of log.entries) {
    t.ok(!Number.isNaN(Date.parse(e['startedDateTime'])) && typeof e['time'] === 'number', 'startedDateTime and time');
    for (const field of ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'])
      t.ok(field in e['request'], `request.${field}`);
    for (const field of ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize']) {
      t.ok(field in e['response'], `response.${field}`);
    }
    t.ok(typeof e['response'].content.size === 'number' && typeof e['response'].content.mimeType === 'string', 'content.size and mimeType');
    t.same(Object.keys(e['timings']).sort(), ['receive', 'send', 'wait'], 'timings');
  }
  t.equal(list?.['request'].url, `${url}/pets?limit=5&status=sold`, 'an absolute URL');
  t.strictSame(list?.['request'].queryString, [
    { name: 'limit', value: '5' },
    { name: 'status', value: 'sold' },
  ]);
  t.equal(list?.['response'].statusText, 'OK');
  t.strictSame(create?.['request'].postData, { mimeType: 'application/json', text: body }, 'the body sent, int64 digits exact');
  t.match(create?.['response'].content, { mimeType: 'application/json', text: '{"id":1,"name":"Milo","categoryId":9223372036854775807}' });
  t.ok(
    get?.['request'].headers.some((h: { name: string; value: string }) => h.name === 'authorization' && h.value === '[redacted]'),
    'headers as sent, credentials redacted',
  );
  t.ok(
    get?.['response'].headers.some((h: { name: string; value: string }) => h.name === 'access-control-allow-origin'),
    "the answer's headers",
  );
});

t.test('Playwright replays the exported HAR as an HTTP client: the recorded answers come back without the server', async (t) => {
  const { url, control, server } = await start(t);
  await send(`${url}/pets`, { headers: json, body: '{"name":"Rex","categoryId":9007199254740993}' });
  await send(`${url}/pets/1`, { headers: auth });
  const file = join(t.testdir(), 'journal.har');
  writeFileSync(file, (await control('GET', '/journal.har')).text);
  await server.close(0);
  const { page } = await openPage(t);
  await page.context().routeFromHAR(file, { notFound: 'abort' });
  const replayed = await page.evaluate(`fetch('${url}/pets/1').then(async (r) => [r.status, r.headers.get('content-type'), await r.text()])`);
  t.strictSame(replayed, [200, 'application/json', '{"id":1,"name":"Rex","categoryId":9007199254740993}']);
});
