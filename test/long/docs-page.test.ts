// Issue 17 §3: the server's root and /docs show Swagger UI (from the
// installed swagger-ui-dist, nothing from the network) over the served
// document; a developer enters the key and sends real requests to this
// server. In headless Chromium (test/helpers/browser.ts).
import type { Page } from 'playwright-core';
import t from 'tap';
import { request } from 'undici';
import { DEVELOPMENT_API_KEY } from '../../src/server/decisions.js';
import { authorizeDocs, openPage } from '../helpers/browser.js';
import { startTestServer } from '../helpers/server.js';

const KEY = 'docs-page-key-9d2e';

t.test('the page at / and /docs lists the three operations, getPet deprecated, and loads nothing from elsewhere', async (t) => {
  const { url } = await startTestServer(t, { apiKeys: [KEY] });
  const origin = new URL(url).origin;
  for (const path of ['/', '/docs']) {
    const { page, problems, requests } = await openPage(t);
    // Offline but for this server: a request anywhere else would fail, and be among the problems.
    await page.route(
      (u) => u.origin !== origin,
      (route) => route.abort('internetdisconnected'),
    );
    await page.goto(origin + path);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const operations = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => [
        b.querySelector('.opblock-summary-method')?.textContent,
        b.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.textContent?.replace(/\u200b/g, ''),
        b.className.includes('deprecated'),
      ]),
    );
    t.strictSame(
      operations,
      [
        ['GET', '/pets', false],
        ['POST', '/pets', false],
        ['GET', '/pets/{petId}', true],
      ],
      `${path}: listPets, createPet and getPet, only getPet marked deprecated`,
    );
    t.match(await page.textContent('.info .title'), /as served by petstore-harness/, `${path}: the served document`);
    const foreign = requests.filter((r) => !r.startsWith(`${origin}/`));
    t.strictSame(foreign, [], `${path}: every request went to this server (${requests.length} requests)`);
    t.strictSame(problems, [], `${path}: nothing failed or was logged as an error`);
  }
});

t.test('try it out: listPets answers 200 with the key entered in Authorize and 401 without it', async (t) => {
  const { url, api } = await startTestServer(t, { apiKeys: [KEY] });
  await api('/pets', { json: { name: 'Rex', categoryId: 1, status: 'available' } });
  const { page, problems } = await openPage(t);
  await page.goto(`${new URL(url).origin}/docs`);
  const list = page.locator('.opblock').first();
  await list.waitFor({ timeout: 30_000 });

  // Open listPets and switch it to "Try it out" once; then each call is Execute, read, Clear.
  await list.locator('.opblock-summary').first().click();
  // The page opens operations ready to try (tryItOutEnabled); the button would otherwise say "Try it out".
  const tryOut = list.locator('button.try-out__btn');
  if ((await tryOut.textContent())?.trim() === 'Try it out') await tryOut.click();
  const execute = async () => {
    await list.locator('button.execute').click();
    const status = list.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 10_000 });
    const result = {
      status: (await status.textContent())?.trim(),
      body: await list.locator('.live-responses-table .response .response-col_description pre').first().textContent(),
    };
    await list.locator('button.btn-clear').click();
    return result;
  };

  const without = await execute();
  t.equal(without.status, '401', 'without a key: 401');
  t.match(without.body, /"code": "unauthorized"/);

  await page.locator('button.authorize').first().click();
  await page.locator('.modal-ux input[type="text"], .modal-ux input[type="password"]').first().fill(KEY);
  await page.locator('.modal-ux button.authorize').click();
  await page.locator('.modal-ux button.btn-done').click();
  const withKey = await execute();
  t.equal(withKey.status, '200', 'with the key: 200');
  t.match(withKey.body, /"name": "Rex"/, 'the pets of this server');
  await page.screenshot({ path: '/tmp/docs-try-it.png', fullPage: true });

  await page.locator('button.authorize').first().click();
  await page.locator('.modal-ux button.authorize, .modal-ux button:has-text("Logout")').first().click();
  await page.locator('.modal-ux button.btn-done, .modal-ux .close-modal').first().click();
  t.equal((await execute()).status, '401', 'after logging out: 401 again');
  t.strictSame(
    problems.filter((p) => !p.includes('401')),
    [],
    'nothing failed but the 401s asked for',
  );
});

t.test('the page and its files need no key, answer GET and HEAD only, and are not journaled', async (t) => {
  const { url, server } = await startTestServer(t, { apiKeys: [KEY] });
  const origin = new URL(url).origin;
  const root = await request(`${origin}/`);
  t.equal(root.statusCode, 302, 'the root redirects to the page');
  t.equal(root.headers['location'], '/docs');
  t.equal(await root.body.text(), '', 'with no body');
  for (const [path, type] of [
    ['/docs', 'text/html; charset=utf-8'],
    ['/docs/', 'text/html; charset=utf-8'],
    ['/docs/openapi.json', 'application/json'],
    ['/docs/swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['/docs/swagger-ui.css', 'text/css; charset=utf-8'],
  ]) {
    const r = await request(origin + path);
    await r.body.arrayBuffer();
    t.equal(r.statusCode, 200, `${path}: 200`);
    t.equal(r.headers['content-type'], type, `${path}: ${type}`);
  }
  const missing = await request(`${origin}/docs/package.json`);
  t.equal(missing.statusCode, 404, 'nothing else is served');
  t.match(await missing.body.json(), { code: 'route_not_found', status: 404 });
  const post = await request(`${origin}/docs`, { method: 'POST', body: 'x' });
  t.equal(post.statusCode, 405);
  t.equal(post.headers['allow'], 'GET, HEAD');
  await post.body.arrayBuffer();
  t.equal(server.journal.size, 0, 'the journal holds the interface only');
});

t.test('with docs: false there is no page: /, /docs and the served contract are 404', async (t) => {
  const { url } = await startTestServer(t, { docs: false });
  for (const path of ['/', '/docs', '/docs/openapi.json']) {
    const r = await request(new URL(url).origin + path);
    t.equal(r.statusCode, 404, path);
    await r.body.arrayBuffer();
  }
});

t.test('issue 26: the page shows the findings so far, once a key is given to Authorize', async (t) => {
  const { url } = await startTestServer(t, { apiKeys: [KEY] });
  const origin = new URL(url).origin;
  const { page, problems } = await openPage(t);
  await page.goto(`${origin}/docs`);
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
  const panel = page.locator('#petstore-findings');
  await t.resolves(panel.getByText('Give a key to Authorize').waitFor({ timeout: 5_000 }), 'without a key it asks for one, and asks the server nothing');
  // A client's mistake, made outside the page.
  const res = await request(`${url}/pets?stauts=sold`, { headers: { authorization: `Bearer ${KEY}` } });
  await res.body.text();
  await page.locator('button.authorize').first().click();
  await page.locator('.modal-ux input[type="text"], .modal-ux input[type="password"]').first().fill(KEY);
  await page.locator('.modal-ux button.authorize').click();
  await page.locator('.modal-ux button.btn-done').click();
  await panel.locator('.finding-warning').first().waitFor({ timeout: 10_000 });
  const text = await panel.textContent();
  t.match(text, /Findings: what clients got wrong \(0 errors, 1 warning\)/);
  t.match(text, /warning unknown_query_parameter ×1/);
  t.match(text, /sent stauts=sold/);
  t.match(text, /did you mean status\?/);
  t.match(text, /rule \/paths\/~1pets\/get\/parameters \(seed §4\.1 List animals\)/);
  t.strictSame(problems, [], 'nothing failed');
});

/** Opens the page at `origin` and waits for the reference. */
async function openDocs(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/docs`);
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
}

t.test('issue 47 §8: the key given to Authorize survives a reload, until Logout', async (t) => {
  const { url } = await startTestServer(t, { apiKeys: [KEY] });
  const origin = new URL(url).origin;
  const res = await request(`${url}/pets?stauts=sold`, { headers: { authorization: `Bearer ${KEY}` } });
  await res.body.text();
  const { page, problems } = await openPage(t);
  await openDocs(page, origin);
  const panel = page.locator('#petstore-findings');
  await panel.getByText('Give a key to Authorize').waitFor({ timeout: 5_000 });
  await authorizeDocs(page, KEY);
  await panel.locator('.finding-warning').first().waitFor({ timeout: 10_000 });

  await page.reload();
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
  await t.resolves(panel.locator('.finding-warning').first().waitFor({ timeout: 10_000 }), 'after a reload the findings are read with the key kept');
  t.equal(await page.locator('button.authorize.locked').count(), 1, 'Authorize shows the page authorized');
  t.match(await page.evaluate('localStorage.getItem("authorized")'), KEY, "kept in this origin's localStorage");

  await page.locator('button.authorize').first().click();
  await page.locator('.modal-ux button:has-text("Logout")').first().click();
  await page.locator('.modal-ux .close-modal').first().click();
  await page.reload();
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
  await t.resolves(panel.getByText('Give a key to Authorize').waitFor({ timeout: 5_000 }), 'Logout forgets it');
  t.equal(await page.locator('button.authorize.locked').count(), 0, 'the page is not authorized after Logout and a reload');
  t.strictSame(problems, [], 'nothing failed');
});

t.test('issue 47 §8: with the development key (none configured), the page comes authorized with it, under a CSP without unsafe-inline', async (t) => {
  const { url, key } = await startTestServer(t);
  t.equal(key, DEVELOPMENT_API_KEY);
  const origin = new URL(url).origin;
  const res = await request(`${url}/pets?stauts=sold`, { headers: { authorization: `Bearer ${key}` } });
  await res.body.text();
  const { page, problems } = await openPage(t);
  // Served under a CSP without 'unsafe-inline': the set-up made for this server is a file, not an inline script.
  await page.route(`${origin}/docs`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': "script-src 'self'; connect-src 'self'" } });
  });
  await openDocs(page, origin);
  const panel = page.locator('#petstore-findings');
  await t.resolves(panel.locator('.finding-warning').first().waitFor({ timeout: 10_000 }), 'the findings, without a key given to Authorize');
  t.match(await panel.textContent(), /warning unknown_query_parameter ×1/);
  t.equal(await page.locator('button.authorize.locked').count(), 1, 'Authorize shows the page authorized');
  t.strictSame(problems, [], 'nothing failed');
});

t.test("issue 47 §8: a finding's request numbers show their journal entries, or say the entry has left the journal", async (t) => {
  const { url, server } = await startTestServer(t, { apiKeys: [KEY], limits: { journalSize: 4 } });
  const origin = new URL(url).origin;
  const send = async (path: string, body?: object) => {
    const r = await request(url + path, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    await r.body.text();
  };
  // Requests 1 and 4 make the finding, 2 and 3 are clean: the journal (4 entries) keeps them all, until 5 makes it again.
  await send('/pets', { name: 'Rex', categoryId: 1, status: 'available', colour: 'red' });
  await send('/pets');
  await send('/pets');
  await send('/pets', { name: 'Tom', categoryId: 2, status: 'sold', colour: 'blue' });
  const { page, problems } = await openPage(t);
  await openDocs(page, origin);
  await authorizeDocs(page, KEY);
  const finding = page.locator('#petstore-findings .finding').first();
  await finding.waitFor({ timeout: 10_000 });
  t.match(await finding.textContent(), /unknown_body_field ×2.*\(request 1, last 4\)/s);
  const number = (id: number) => finding.locator('button.finding-request', { hasText: new RegExp(`^${id}$`) });
  const entry = finding.locator('.journal-entry');

  await number(1).click();
  await entry.locator('.journal-head').waitFor({ timeout: 10_000 });
  const text = (await entry.textContent()) ?? '';
  t.match(text, /request 1: POST \/v1\/pets → 201/, 'method, target and status');
  t.match(text, /content-type: application\/json/, 'the request headers');
  t.match(text, 'authorization: [redacted]', 'as the journal keeps them: redacted');
  t.notMatch(text, KEY, 'never the key');
  t.match(text, '"colour":"red"', 'the request body');
  t.match(text, /location: \/v1\/pets\/\d+/, 'the answer headers');
  t.match(text, /"name":\s*"Rex"/, 'the answer body');
  await page.screenshot({ path: '/tmp/docs-journal-entry.png', fullPage: true });

  // A new finding rebuilds the list: the entry shown stays under its finding.
  await send('/pets', { name: 'Max<b>', categoryId: 1, status: 'pending', colour: 'green' });
  await finding.getByText('unknown_body_field ×3').waitFor({ timeout: 10_000 });
  t.match(await entry.textContent(), 'request 1: POST', 'still shown after the list is rebuilt');
  await number(5).click();
  await entry.getByText('request 5: POST').waitFor({ timeout: 10_000 });
  t.equal(await entry.count(), 1, 'one entry at a time: the last request now');
  t.match(await entry.textContent(), '"name":"Max<b>"', 'a body is text, never markup');
  await number(5).click();
  t.equal(await entry.count(), 0, 'a second click hides it');

  t.equal(server.journal.size, 4, 'the journal keeps 4: request 1 has left it');
  await number(1).click();
  await t.resolves(
    entry.getByText('Request 1 is no longer in the journal: it keeps the latest requests only').waitFor({ timeout: 10_000 }),
    'an entry that has left the journal is said to have left it',
  );
  t.strictSame(problems, [], 'nothing failed');
});

t.test("issue 48: the proxy's page shows the upstream's findings beside the client's, each said to be whose", async (t) => {
  // An upstream that answers without Date (RFC 9110 §6.6.1): a server finding of every answer.
  const { startVariant } = await import('../../fixtures/implementations/index.mjs');
  const { startProxy } = await import('../../proxy/index.js');
  const upstream = await startVariant('no-date-header');
  t.teardown(() => upstream.close());
  const proxy = await startProxy({ upstream: upstream.url });
  t.teardown(() => proxy.close());
  const res = await request(`${proxy.url}/pets?stauts=sold`, { headers: { authorization: `Bearer ${upstream.apiKey}` } });
  await res.body.text();
  const { page, problems } = await openPage(t);
  await openDocs(page, new URL(proxy.url).origin);
  const panel = page.locator('#petstore-findings');
  await t.resolves(panel.locator('.finding-error').first().waitFor({ timeout: 10_000 }), 'the findings, with the development key');
  const text = await panel.textContent();
  t.match(text, /Findings: what clients sent and the upstream answered \(1 error, 1 warning\)/);
  t.match(text, /upstream error http\.date ×1: The upstream's answer breaks http\.date/);
  t.match(text, /answered 200: /);
  t.match(text, /warning unknown_query_parameter ×1/);
  t.strictSame(problems, [], 'nothing failed');
});
