// The browser example of docs/stand-in.md ("Start it, call it"), run as written in
// headless Chromium against a real server in every `--ids` mode: the ids it
// reads are the server's digits, and a client that parses with res.json()
// meets the 404 the README promises in `large` mode.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ID_MODES } from '../../src/store/index.js';
import { openPage } from '../helpers/browser.js';
import { startTestServer } from '../helpers/server.js';

const README = readFileSync(new URL('../../docs/stand-in.md', import.meta.url), 'utf8');
const EXAMPLE = /From a browser page[\s\S]*?```js\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
const README_BASE = 'http://127.0.0.1:4010/v1';

/** Runs `code` in the page as the body of an async function and returns what it passed to console.log. */
async function run(page: Awaited<ReturnType<typeof openPage>>['page'], code: string): Promise<unknown[][]> {
  // A string, not a function: tsx would compile a function with helpers the page does not have.
  return page.evaluate(`(async () => {
    const logged = [];
    await (async (console) => {\n${code}\n})({ log: (...args) => logged.push(args) });
    return logged;
  })()`);
}

t.test('the README holds a browser example that names the default base URL', async (t) => {
  t.match(EXAMPLE, README_BASE);
  t.match(EXAMPLE, 'console.log(');
});

for (const mode of ID_MODES) {
  t.test(`the README's browser example reads exact ids from a server with --ids ${mode}`, async (t) => {
    const { url, server } = await startTestServer(t, { ids: mode });
    const { page, problems } = await openPage(t);
    const [logged] = await run(page, EXAMPLE.replaceAll(README_BASE, url));
    const [status, pet, againStatus, deprecation] = logged as [number, { id: string; name: string; categoryId: string }, number, string];
    const stored = /^\[\{"id":(\d+),/.exec(server.store.toJsonArray().toString())?.[1];
    t.equal(status, 201, 'created');
    t.equal(pet.id, stored, `the id is the server's digits: ${stored}`);
    t.equal(pet.categoryId, '9007199254740993', 'so is the categoryId sent with JSON.rawJSON');
    t.equal(againStatus, 200, 'getPet finds the pet by the id read');
    t.equal(deprecation, '@1735689600', "getPet's Deprecation header is readable across origins");
    t.strictSame(problems, [], 'nothing failed in the page');
  });
}

t.test('with --ids large, a client that parses with res.json() gets a rounded id, and the stand-in answers 404 for it', async (t) => {
  const { url } = await startTestServer(t, { ids: 'large' });
  const { page } = await openPage(t);
  const [logged] = await run(
    page,
    `const headers = { Authorization: 'Bearer petstore-dev-key', 'Content-Type': 'application/json' };
     const wrong = await (await fetch('${url}/pets', { method: 'POST', headers, body: '{"name":"Rex","categoryId":1}' })).json();
     const r = await fetch('${url}/pets/' + wrong.id, { headers });
     console.log(String(wrong.id), r.status, (await r.json()).code);`,
  );
  t.strictSame(logged, ['9007199254740992', 404, 'pet_not_found'], 'the pet is 9007199254740993; the client asked for 9007199254740992');
});
