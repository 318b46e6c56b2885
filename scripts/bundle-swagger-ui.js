// Part of the build (npm run build, which npm pack runs first): copies the
// three swagger-ui-dist files the /docs page serves, with the licence and
// notice that must travel with them, into dist/swagger-ui/. The published
// package holds these and does not depend on swagger-ui-dist, whose own
// dependency (@scarf/scarf) reports every install from a postinstall script:
// a user's `npm install petstore-harness` installs no telemetry (docs/package.md).
// swagger-ui-dist stays a devDependency, the one this copy comes from.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const from = require('swagger-ui-dist').getAbsoluteFSPath();
const version = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8')).version;
const to = fileURLToPath(new URL('../dist/swagger-ui/', import.meta.url));
mkdirSync(to, { recursive: true });

// Written only when changed, and whole (a rename): a server reading the page's files meanwhile (npm pack
// in the long tier while other tests serve /docs from dist/) never reads a half-written one.
const put = (name, body) => {
  const file = join(to, name);
  if (existsSync(file) && readFileSync(file).equals(body)) return;
  writeFileSync(`${file}.tmp`, body);
  renameSync(`${file}.tmp`, file);
};

// The page's assets (src/server/docs.ts ASSETS), without a pointer to a source map the package does not ship.
for (const name of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
  const text = readFileSync(join(from, name), 'utf8').replace(/\n?\/[*/]# sourceMappingURL=\S+?(?: \*\/|\*\/)?\s*$/, '\n');
  put(name, Buffer.from(text));
}
for (const name of ['favicon-32x32.png', 'LICENSE', 'NOTICE', 'swagger-ui-bundle.js.LICENSE.txt']) put(name, readFileSync(join(from, name)));
put('VERSION', Buffer.from(`swagger-ui-dist ${version}\n`));
