// The README and docs/ are read where the package is installed (node_modules,
// the registry) as much as in the repository: every relative link among them
// names a file that exists and that the package carries (package.json
// "files"), and every #anchor names a heading of the page it points to.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const carried = (JSON.parse(read('package.json')) as { files: string[] }).files.filter((f) => !f.startsWith('!'));
const isCarried = (path: string) => carried.some((entry) => path === entry || path.startsWith(`${entry.replace(/\/$/, '')}/`));
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation but hyphens and spaces dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const anchorsOf = (page: string) => new Set([...read(page).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));

t.test('the docs travel with the package', async (t) => {
  t.ok(isCarried('docs/conformance.md') && isCarried('README.md'));
});

for (const page of pages) {
  t.test(`${page}: every relative link is to a carried file, every anchor to a heading`, async (t) => {
    const text = read(page).replace(/```[\s\S]*?```/g, '');
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
    for (const target of links) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? page : normalize(join(dirname(page), path));
      t.ok(existsSync(join(root, file)), `${target}: ${file} exists`);
      t.ok(isCarried(file), `${target}: ${file} is in the package`);
      if (anchor !== undefined && file.endsWith('.md')) t.ok(anchorsOf(file).has(anchor), `${target}: #${anchor} is a heading of ${file}`);
    }
  });
}
