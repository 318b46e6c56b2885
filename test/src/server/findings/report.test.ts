// Issue 26 §2: where a developer sees the findings: GET /__control/findings
// (cleared by DELETE and by a reset), startServer()'s findings() and
// assertNoFindings(), and the page at /docs. The request log line, `petstore
// serve --findings FILE` and `--fail-on-findings`, in a child process, are in
// test/cli/serve/findings.long.test.ts.
import t, { type Test } from 'tap';
import { request } from 'undici';
import { FindingsError, startServer, type StartedServer } from '../../../../src/index.js';
import { controlClient } from '../../../helpers/control.js';
import { startTestServer } from '../../../helpers/server.js';

const KEY = 'findings-control-key-5e1a';

async function get(url: string, headers: Record<string, string> = { authorization: `Bearer ${KEY}` }): Promise<number> {
  const res = await request(url, { headers });
  await res.body.text();
  return res.statusCode;
}

t.test('GET /__control/findings lists the findings as its schema says; DELETE and POST /reset clear them', async (t) => {
  const s = await startTestServer(t, { apiKeys: [KEY] });
  const control = controlClient(t, s.url, KEY);
  t.strictSame((await control('GET', '/findings')).body, [], 'none at first');
  await get(`${s.url}/pets?stauts=sold`);
  await get(`${s.url}/pets`, {});
  const listed = await control('GET', '/findings');
  t.equal(listed.status, 200);
  t.match(listed.body, [
    { code: 'unknown_query_parameter', severity: 'warning', count: 1, first: { request: 1, method: 'GET', target: '/v1/pets?stauts=sold' } },
    { code: 'unauthorized', severity: 'error', status: 401, first: { request: 2 } },
  ]);
  t.equal((await control('DELETE', '/findings')).status, 204);
  t.strictSame((await control('GET', '/findings')).body, [], 'DELETE cleared them');
  await get(`${s.url}/pets?stauts=sold`);
  t.equal((await control('POST', '/reset')).status, 200);
  t.strictSame((await control('GET', '/findings')).body, [], 'a reset cleared them');
});

t.test('the journal id of a finding is the id of its request in GET /__control/journal', async (t) => {
  const s = await startTestServer(t, { apiKeys: [KEY] });
  const control = controlClient(t, s.url, KEY);
  await get(`${s.url}/pets`);
  await get(`${s.url}/pets?limt=5`);
  const [finding] = (await control('GET', '/findings')).body as { first: { request: number } }[];
  const journal = (await control('GET', '/journal')).body as { id: number; path: string; findings?: string }[];
  const entry = journal.find((e) => e.id === finding?.first.request);
  t.match(entry, { path: '/v1/pets?limt=5', findings: 'warning /paths/~1pets/get/parameters' });
  t.strictSame(
    journal.map((e) => e.id),
    [1, 2],
  );
});

/** A started server, closed when the test ends. */
async function started(t: Test, options: Parameters<typeof startServer>[0] = {}): Promise<StartedServer> {
  const api = await startServer(options);
  t.teardown(() => api.close());
  return api;
}

t.test('startServer() returns findings() and assertNoFindings(), which throws an Error listing every finding readably', async (t) => {
  const api = await started(t);
  t.doesNotThrow(() => api.assertNoFindings(), 'nothing yet');
  await get(`${api.url}/pets?stauts=sold`, { authorization: `Bearer ${api.apiKey}` });
  await get(`${api.url}/pets`, {});
  t.match(api.findings(), [{ code: 'unknown_query_parameter' }, { code: 'unauthorized' }]);
  const error = (() => {
    try {
      api.assertNoFindings();
    } catch (e) {
      return e;
    }
    return undefined;
  })();
  t.ok(error instanceof FindingsError && error instanceof Error, 'a FindingsError, an Error');
  const message = (error as Error).message;
  t.match(message, /^the stand-in saw 2 findings in what the client sent \(1 error, 1 warning\):/);
  t.match(message, /- error unauthorized \(answered 401\): the request carries no key/);
  t.match(message, /- warning unknown_query_parameter: .*did you mean status\?/);
  t.match(
    message,
    /sent: +stauts=sold\n +expected: +limit or status; did you mean status\?\n +where: +GET \/v1\/pets\?stauts=sold, once: request 1 in the journal\n +rule: +\/paths\/~1pets\/get\/parameters in spec\/openapi.json \(seed §4.1 List animals\)/,
  );
  t.equal((error as FindingsError).findings.length, 2);
  t.equal((error as FindingsError).code, 'petstore_findings');
});

t.test('assertNoFindings({ allow }) passes over findings allowed by code, rule or predicate', async (t) => {
  const api = await started(t);
  const auth = { authorization: `Bearer ${api.apiKey}` };
  await request(`${api.url}/pets`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' }).then(
    (r) => r.body.text(),
  );
  await get(`${api.url}/pets/1`, auth);
  await get(`${api.url}/pets?stauts=sold`, auth);
  t.throws(() => api.assertNoFindings({ allow: ['deprecated_operation'] }), /unknown_query_parameter/);
  t.doesNotThrow(() => api.assertNoFindings({ allow: ['deprecated_operation', '/paths/~1pets/get/parameters'] }));
  t.doesNotThrow(() => api.assertNoFindings({ allow: [(f) => f.severity === 'warning'] }));
  await api.reset();
  t.doesNotThrow(() => api.assertNoFindings(), 'reset() clears the findings');
});

t.test('the page at /docs shows a findings panel fed by the control API; without the control API, none', async (t) => {
  const s = await startTestServer(t, { apiKeys: [KEY] });
  const origin = new URL(s.url).origin;
  const page = await request(`${origin}/docs`).then((r) => r.body.text());
  t.match(page, /<details id="petstore-findings"/);
  t.match(page, /<script src="\/docs\/findings.js"><\/script>/);
  const script = await request(`${origin}/docs/findings.js`);
  t.equal(script.statusCode, 200);
  t.match(script.headers['content-type'], /^text\/javascript/);
  const text = await script.body.text();
  t.match(text, /ask\("\/__control\/findings", k\)/, 'reads GET /__control/findings');
  t.match(text, /authSelectors/, 'with the key given to Authorize');
  t.notMatch(text, /innerHTML/, 'never as markup');
  const off = await startTestServer(t, { apiKeys: [KEY], control: false });
  const plain = await request(`${new URL(off.url).origin}/docs`).then((r) => r.body.text());
  t.notMatch(plain, /petstore-findings/);
  t.equal(await get(`${new URL(off.url).origin}/docs/findings.js`, {}), 404);
});
