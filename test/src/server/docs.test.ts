// The page to read and try the API (src/server/docs.ts): Swagger UI from
// swagger-ui-dist's own files (no CDN), over the served document, at /docs,
// where the root redirects; no key needed, GET and HEAD only, nothing else served.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { operations } from '../../../spec/operations.js';
import { createClock } from '../../../src/server/clock.js';
import { DEVELOPMENT_API_KEY } from '../../../src/server/decisions.js';
import { createDocsHandler, DOCS_PREFIX, isDocsTarget } from '../../../src/server/docs.js';
import { FINDINGS_JS, initScript } from '../../../src/server/docs-scripts.js';
import { createResponder } from '../../../src/server/respond.js';
import { servedDocument } from '../../../src/server/served-spec.js';
import { startTestServer } from '../../helpers/server.js';

const SWAGGER_UI = (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();

/** A server on 127.0.0.1 that answers every request with the docs handler alone; its origin. */
async function startDocs(t: Test, basePath: string, options: { findings?: boolean; developmentKey?: string } = {}): Promise<string> {
  const docs = createDocsHandler(operations, basePath, createResponder(createClock()), options);
  const server = createServer((req, res) => docs({ req, res, headers: undefined, arrived: 0, toControl: false, seq: 0 }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

async function get(url: string, method: 'GET' | 'HEAD' | 'POST' | 'DELETE' = 'GET') {
  const res = await request(url, { method });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, text: body.toString('utf8') };
}

t.test('the page is the root and /docs, and nothing else', async (t) => {
  t.equal(DOCS_PREFIX, '/docs');
  for (const url of ['/', '/?utm=x', '/docs', '/docs/', '/docs?x=1', '/docs/swagger-ui.css', '/docs/openapi.json']) t.equal(isDocsTarget(url), true, url);
  for (const url of ['/v1/pets', '/docsx', '/doc', '/d', '/documents', '/docs.json', '/__control/state', '//docs', '']) t.equal(isDocsTarget(url), false, url);
  t.equal(isDocsTarget(undefined), false, 'no target');
});

t.test('the root redirects a browser to /docs, with no body', async (t) => {
  const origin = await startDocs(t, '/v1');
  for (const path of ['/', '/?from=bookmark']) {
    const r = await get(origin + path);
    t.equal(r.status, 302, path);
    t.equal(r.headers['location'], '/docs', `${path}: to the page`);
    t.equal(r.body.length, 0, `${path}: no body`);
  }
});

t.test('/docs is an HTML page loading Swagger UI from this server only, its set-up from a file (no inline script)', async (t) => {
  const origin = await startDocs(t, '/v1');
  for (const path of ['/docs', '/docs/', '/docs?x=1']) {
    const r = await get(origin + path);
    t.equal(r.status, 200, path);
    t.equal(r.headers['content-type'], 'text/html; charset=utf-8', path);
    t.equal(r.headers['cache-control'], 'no-cache', path);
  }
  const page = (await get(`${origin}/docs`)).text;
  t.match(page, /^<!doctype html>/);
  t.match(page, '<link rel="stylesheet" href="/docs/swagger-ui.css">');
  t.match(page, '<script src="/docs/swagger-ui-bundle.js"></script>');
  t.match(page, '<script src="/docs/init.js"></script>');
  t.match(page, '<div id="swagger-ui"></div>');
  t.strictSame(page.match(/<script(?![^>]*\ssrc=)[^>]*>/g), null, 'every script is a file: the page runs under a CSP without unsafe-inline');
  t.strictSame(page.match(/(?:src|href)="(?!\/docs\/)[^"]*"/g), null, 'every file comes from /docs on this server (it works offline)');
});

t.test("the set-up shows the served document, and does not send it to the internet's validator", async (t) => {
  const origin = await startDocs(t, '/v1');
  const r = await get(`${origin}/docs/init.js`);
  t.equal(r.status, 200);
  t.equal(r.headers['content-type'], 'text/javascript; charset=utf-8');
  t.equal(r.text, initScript({ specUrl: '/docs/openapi.json' }), "docs-scripts.ts's set-up, given no key");
  t.notMatch(r.text, 'preauthorizeApiKey');
});

t.test("given the development key, the set-up authorizes the page with it, for the document's security scheme", async (t) => {
  const origin = await startDocs(t, '/v1', { developmentKey: 'petstore-dev-key' });
  const r = await get(`${origin}/docs/init.js`);
  t.equal(r.status, 200);
  t.equal(r.text, initScript({ specUrl: '/docs/openapi.json', developmentKey: { scheme: 'bearerAuth', key: 'petstore-dev-key' } }));
  const schemes = Object.keys((servedDocument(operations, '/v1') as { components: { securitySchemes: object } }).components.securitySchemes);
  t.strictSame(schemes, ['bearerAuth'], 'the scheme Authorize takes the key for');
});

t.test('/docs/openapi.json is the served document for the base path, as JSON', async (t) => {
  const origin = await startDocs(t, '/api/v1');
  const r = await get(`${origin}/docs/openapi.json`);
  t.equal(r.status, 200);
  t.equal(r.headers['content-type'], 'application/json');
  const doc = JSON.parse(r.text);
  t.strictSame(doc, JSON.parse(JSON.stringify(servedDocument(operations, '/api/v1'))));
  t.strictSame(doc.servers, [{ url: '/api/v1', description: 'this server' }], 'Try it out sends to this server, under its base path');
});

t.test("Swagger UI's files are served as swagger-ui-dist has them, with their media types", async (t) => {
  const origin = await startDocs(t, '/v1');
  const files = [
    ['swagger-ui.css', 'text/css; charset=utf-8'],
    ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
    ['favicon-32x32.png', 'image/png'],
  ] as const;
  for (const [name, type] of files) {
    const r = await get(`${origin}/docs/${name}`);
    t.equal(r.status, 200, name);
    t.equal(r.headers['content-type'], type, `${name}: its media type`);
    t.ok(r.body.equals(readFileSync(join(SWAGGER_UI, name))), `${name}: the bytes of swagger-ui-dist`);
  }
});

t.test('nothing else is served under /docs: not the rest of swagger-ui-dist, nor a path outside it', async (t) => {
  const origin = await startDocs(t, '/v1');
  for (const path of [
    '/docs/index.html',
    '/docs/swagger-initializer.js',
    '/docs/swagger-ui.css.map',
    '/docs/package.json',
    '/docs/..%2Fpackage.json',
    '/docs/findings.js',
    '/docs/x/swagger-ui.css',
  ]) {
    const r = await get(origin + path);
    t.equal(r.status, 404, path);
    t.equal(r.headers['content-type'], 'application/json', `${path}: an Error body, as JSON`);
    t.match(JSON.parse(r.text), { code: 'route_not_found', status: 404 }, path);
  }
});

t.test('the page answers GET and HEAD; any other method is 405 with Allow', async (t) => {
  const origin = await startDocs(t, '/v1');
  const head = await get(`${origin}/docs`, 'HEAD');
  t.equal(head.status, 200);
  t.equal(head.headers['content-type'], 'text/html; charset=utf-8');
  t.equal(head.body.length, 0, 'HEAD: no body');
  for (const method of ['POST', 'DELETE'] as const) {
    const r = await get(`${origin}/docs`, method);
    t.equal(r.status, 405, method);
    t.equal(r.headers['allow'], 'GET, HEAD', `${method}: Allow`);
    t.match(JSON.parse(r.text), { code: 'method_not_allowed', message: `${method} is not allowed on /docs; allowed: GET, HEAD` });
  }
});

t.test('with the control API served, the page shows the findings panel and its script; without, neither', async (t) => {
  const withFindings = await startDocs(t, '/v1', { findings: true });
  const page = (await get(`${withFindings}/docs`)).text;
  t.match(page, '<details id="petstore-findings" open');
  t.match(page, '<script src="/docs/findings.js"></script>');
  const script = await get(`${withFindings}/docs/findings.js`);
  t.equal(script.status, 200);
  t.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
  t.equal(script.text, FINDINGS_JS, 'the findings panel of docs-scripts.ts');

  const without = await startDocs(t, '/v1');
  const plain = (await get(`${without}/docs`)).text;
  t.notMatch(plain, 'petstore-findings');
  t.notMatch(plain, 'findings.js');
});

// Issue 47 §8: the page comes authorized with the development key, which the
// server prints anyway; a configured key is a secret, and the page is public.
t.test('a whole server: the development key is in the set-up only when no key is configured; a configured key is in no file under /docs', async (t) => {
  const files = async (origin: string) => {
    const paths = [
      '/docs',
      '/docs/init.js',
      '/docs/findings.js',
      '/docs/openapi.json',
      '/docs/swagger-ui.css',
      '/docs/swagger-ui-bundle.js',
      '/docs/favicon-32x32.png',
    ];
    const served = await Promise.all(paths.map(async (path) => [path, await get(origin + path)] as const));
    for (const [path, r] of served) t.equal(r.status, 200, `${path} is served`);
    return served;
  };
  const plain = await startTestServer(t);
  const init = (await get(`${new URL(plain.url).origin}/docs/init.js`)).text;
  t.match(init, `window.ui.preauthorizeApiKey("bearerAuth", ${JSON.stringify(DEVELOPMENT_API_KEY)})`, 'no key configured: the development key');

  const SECRET = 'configured-key-7f3a';
  for (const apiKeys of [[SECRET], ['other-key', SECRET]]) {
    const configured = await startTestServer(t, { apiKeys });
    for (const [path, r] of await files(new URL(configured.url).origin)) {
      t.notOk(r.body.includes(SECRET), `${path}: not the configured key`);
      t.notOk(r.body.includes(DEVELOPMENT_API_KEY), `${path}: nor the development key, which this server refuses`);
    }
  }
});
