#!/usr/bin/env node
/**
 * The manifest a user installs names no script npm would ask them to approve.
 * `prepare` builds a clone on `npm ci` (so `npx petstore` works with no other
 * step), but npm 11 lists a tarball's `prepare` among the install scripts "not
 * yet covered by allowScripts" and warns, although it never runs it for a
 * tarball: `dist/` is in the package. So `npm pack` (and publish) packs a
 * package.json without it: `strip` (prepack) keeps the original aside and
 * removes the script, `restore` (postpack) puts the original back.
 *
 *   node scripts/pack-manifest.js strip|restore
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = new URL('../package.json', import.meta.url);
const kept = new URL('../package.json.unpacked', import.meta.url);
const action = process.argv[2];

if (action === 'strip') {
  const text = readFileSync(manifest, 'utf8');
  if (!existsSync(kept)) writeFileSync(kept, text);
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  process.stderr.write('usage: node scripts/pack-manifest.js strip|restore\n');
  process.exit(2);
}
