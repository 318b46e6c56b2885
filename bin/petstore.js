#!/usr/bin/env node
// The entry point: everything lives in cli, compiled to dist/ by `npm ci` (the prepare script).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('petstore: not built yet; run `npm ci` (or `npm run build`) in the project first\n');
  process.exit(2);
}
const { run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
