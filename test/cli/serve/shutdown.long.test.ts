// The end-to-end recipe of docs/stand-in.md, run as written: `npx petstore
// serve --findings FILE --fail-on-findings warning` in the background of a
// bash script, the client's requests, then POST /__control/shutdown and
// `wait`: the script gets the verdict as its exit code (1 with a finding, 0
// without), the report is written, and no process is left. The recipe's port
// and `npm run e2e` are replaced by the test's own; nothing else is.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';

const root = new URL('../../../', import.meta.url).pathname;

/** The sh block of docs/stand-in.md that stops the server through the control API. */
function recipe(): string {
  const doc = readFileSync(join(root, 'docs/stand-in.md'), 'utf8');
  const block = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('/__control/shutdown'));
  if (!block) throw new Error('docs/stand-in.md has no recipe that stops the server through /__control/shutdown');
  return block;
}

/** A port nobody listens on now: the kernel's choice, released at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function runRecipe(e2e: string): Promise<{ code: number | null; report: string; port: number; output: string }> {
  const port = await freePort();
  const report = join(mkdtempSync(join(tmpdir(), 'petstore-recipe-')), 'findings.json');
  const script = recipe()
    .replaceAll('4010', String(port))
    .replace('findings.json', report)
    .replace(/^npm run e2e.*$/m, e2e.replaceAll('PORT', String(port)));
  // The development key: no key is configured for the stand-in here, as in the recipe.
  const env = { ...process.env, PETSTORE_API_KEYS: '', PETSTORE_API_KEY: '' };
  const child = spawn('bash', ['-c', script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, report, port, output };
}

/** Whether a process still serves on `port` (a server left behind). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(true))
      .listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

t.test('a client that sends what the interface does not promise: the script exits 1, the report names it, no server is left', async (t) => {
  const run = await runRecipe("curl -sS -o /dev/null -H 'Authorization: Bearer petstore-dev-key' 'http://127.0.0.1:PORT/v1/pets?stauts=sold'");
  t.equal(run.code, 1, `exit 1; the output:\n${run.output}`);
  t.ok(existsSync(run.report), 'the report is written');
  t.match(JSON.parse(readFileSync(run.report, 'utf8')), [{ code: 'unknown_query_parameter', sent: 'stauts=sold', count: 1 }]);
  t.match(run.output, /exit 1 \(--fail-on-findings warning\)/, 'and says why on stderr');
  t.equal(await listening(run.port), false, 'nothing listens on its port any more');
});

t.test('a client that sends only what the interface promises: the script exits 0 and the report is empty', async (t) => {
  const run = await runRecipe("curl -sS -o /dev/null -H 'Authorization: Bearer petstore-dev-key' 'http://127.0.0.1:PORT/v1/pets?limit=5'");
  t.equal(run.code, 0, `exit 0; the output:\n${run.output}`);
  t.strictSame(JSON.parse(readFileSync(run.report, 'utf8')), [], 'no finding');
  t.equal(await listening(run.port), false, 'nothing listens on its port any more');
});
