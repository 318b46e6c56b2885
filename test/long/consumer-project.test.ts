// The package as a user gets it (docs/package.md): `npm pack`, the tarball
// installed into an empty project in the system's temporary directory, and
// there, with nothing of this repository on the path (its node_modules/.bin
// is taken off PATH, and no parent directory of the project holds a
// node_modules): the CLI serves and conforms, an ESM file and a CommonJS one
// use the library, a TypeScript file type-checks against the shipped
// declarations under node16 and bundler resolution, and the tarball holds
// what a user needs and nothing else. The install itself is quiet: no
// warning, and no dependency install script runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { authorizeDocs, openPage } from '../helpers/browser.js';
import { packTarball, ROOT, run, userEnv } from '../helpers/consumer.js';
import t, { type Test } from 'tap';

/** The repository's TypeScript, by absolute path: the tool, not the package under test. */
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const KEY = 'consumer-key';

/** Starts a long-running command in its own process group, stopped (the whole group: npx and what it runs) when the test ends. */
function start(t: Test, command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  t.teardown(() => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
    }
  });
  return { child, output: () => out };
}

function waitFor(output: () => string, pattern: RegExp, child: ChildProcess, timeoutMs = 60_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const match = pattern.exec(output());
      if (match) {
        clearInterval(timer);
        resolve(match);
      } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
        clearInterval(timer);
        reject(new Error(`no ${pattern} (exit ${child.exitCode}); output: ${output()}`));
      }
    }, 50);
  });
}

// Packing, an install from npm's cache, a conformance run from the CLI and one from a script, and two tsc runs over @types/node.
t.setTimeout(600_000);

const work = mkdtempSync(join(tmpdir(), 'petstore-consumer-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
const project = join(work, 'project');
let tarball = '';
let files: string[] = [];

t.before(async () => {
  // As a maintainer publishes: npm pack runs prepack (the build, with the bundled Swagger UI) first.
  ({ tarball, files } = await packTarball(work));

  // An empty CommonJS project (no "type": Jest's default kind), with @types/node as a TypeScript user has it.
  const types = JSON.parse(readFileSync(join(ROOT, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string };
  rmSync(project, { recursive: true, force: true });
  await run('mkdir', ['-p', project], work);
  writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2)}\n`);
  const installed = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--foreground-scripts', '--save-dev', tarball, `@types/node@${types.version}`],
    project,
  );
  if (installed.code !== 0) throw new Error(`npm install of the tarball failed: ${installed.stdout}${installed.stderr}`);
  installLog = installed.stdout + installed.stderr;
});
let installLog = '';

t.test('the tarball holds what a user needs and nothing else', async (t) => {
  t.ok(files.includes('package.json') && files.includes('README.md') && files.includes('bin/petstore.js'), 'package.json, README and the bin');
  t.ok(files.includes('dist/src/index.js') && files.includes('dist/src/index.d.ts'), 'the library and its declarations');
  t.ok(files.includes('dist/conformance/index.js') && files.includes('dist/conformance/index.d.ts'), 'the suite and its declarations');
  t.ok(files.includes('spec/openapi.json') && files.includes('fixtures/pets.json'), 'the document and the seed pets file');
  t.ok(files.includes('dist/swagger-ui/swagger-ui-bundle.js') && files.includes('dist/swagger-ui/LICENSE'), "Swagger UI's files, with their licence");
  t.ok(files.includes('docs/conformance.md') && files.includes('docs/stand-in.md'), 'the docs the README links to, so its links work in node_modules');
  const unwanted = files.filter(
    (f) =>
      f.endsWith('.map') ||
      f.endsWith('.tsbuildinfo') ||
      /(^|\/)test\//.test(f) ||
      (f.startsWith('fixtures/') && f !== 'fixtures/pets.json') ||
      /\.(m|c)?ts$/.test(f.replace(/\.d\.ts$/, '')),
  );
  t.strictSame(unwanted, [], 'no tests, fixtures, sources, source maps or build state');
  const pointers = files
    .filter((f) => /\.(js|css)$/.test(f))
    .filter((f) => /[#@] sourceMappingURL=/.test(readFileSync(join(project, 'node_modules/petstore-harness', f), 'utf8')));
  t.strictSame(pointers, [], 'no file points at a source map');
});

t.test('every relative link of the README and the docs leads to a file in the tarball (issue 47 §4: they are read in node_modules)', async (t) => {
  const pages = files.filter((f) => f.endsWith('.md'));
  t.ok(pages.length > 5, `the README and the docs pages: ${pages.join(', ')}`);
  const dead: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(project, 'node_modules/petstore-harness', page), 'utf8');
    for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target)) continue;
      const path = posix.normalize(posix.join(posix.dirname(page), target.split('#')[0] ?? ''));
      if (!files.includes(path)) dead.push(`${page}: ${target}`);
    }
  }
  t.strictSame(dead, [], 'no dead relative link');
});

t.test('the install is quiet and runs no dependency install script', async (t) => {
  t.notMatch(installLog, /\bwarn\b/i, `no warning in: ${installLog}`);
  const installed = readdirSync(join(project, 'node_modules'));
  t.notOk(installed.includes('swagger-ui-dist'), 'swagger-ui-dist is not installed (its files are bundled)');
  t.notOk(readdirSync(join(project, 'node_modules')).includes('@scarf'), 'no @scarf/scarf: nothing to report the install');
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
  const scripted = Object.entries(lock.packages)
    .filter(([, p]) => p.hasInstallScript)
    .map(([path]) => path);
  t.strictSame(scripted, [], 'no installed package has an install script');
});

t.test('npx petstore serve answers, and npx petstore conform passes against it', async (t) => {
  const serve = start(t, 'npx', ['petstore', 'serve', '--host', '127.0.0.1', '--port', '0'], project, userEnv({ PETSTORE_API_KEYS: KEY }));
  const [, url] = (await waitFor(serve.output, /serving .* at (http:\/\/127\.0\.0\.1:\d+\S*)\n/, serve.child)) as unknown as [string, string];
  const pets = await fetch(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}` } });
  await pets.arrayBuffer();
  t.equal(pets.status, 200, 'GET /pets with the key');
  const origin = new URL(url).origin;
  for (const asset of ['/docs', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/favicon-32x32.png']) {
    const res = await fetch(`${origin}${asset}`);
    await res.arrayBuffer();
    t.equal(res.status, 200, `${asset} is served from the bundled Swagger UI`);
  }
  const conform = await run('npx', ['petstore', 'conform', '--base-url', url, '--api-key', KEY, '--runs', '5'], project);
  // On a failure, its report (the seed makes it repeatable: --seed <n>) rather than the end of the output.
  const report = conform.stdout.split('\n').filter((line) => /^(seed |fail|PASS|FAIL)|✗/.test(line.trim()));
  t.equal(conform.code, 0, `npx petstore conform exits 0: ${report.join('\n')}${conform.stderr.slice(-2000)}`);
  if (conform.code !== 0) t.comment(conform.stdout);
});

for (const finding of [true, false]) {
  t.test(
    `npx petstore serve stops over HTTP with its verdict: POST /__control/shutdown, the findings file written, exit ${finding ? '1 on a finding' : '0 without one'}`,
    async (t) => {
      const report = join(project, `findings-${finding}.json`);
      const serve = start(
        t,
        'npx',
        ['petstore', 'serve', '--host', '127.0.0.1', '--port', '0', '--findings', report, '--fail-on-findings', 'warning'],
        project,
        userEnv({ PETSTORE_API_KEYS: KEY }),
      );
      const [, url] = (await waitFor(serve.output, /serving .* at (http:\/\/127\.0\.0\.1:\d+\S*)\n/, serve.child)) as unknown as [string, string];
      const sent = await fetch(`${url}/pets?${finding ? 'stauts' : 'status'}=sold`, { headers: { authorization: `Bearer ${KEY}` } });
      if (finding) t.match(sent.headers.get('petstore-finding'), /unknown_query_parameter/, 'the answer names the finding');
      else t.equal(sent.headers.get('petstore-finding'), null, 'a clean request names none');
      await sent.arrayBuffer();
      const origin = new URL(url).origin;
      const stopped = await fetch(`${origin}/__control/shutdown`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
      t.equal(stopped.status, 202, 'the shutdown is accepted');
      await stopped.arrayBuffer();
      const code = await new Promise<number | null>((resolve) => {
        if (serve.child.exitCode !== null) resolve(serve.child.exitCode);
        else serve.child.once('exit', (exitCode) => resolve(exitCode));
      });
      t.equal(code, finding ? 1 : 0, `npx exits ${finding ? '1: a warning was seen' : '0: nothing was seen'}`);
      const written = readFileSync(report, 'utf8');
      if (finding) t.match(written, /stauts/, 'and the findings file names it');
      else t.notMatch(written, /unknown_query_parameter/, 'and the findings file has none');
      await t.rejects(fetch(`${url}/pets`), 'nothing is left listening');
    },
  );
}

t.test("the installed page (issue 47 §8): the key given to Authorize survives a reload, and a finding's request number shows its journal entry", async (t) => {
  const serve = start(t, 'npx', ['petstore', 'serve', '--host', '127.0.0.1', '--port', '0'], project, userEnv({ PETSTORE_API_KEYS: KEY }));
  const [, url] = (await waitFor(serve.output, /serving .* at (http:\/\/127\.0\.0\.1:\d+\S*)\n/, serve.child)) as unknown as [string, string];
  const sent = await fetch(`${url}/pets?stauts=sold`, { headers: { authorization: `Bearer ${KEY}` } });
  await sent.arrayBuffer();
  const { page, problems } = await openPage(t);
  await page.goto(`${new URL(url).origin}/docs`);
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
  await authorizeDocs(page, KEY);
  await page.reload();
  await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
  t.equal(await page.locator('button.authorize.locked').count(), 1, 'after a reload the page is still authorized');
  const finding = page.locator('#petstore-findings .finding').first();
  await finding.waitFor({ timeout: 10_000 });
  await finding.locator('button.finding-request').first().click();
  const entry = finding.locator('.journal-entry');
  await entry.locator('.journal-head').waitFor({ timeout: 10_000 });
  t.match(await entry.textContent(), /request 1: GET \/v1\/pets\?stauts=sold → 200/, "the finding's request, from the journal");
  t.strictSame(problems, [], 'nothing failed');
});

t.test('an ESM file imports startServer and runConformance and uses them', async (t) => {
  writeFileSync(
    join(project, 'esm.mjs'),
    `import { startServer } from 'petstore-harness';
import { runConformance } from 'petstore-harness/conformance';
import { startProxy } from 'petstore-harness/proxy';

const api = await startServer();
const result = await runConformance({ baseUrl: api.url, apiKey: api.apiKey, runs: 5 });
const proxy = await startProxy({ upstream: api.url });
const created = await fetch(proxy.url + '/pets', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + api.apiKey, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Rex', categoryId: 3, status: 'available' }),
});
proxy.assertNoFindings();
await proxy.close();
await api.close();
console.log(JSON.stringify({ ok: result.ok, exercised: result.exercised, created: created.status }));
`,
  );
  const ran = await run(process.execPath, ['esm.mjs'], project);
  t.equal(ran.code, 0, `node esm.mjs exits 0: ${ran.stderr}`);
  const out = JSON.parse(ran.stdout.trim().split('\n').pop() ?? '{}') as { ok?: boolean; exercised?: number; created?: number };
  t.equal(out.ok, true, 'the suite passes against the started server');
  t.ok((out.exercised ?? 0) > 0, 'and exercised checks');
  t.equal(out.created, 201, 'a create through petstore-harness/proxy answered 201, with no finding');
  t.equal(ran.stderr, '', 'nothing on stderr');
});

t.test("the stand-in's entry loads no other package (issue 47 §6: a test file pays only for what it uses)", async (t) => {
  writeFileSync(
    join(project, 'cjs-cost.js'),
    `require('petstore-harness');
// The project's own dependencies only (a test runner may preload modules of its own from elsewhere).
const mine = require('path').join(__dirname, 'node_modules') + require('path').sep;
const others = Object.keys(require.cache).filter((f) => f.startsWith(mine) && !f.startsWith(mine + 'petstore-harness'));
console.log(JSON.stringify(others));
`,
  );
  const ran = await run(process.execPath, ['cjs-cost.js'], project);
  t.equal(ran.code, 0, ran.stderr);
  t.strictSame(JSON.parse(ran.stdout.trim()), [], 'no Redis client, Prism, fast-check or undici is loaded by require');
});

t.test('a CommonJS file uses startServer through require, and through import()', async (t) => {
  writeFileSync(
    join(project, 'cjs-require.js'),
    `const { startServer } = require('petstore-harness');
const { runConformance } = require('petstore-harness/conformance');
const { startProxy } = require('petstore-harness/proxy');

(async () => {
  const api = await startServer();
  const proxy = await startProxy({ upstream: api.url });
  const res = await fetch(proxy.url + '/pets', { headers: { authorization: 'Bearer ' + api.apiKey } });
  await proxy.close();
  await api.close();
  console.log(JSON.stringify({ status: res.status, runConformance: typeof runConformance }));
})();
`,
  );
  writeFileSync(
    join(project, 'cjs-import.js'),
    `(async () => {
  const { startServer } = await import('petstore-harness');
  const api = await startServer();
  const res = await fetch(api.url + '/pets', { headers: { authorization: 'Bearer ' + api.apiKey } });
  await api.close();
  console.log(JSON.stringify({ status: res.status }));
})();
`,
  );
  for (const file of ['cjs-require.js', 'cjs-import.js']) {
    const ran = await run(process.execPath, [file], project);
    t.equal(ran.code, 0, `node ${file} exits 0 on Node ${process.version}: ${ran.stderr}`);
    const out = JSON.parse(ran.stdout.trim().split('\n').pop() ?? '{}') as { status?: number; runConformance?: string };
    t.equal(out.status, 200, `${file}: GET /pets answered 200`);
    if (file === 'cjs-require.js') t.equal(out.runConformance, 'function', 'runConformance is required too');
    // require(esm) needs no flag and prints no ExperimentalWarning on the versions engines names.
    t.equal(ran.stderr, '', `${file}: nothing on stderr`);
  }
});

t.test('TypeScript files type-check against the shipped declarations, ESM and CommonJS, node16 and bundler', async (t) => {
  writeFileSync(
    join(project, 'check.mts'),
    `import { startServer, type StartedServer, type Pet } from 'petstore-harness';
import { runConformance, type ConformanceResult } from 'petstore-harness/conformance';

const api: StartedServer = await startServer({ ids: 'large' });
const result: ConformanceResult = await runConformance({ baseUrl: api.url, apiKey: api.apiKey, runs: 5, families: ['responses'] });
const ok: boolean = result.ok;
const pet: Pet | undefined = undefined;
api.assertNoFindings();
await api.close();
export { ok, pet };
`,
  );
  // A misuse must fail, or the check above proves nothing (declarations resolved to any would pass anything).
  writeFileSync(
    join(project, 'misuse.mts'),
    `import { startServer } from 'petstore-harness';
import { runConformance } from 'petstore-harness/conformance';

const api = await startServer({ port: 'not a port' });
await runConformance({ baseUrl: api.url });
`,
  );
  // A CommonJS TypeScript file (.cts): under node16 its imports are requires, typed by the require condition's declarations.
  writeFileSync(
    join(project, 'check.cts'),
    `import { startServer, type StartedServer } from 'petstore-harness';
import { runConformance, type ConformanceResult } from 'petstore-harness/conformance';

export async function main(): Promise<boolean> {
  const api: StartedServer = await startServer({ ids: 'large' });
  const result: ConformanceResult = await runConformance({ baseUrl: api.url, apiKey: api.apiKey, runs: 5 });
  await api.close();
  return result.ok;
}
`,
  );
  const settings = {
    node16: { module: 'node16', moduleResolution: 'node16' },
    bundler: { module: 'esnext', moduleResolution: 'bundler' },
  };
  for (const [name, resolution] of Object.entries(settings)) {
    // One program for both files: check.mts without an error, misuse.mts with exactly its two (skipLibCheck off: the shipped declarations are checked too).
    writeFileSync(
      join(project, `tsconfig.${name}.json`),
      JSON.stringify({
        compilerOptions: { ...resolution, target: 'es2022', lib: ['es2023', 'dom'], types: ['node'], strict: true, noEmit: true, skipLibCheck: false },
        files: name === 'node16' ? ['check.mts', 'misuse.mts', 'check.cts'] : ['check.mts', 'misuse.mts'],
      }),
    );
    const ran = await run(process.execPath, [TSC, '-p', `tsconfig.${name}.json`], project);
    const errors = ran.stdout.match(/^\S+\(\d+,\d+\): error TS\d+/gm) ?? [];
    t.strictSame(
      errors.filter((e) => !e.startsWith('misuse.mts')),
      [],
      `tsc --noEmit, ${name}: no error but in misuse.mts: ${ran.stdout}${ran.stderr}`,
    );
    t.equal(errors.filter((e) => e.startsWith('misuse.mts')).length, 2, `tsc rejects both misuses, ${name}: ${ran.stdout}`);
  }
});
