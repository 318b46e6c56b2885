/**
 * The page to read and try the API: Swagger UI, from the installed
 * swagger-ui-dist package (no CDN: it works offline), showing the served
 * document (served-spec.ts), at `/docs`, where the server's root redirects. Its
 * "Authorize" button takes the API key, and "Try it out" sends real requests
 * to this server (the document's server URL is the base path, relative).
 *
 * The page and its files need no key: they hold nothing the interface's
 * document does not. Requests here are not journaled (they are not the
 * interface's); they are logged like any other.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { OperationDescriptor } from '../../spec/operations.js';
import { JSON_CONTENT_TYPE, type Exchange, type Responder } from './respond.js';
import { servedDocument } from './served-spec.js';

export const DOCS_PREFIX = '/docs';
const SPEC_PATH = `${DOCS_PREFIX}/openapi.json`;

/** The files of swagger-ui-dist the page loads, with their media types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Swagger UI's set-up, as a file of its own rather than an inline script, so
 * the page would also run under a Content-Security-Policy without
 * 'unsafe-inline'. validatorUrl null: the default badge asks a server on the
 * internet to validate the document.
 */
const INIT_JS = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(SPEC_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayRequestDuration: true,
  tryItOutEnabled: true,
  defaultModelsExpandDepth: 1,
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet Store Service Interface: petstore serve</title>
<link rel="icon" type="image/png" href="${DOCS_PREFIX}/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_PREFIX}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PREFIX}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PREFIX}/init.js"></script>
</body>
</html>
`;

/** Whether a request target is the page's: the root, or under /docs. */
export function isDocsTarget(url: string | undefined): boolean {
  if (url === undefined) return false;
  // Every request asks this: an interface target (/v1/…) is told apart by its second character.
  if (url.charCodeAt(1) !== 0x64 /* d */) return url === '/' || url.startsWith('/?');
  const next = url[DOCS_PREFIX.length];
  return url.startsWith(DOCS_PREFIX) && (next === undefined || next === '/' || next === '?');
}

export function createDocsHandler(operations: readonly OperationDescriptor[], basePath: string, respond: Responder): (x: Exchange) => void {
  const files = new Map<string, { type: string; body: Buffer }>([
    [SPEC_PATH, { type: JSON_CONTENT_TYPE, body: Buffer.from(JSON.stringify(servedDocument(operations, basePath), null, 2)) }],
    [`${DOCS_PREFIX}/init.js`, { type: 'text/javascript; charset=utf-8', body: Buffer.from(INIT_JS) }],
  ]);
  const page = { type: 'text/html; charset=utf-8', body: Buffer.from(PAGE) };
  // swagger-ui-dist's files are read once, on the first request for one: a server that nobody opens the page of never reads them.
  let assetsDir: string | undefined;
  const asset = (name: string) => {
    const type = ASSETS[name];
    if (type === undefined) return undefined;
    let file = files.get(`${DOCS_PREFIX}/${name}`);
    if (!file) {
      assetsDir ??= (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
      file = { type, body: readFileSync(join(assetsDir, name)) };
      files.set(`${DOCS_PREFIX}/${name}`, file);
    }
    return file;
  };

  return (x) => {
    const url = x.req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const method = x.req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') {
      return respond.sendError(x, 'method_not_allowed', `${method} is not allowed on ${path}; allowed: GET, HEAD`, ['allow', 'GET, HEAD']);
    }
    // The root sends a browser to the page. A redirect rather than the page itself: an answer
    // with a body is JSON everywhere but under /docs, which clients and the fuzz tests rely on.
    if (path === '/') return respond.send(x, 302, undefined, ['location', DOCS_PREFIX]);
    const file = path === DOCS_PREFIX || path === `${DOCS_PREFIX}/` ? page : (files.get(path) ?? asset(path.slice(DOCS_PREFIX.length + 1)));
    if (!file) return respond.sendError(x, 'route_not_found', `no page at ${path}`);
    respond.answer(x, 200, file.type, file.body, ['cache-control', 'no-cache']);
  };
}
