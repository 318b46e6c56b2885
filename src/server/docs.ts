/**
 * The page to read and try the API: Swagger UI, from swagger-ui-dist's files
 * shipped in the package (no CDN: it works offline), showing the served
 * document (served-spec.ts), at `/docs`, where the server's root redirects. Its
 * "Authorize" button takes the API key (kept across reloads: docs-scripts.ts),
 * and "Try it out" sends real requests to this server (the document's server
 * URL is the base path, relative).
 *
 * The page and its files need no key: they hold nothing secret. The one key
 * they may hold is the development key, which the server prints at start-up
 * and which no server with configured keys accepts. Requests here are not journaled (they are not the
 * interface's); they are logged like any other.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OperationDescriptor } from '../../spec/operations.js';
import { JSON_CONTENT_TYPE, type Exchange, type Responder } from './respond.js';
import { FINDINGS_JS, initScript } from './docs-scripts.js';
import { type ServedFront, servedDocument } from './served-spec.js';

export const DOCS_PREFIX = '/docs';
const SPEC_PATH = `${DOCS_PREFIX}/openapi.json`;

/** The files of swagger-ui-dist the page loads, with their media types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * Where the page's files are: dist/swagger-ui/, next to the compiled code (the
 * build copies them there, scripts/bundle-swagger-ui.js, and the published
 * package holds them instead of depending on swagger-ui-dist), else, run from
 * the sources in this repository, the swagger-ui-dist devDependency itself.
 */
function swaggerUiDir(): string {
  const bundled = fileURLToPath(new URL('../../swagger-ui/', import.meta.url));
  if (existsSync(join(bundled, 'swagger-ui-bundle.js'))) return bundled;
  return (createRequire(import.meta.url)('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
}

const FINDINGS_PANEL = `<details id="petstore-findings" open style="margin:16px auto;max-width:1420px;padding:0 20px;font-family:sans-serif;font-size:14px">
<summary style="cursor:pointer;font-weight:bold">Findings: what clients got wrong</summary>
<style>#petstore-findings .finding{margin:8px 0;padding:6px 10px;border-left:4px solid #fca130;background:#fff8ef}#petstore-findings .finding-error{border-color:#f93e3e;background:#fff1f1}#petstore-findings .finding-head{font-weight:bold;margin-bottom:4px}#petstore-findings .finding-request{font:inherit;color:#1f69c0;text-decoration:underline;background:none;border:0;padding:0;cursor:pointer}#petstore-findings .journal-entry{margin:6px 0 2px;padding:6px 10px;background:#fff;border:1px solid #ddd}#petstore-findings .journal-entry pre{margin:2px 0 6px;white-space:pre-wrap;word-break:break-all;font-size:12px}</style>
<div class="findings-body"></div>
</details>
`;

const PAGE = (withFindings: boolean) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet Store Service Interface: petstore serve</title>
<link rel="icon" type="image/png" href="${DOCS_PREFIX}/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_PREFIX}/swagger-ui.css">
</head>
<body>
${withFindings ? FINDINGS_PANEL : ''}<div id="swagger-ui"></div>
<script src="${DOCS_PREFIX}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PREFIX}/init.js"></script>
${withFindings ? `<script src="${DOCS_PREFIX}/findings.js"></script>\n` : ''}</body>
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

/** The security scheme the document's operations ask for: the one Authorize takes the key for. */
function securityScheme(document: object): string | undefined {
  const schemes = (document as { components?: { securitySchemes?: Record<string, unknown> } }).components?.securitySchemes;
  return schemes ? Object.keys(schemes)[0] : undefined;
}

/**
 * `findings`: the control API is served, so the page shows the findings panel.
 * `developmentKey`: the server accepts only the public development key (none
 * was configured), so the page comes authorized with it. Never a configured
 * key: the page and its files are served to anyone, without a key.
 */
export function createDocsHandler(
  operations: readonly OperationDescriptor[],
  basePath: string,
  respond: Responder,
  options: { findings?: boolean; developmentKey?: string; front?: ServedFront } = {},
): (x: Exchange) => void {
  const withFindings = options.findings === true;
  const document = servedDocument(operations, basePath, options.front);
  const scheme = securityScheme(document);
  const init = initScript({
    specUrl: SPEC_PATH,
    ...(options.developmentKey !== undefined && scheme !== undefined ? { developmentKey: { scheme, key: options.developmentKey } } : {}),
  });
  const files = new Map<string, { type: string; body: Buffer }>([
    [SPEC_PATH, { type: JSON_CONTENT_TYPE, body: Buffer.from(JSON.stringify(document, null, 2)) }],
    [`${DOCS_PREFIX}/init.js`, { type: 'text/javascript; charset=utf-8', body: Buffer.from(init) }],
    ...(withFindings ? [[`${DOCS_PREFIX}/findings.js`, { type: 'text/javascript; charset=utf-8', body: Buffer.from(FINDINGS_JS) }] as const] : []),
  ]);
  const page = { type: 'text/html; charset=utf-8', body: Buffer.from(PAGE(withFindings)) };
  // swagger-ui-dist's files are read once, on the first request for one: a server that nobody opens the page of never reads them.
  let assetsDir: string | undefined;
  const asset = (name: string) => {
    const type = ASSETS[name];
    if (type === undefined) return undefined;
    let file = files.get(`${DOCS_PREFIX}/${name}`);
    if (!file) {
      assetsDir ??= swaggerUiDir();
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
