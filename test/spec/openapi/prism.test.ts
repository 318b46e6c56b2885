// The generated spec must load cleanly in Prism, the tool the spec guard of the
// server tests is built on.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import t from 'tap';

const require = createRequire(import.meta.url);

t.test("Prism's getHttpOperationsFromSpec loads spec/openapi.json without a console warning", async (t) => {
  const { getHttpOperationsFromSpec } = require('@stoplight/prism-http') as {
    getHttpOperationsFromSpec(spec: unknown): Promise<Array<{ method: string; path: string; iid?: string; deprecated?: boolean }>>;
  };
  const said: string[] = [];
  const original = { warn: console.warn, error: console.error, log: console.log, info: console.info };
  for (const name of ['warn', 'error', 'log', 'info'] as const)
    console[name] = (...args: unknown[]) => void said.push(`${name}: ${args.map(String).join(' ')}`);
  const onWarning = (warning: Error) => said.push(`process warning: ${warning.message}`);
  process.on('warning', onWarning);
  let operations: Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;
  try {
    operations = await getHttpOperationsFromSpec(JSON.parse(readFileSync(new URL('../../../spec/openapi.json', import.meta.url), 'utf8')));
  } finally {
    Object.assign(console, original);
    process.off('warning', onWarning);
  }
  t.strictSame(said, [], 'nothing was printed');
  t.strictSame(operations.map((op) => `${op.iid} ${op.method.toUpperCase()} ${op.path}`).sort(), [
    'createPet POST /pets',
    'getPet GET /pets/{petId}',
    'listPets GET /pets',
  ]);
  t.equal(operations.find((op) => op.iid === 'getPet')?.deprecated, true, 'getPet is deprecated');
});
