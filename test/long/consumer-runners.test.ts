// The README's client test as a client team runs it (issue 47 §3): the packed
// tarball installed into empty projects, and the same test under node:test,
// Jest 30 with its default configuration (a CommonJS project, and an ES module
// project whose tests are .cjs: Jest loads tests as CommonJS, so
// `require('petstore-harness')` must find a CommonJS entry) and Vitest (an ES
// module project), the README's text each time with only the runner's hook
// names (and Jest's require) changed. The client under test is a few lines of
// fetch that keep int64 values exact with the package's own lossless codec;
// then the client openapi-typescript and openapi-fetch generate, as
// docs/stand-in.md's recipe gives it. Each must pass, and must fail when the
// client sends a misspelt parameter: the finding reaches the runner's own report.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startServer } from '../../src/index.js';
import { packTarball, ROOT, run, userEnv } from '../helpers/consumer.js';

// Packing, three installs from the registry (Jest, Vitest), and three runs of a runner each.
t.setTimeout(900_000);

const work = mkdtempSync(join(tmpdir(), 'petstore-runners-'));
t.teardown(() => rmSync(work, { recursive: true, force: true }));
let tarball = '';

/** Vitest 5 requires Node 22.12; on Node 20 the newest that runs is 4. */
const VITEST = Number(process.versions.node.split('.')[0]) >= 22 ? 'vitest@5' : 'vitest@4';

/** The client under test: create and list, int64 fields written and read digit for digit. */
const client = (moduleSystem: 'cjs' | 'esm', statusName: string) => {
  const body = `
async function call(baseUrl, apiKey, method, path, value) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: 'Bearer ' + apiKey, ...(value ? { 'content-type': 'application/json' } : {}) },
    ...(value ? { body: stringifyJson(value) } : {}),
  });
  const parsed = parseJson(await res.text());
  if (!res.ok) throw new Error(res.status + ' ' + JSON.stringify(parsed.ok ? String(parsed.value.message) : ''));
  return parsed.value;
}
function createPetsClient({ baseUrl, apiKey }) {
  return {
    // categoryId a bigint, written as its digits by stringifyJson: no rounding.
    create: (pet) => call(baseUrl, apiKey, 'POST', '/pets', pet),
    list: ({ status }) => call(baseUrl, apiKey, 'GET', '/pets?${statusName}=' + encodeURIComponent(status)),
  };
}
`;
  return moduleSystem === 'cjs'
    ? `const { parseJson, stringifyJson } = require('petstore-harness');\n${body}\nmodule.exports = { createPetsClient };\n`
    : `import { parseJson, stringifyJson } from 'petstore-harness';\n${body}\nexport { createPetsClient };\n`;
};

/**
 * A client that reads ids with JSON.parse (res.json()) and fails on its own, with a 404: the answer it gets
 * already says why (issue 47 §2), in its header and in the Error's message, which is all such a test shows.
 */
const ROUNDED_TEST = `import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from 'petstore-harness';

let api;
before(async () => (api = await startServer({ ids: 'large' })));
after(() => api.close());

test('a rounded id is refused with its cause in the answer', async () => {
  const headers = { authorization: 'Bearer ' + api.apiKey, 'content-type': 'application/json' };
  const created = await (await fetch(api.url + '/pets', { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' })).json();
  assert.equal(created.id, 9007199254740992, 'res.json() rounded 9007199254740993');
  const res = await fetch(api.url + '/pets/' + created.id, { headers });
  assert.equal(res.status, 404);
  assert.match(res.headers.get('petstore-finding'), /rounded_id/);
  assert.match((await res.json()).message, /was it rounded from 9007199254740993/);
});
`;

/** docs/stand-in.md's in-process example (mark, stub, requests, clock, faults), as the page gives it: the docs are the tested code. */
const STUBS_TEST = (() => {
  const page = readFileSync(join(ROOT, 'docs/stand-in.md'), 'utf8');
  const start = page.indexOf('// test/pets-client.stubs.test.js');
  if (start === -1) throw new Error("docs/stand-in.md has no 'test/pets-client.stubs.test.js' example");
  return page.slice(start, page.indexOf('```', start));
})();

/** The README's client test as the README gives it (node:test): the README's client section is the tested code. */
const README_TEST = (() => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('// test/pets-client.test.js, with node:test');
  if (start === -1) throw new Error("the README has no 'test/pets-client.test.js, with node:test' example");
  return readme.slice(start, readme.indexOf('```', start));
})();

const NODE_TEST_HOOKS = "import { after, afterEach, before, beforeEach, test } from 'node:test';";

/**
 * The README's test for another runner, changed only where the runner differs: its hooks (named
 * beforeAll and afterAll), and for Jest, which loads tests as CommonJS, each import as a require.
 * `client` is the path of the client under test.
 */
const readmeTestFor = (runner: 'node' | 'jest' | 'vitest', client: string) => {
  if (!README_TEST.includes(NODE_TEST_HOOKS)) throw new Error(`the README's client test no longer starts with ${NODE_TEST_HOOKS}`);
  const test = README_TEST.replace("'../src/pets-client.js'", `'${client}'`);
  if (runner === 'node') return test;
  if (runner === 'vitest')
    return test.replace(NODE_TEST_HOOKS, "import { afterAll as after, afterEach, beforeAll as before, beforeEach, test } from 'vitest';");
  return test
    .replace(NODE_TEST_HOOKS, 'const [before, after] = [beforeAll, afterAll];')
    .replace(/^import (\w+) from '([^']+)';/gm, "const $1 = require('$2');")
    .replace(/^import \{([^}]+)\} from '([^']+)';/gm, "const {$1} = require('$2');");
};

const PROJECTS = {
  node: { type: 'module', file: 'test/pets-client.test.js', install: [] as string[], command: [process.execPath, '--test'] },
  jest: { type: undefined, file: 'test/pets-client.test.js', install: ['jest@30'], command: ['npx', 'jest'] },
  // An ES module project under Jest's default configuration: its tests are CommonJS files (.cjs), as Jest loads them.
  'jest-esm': { type: 'module', file: 'test/pets-client.test.cjs', install: ['jest@30'], command: ['npx', 'jest'] },
  vitest: { type: 'module', file: 'test/pets-client.test.js', install: [VITEST], command: ['npx', 'vitest', 'run'] },
} as const;

t.before(async () => {
  tarball = (await packTarball(work)).tarball;
});

for (const [runner, project] of Object.entries(PROJECTS) as [keyof typeof PROJECTS, (typeof PROJECTS)[keyof typeof PROJECTS]][]) {
  t.test(`${runner}: the README's client test passes, and fails on a finding`, async (t) => {
    const dir = join(work, runner);
    mkdirSync(join(dir, 'src'), { recursive: true });
    mkdirSync(join(dir, 'test'), { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: `consumer-${runner}`, version: '1.0.0', private: true, ...(project.type ? { type: project.type } : {}) }, null, 2)}\n`,
    );
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', tarball, ...project.install], dir);
    t.equal(installed.code, 0, `npm install: ${installed.stderr.slice(-2000)}`);
    const moduleSystem = project.type === 'module' && !project.file.endsWith('.cjs') ? 'esm' : 'cjs';
    const clientFile = project.type === 'module' && moduleSystem === 'cjs' ? 'src/pets-client.cjs' : 'src/pets-client.js';
    // The README's own text; for Jest and Vitest with their hook names, for Jest with require.
    writeFileSync(join(dir, project.file), readmeTestFor(runner === 'jest-esm' ? 'jest' : runner, `../${clientFile}`));
    const [command, ...args] = project.command;

    writeFileSync(join(dir, clientFile), client(moduleSystem, 'status'));
    if (runner === 'node') {
      writeFileSync(join(dir, 'test/rounded.test.js'), ROUNDED_TEST);
      writeFileSync(join(dir, 'test/pets-client.stubs.test.js'), STUBS_TEST);
    }
    const passed = await run(command, args, dir, userEnv({ CI: 'true' }));
    t.equal(passed.code, 0, `${project.command.join(' ')} passes: ${(passed.stdout + passed.stderr).slice(-3000)}`);

    // The same client with the parameter misspelt: its own assertion may pass on the unfiltered page; the finding fails it.
    writeFileSync(join(dir, clientFile), client(moduleSystem, 'stauts'));
    const failed = await run(command, args, dir, userEnv({ CI: 'true' }));
    t.not(failed.code, 0, `${project.command.join(' ')} fails with a misspelt parameter`);
    t.match(failed.stdout + failed.stderr, /stauts/, "the runner's report names what the client sent");
  });
}

// A client generated from the contract: types by openapi-typescript (int64 as bigint, by the transform
// docs/stand-in.md gives), calls by openapi-fetch, int64 kept by the package's losslessFetch and stringifyJson.
const GENERATE = `import { writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const BIGINT = ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword);
const ast = await openapiTS(new URL('./node_modules/petstore-harness/spec/openapi.json', import.meta.url), {
  transform: (schema) => (schema.format === 'int64' ? BIGINT : undefined),
});
writeFileSync('src/api.d.ts', astToString(ast));
`;

/** docs/stand-in.md's generated client (src/pets-client.js), as the page gives it; `statusName` the query parameter it sends. */
const generatedClient = (statusName: string) => {
  const page = readFileSync(join(ROOT, 'docs/stand-in.md'), 'utf8');
  const start = page.indexOf('// src/pets-client.js: the generated client');
  if (start === -1) throw new Error("docs/stand-in.md has no '// src/pets-client.js: the generated client' example");
  const text = page.slice(start, page.indexOf('```', start));
  if (!text.includes('query: { status }')) throw new Error("the recipe's client no longer sends 'query: { status }'");
  return text.replace('query: { status }', `query: { ${statusName}: status }`);
};

/** The generated types say what the wire carries: the ids and categoryId are bigint, so no code of the client's rounds them by type. */
const TYPES_CHECK = `import createClient from 'openapi-fetch';
import { losslessFetch, stringifyJson } from 'petstore-harness';
import type { paths } from './api.js';

type Pet = paths['/pets']['get']['responses'][200]['content']['application/json'][number];
export const exact: bigint = (null as unknown as Pet).id;
export const category: bigint = (null as unknown as Pet).categoryId;
// @ts-expect-error: a number is not what an int64 is here
export const rounded: number = (null as unknown as Pet).id;

// The recipe's client, typed: stringifyJson is a bodySerializer, a bigint categoryId is a body.
const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:1/v1', fetch: losslessFetch(), bodySerializer: stringifyJson });
export const created = api.POST('/pets', { body: { name: 'Rex', categoryId: 9007199254740993n } });
`;

/** `file` of the project in `dir` type-checked, strict, as a Node ES module project resolves it, with the project's own TypeScript. */
const typeCheck = (dir: string, file: string) =>
  run(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', file],
    dir,
  );

t.test("openapi-fetch: the README's client test passes against a generated client, int64 ids exact", async (t) => {
  const dir = join(work, 'openapi-fetch');
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'test'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer-openapi-fetch', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  const installed = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', tarball, 'openapi-fetch@0', 'openapi-typescript@7', 'typescript@5'],
    dir,
  );
  t.equal(installed.code, 0, `npm install: ${installed.stderr.slice(-2000)}`);
  writeFileSync(join(dir, 'generate.mjs'), GENERATE);
  const generated = await run(process.execPath, ['generate.mjs'], dir);
  t.equal(generated.code, 0, `types generated: ${generated.stderr}`);
  writeFileSync(join(dir, 'src/check.ts'), TYPES_CHECK);
  const checked = await typeCheck(dir, 'src/check.ts');
  t.equal(checked.code, 0, `the generated types give int64 as bigint, and the recipe's calls type-check: ${checked.stdout}${checked.stderr}`);

  // The same from the served contract, as docs/stand-in.md offers: its added answers keep the same int64 fields.
  const served = await startServer({ port: 0 });
  const contract = `${new URL(served.url).origin}/docs/openapi.json`;
  const fromServed = GENERATE.replace("new URL('./node_modules/petstore-harness/spec/openapi.json', import.meta.url)", `new URL('${contract}')`).replace(
    "'src/api.d.ts'",
    "'src/served-api.d.ts'",
  );
  if (fromServed === GENERATE) throw new Error("the recipe's generate.mjs no longer reads node_modules/petstore-harness/spec/openapi.json");
  writeFileSync(join(dir, 'generate-served.mjs'), fromServed);
  const generatedServed = await run(process.execPath, ['generate-served.mjs'], dir);
  await served.close();
  t.equal(generatedServed.code, 0, `types generated from the served contract: ${generatedServed.stderr}`);
  writeFileSync(join(dir, 'src/check-served.ts'), TYPES_CHECK.replace("'./api.js'", "'./served-api.js'"));
  const checkedServed = await typeCheck(dir, 'src/check-served.ts');
  t.equal(checkedServed.code, 0, `and so do those of the served contract: ${checkedServed.stdout}${checkedServed.stderr}`);
  writeFileSync(join(dir, 'test/pets-client.test.js'), README_TEST);
  writeFileSync(join(dir, 'src/pets-client.js'), generatedClient('status'));
  const passed = await run(process.execPath, ['--test'], dir, userEnv({ CI: 'true' }));
  t.equal(passed.code, 0, `node --test passes: ${(passed.stdout + passed.stderr).slice(-3000)}`);
  writeFileSync(join(dir, 'src/pets-client.js'), generatedClient('stauts'));
  const failed = await run(process.execPath, ['--test'], dir, userEnv({ CI: 'true' }));
  t.not(failed.code, 0, 'and fails with a misspelt parameter');
  t.match(failed.stdout + failed.stderr, /stauts/);
});
