// The layers of docs/architecture.md, kept true: the spec floor (spec/: the
// document, its types, the schema compiler and the lossless JSON codec)
// imports nothing of ours above it; the reference server (src/ but the CLI)
// and the conformance suite stand on it side by side, neither importing the
// other; the proxy (proxy/) stands on both, through their public entries; the
// CLI (cli, bin/) is on top. And no import cycle, between files or through them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import madge from 'madge';

const root = normalize(join(dirname(fileURLToPath(import.meta.url)), '../..'));

function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** The project files `file` imports (statically or dynamically), as paths from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => relative(root, join(root, dirname(file), m[1]!)));
}

/** Which layer a file of ours is in. */
function layerOf(file: string): 'spec' | 'server' | 'suite' | 'proxy' | 'cli' | 'other' {
  if (file.startsWith('spec/')) return 'spec';
  if (file.startsWith('proxy/')) return 'proxy';
  if (file.startsWith('cli/') || file.startsWith('bin/')) return 'cli';
  if (file.startsWith('src/')) return 'server';
  if (file.startsWith('conformance/')) return 'suite';
  return 'other';
}

/** The files of a layer that the layers above may import: its public entry. */
const PUBLIC_ENTRIES: Record<string, readonly string[]> = {
  server: ['src/index.js', 'src/index.ts'],
  suite: ['conformance/index.js', 'conformance/index.ts'],
  proxy: ['proxy/index.js', 'proxy/index.ts'],
};

const ALLOWED: Record<string, readonly string[]> = {
  spec: ['spec'],
  server: ['spec', 'server'],
  suite: ['spec', 'suite'],
  proxy: ['spec', 'server', 'suite', 'proxy'],
  cli: ['spec', 'server', 'suite', 'proxy', 'cli'],
};

t.test('each layer imports only itself and the layers under it', async (t) => {
  const files = [...sources('spec'), ...sources('src'), ...sources('conformance'), ...sources('proxy'), ...sources('cli')];
  t.ok(files.length > 50, `${files.length} source files read`);
  t.ok(files.filter((file) => layerOf(file) === 'cli').length >= 5, 'the CLI is a folder of its own');
  const wrong: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      if (to !== 'other' && !ALLOWED[from]!.includes(to)) wrong.push(`${file} (${from}) imports ${target} (${to})`);
    }
  }
  t.strictSame(wrong, [], 'no import against the layers');
});

t.test('the CLI and the proxy use the layers under them through their public entries only', async (t) => {
  const wrong: string[] = [];
  for (const file of [...sources('cli'), ...sources('proxy'), 'bin/petstore.js']) {
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      const entries = PUBLIC_ENTRIES[to];
      if (entries && layerOf(file) !== to && !entries.includes(target)) wrong.push(`${file} imports ${target}, past the entry of ${to}`);
    }
  }
  t.strictSame(wrong, []);
});

t.test('no import cycle between the files of spec/, src/, conformance/ and cli/ (madge)', async (t) => {
  const graph = await madge(
    ['spec', 'src', 'conformance', 'proxy', 'cli'].map((folder) => join(root, folder)),
    {
      fileExtensions: ['ts'],
      tsConfig: join(root, 'tsconfig.json'),
      baseDir: root,
    },
  );
  t.ok(Object.keys(graph.obj()).length > 50, 'madge read the sources');
  t.strictSame(graph.circular(), []);
});
