// The stand-in's entry (src/index.ts) pays only for what a client's test
// file uses (issue 47): what it imports statically, followed through our own
// modules, reaches no Redis client, no Prism and no fast-check. The Redis
// client is imported when a shared store is opened; the others belong to the
// suite's entry. `npm run bench` measures the load itself.
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The bare specifiers a module and the modules it imports statically reach (dynamic import() not followed). */
function staticReach(entry: string): Set<string> {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(root, file), 'utf8');
    // `import type` and `export type` are erased: they load nothing.
    for (const m of text.matchAll(/^(import|export)\s+(type\s)?[^;]*?from\s+'([^']+)'/gms)) {
      if (m[2]) continue;
      const specifier = m[3]!;
      if (specifier.startsWith('.')) visit(normalize(join(dirname(file), specifier.replace(/\.js$/, '.ts'))));
      else
        bare.add(
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  };
  visit(entry);
  return bare;
}

t.test("the stand-in's entry imports no Redis client, Prism or fast-check", async (t) => {
  const reached = staticReach('src/index.ts');
  t.ok(reached.size > 0 && reached.has('node:http'), `it reaches what it needs: ${[...reached].sort().join(', ')}`);
  for (const heavy of ['redis', '@stoplight/prism-http', '@stoplight/prism-core', 'fast-check'])
    t.notOk(reached.has(heavy), `${heavy} is not imported statically`);
});

t.test("the suite's entry does import them: the walk would see them", async (t) => {
  const reached = staticReach('conformance/index.ts');
  t.ok(reached.has('fast-check'), 'fast-check, through the checks');
});
