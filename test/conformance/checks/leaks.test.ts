// When an answer gives the API key away (conformance/checks/leaks.ts), and
// the wrong keys compared with each other. The families' verdicts on real
// targets are in test/fixtures/ and test/long/implementations-* (the leaks fixtures).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { internals, internalsShown, keyLeak, leaksChecks, MIN_KEY_LENGTH, probesOf, sameLengthWrongKeys } from '../../../conformance/checks/leaks.js';
import { describeOperations, operationById } from '../../../spec/operations.js';
import { openapi } from '../../../spec/openapi.js';
import type { CheckContext } from '../../../conformance/vocabulary.js';
import { parseJson } from '../../../spec/json/index.js';
import type { Exchange, WireRequest, WireResponse } from '../../../conformance/client.js';
import { keyForms, replaceMiddle } from '../../../conformance/key-forms.js';
import { runCheck } from '../../helpers/check-run.js';
import { startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

const KEY = 'secret-key-123';

function exchange(authorization: string | undefined, response: Partial<WireResponse>): { request: WireRequest; response: WireResponse } {
  return {
    request: { method: 'GET', path: '/pets', operationId: 'listPets', headers: authorization === undefined ? {} : { authorization } },
    response: { status: 401, headers: {}, text: '', json: undefined, durationMs: 0, ...response },
  };
}

t.test('the key in an error body or any header is a leak, whatever the request carried', async (t) => {
  t.match(keyLeak(KEY, exchange(undefined, { text: `{"message":"expected ${KEY}"}` })), /body of the 401/);
  t.match(keyLeak(KEY, exchange('Bearer wrong', { headers: { 'x-debug': KEY } })), /x-debug header/);
  t.match(
    keyLeak(KEY, exchange(`Bearer ${KEY}`, { status: 200, headers: { 'x-authenticated-as': KEY } })),
    /x-authenticated-as header/,
    'a header reflecting the valid credential',
  );
  t.match(
    keyLeak(KEY, exchange(`bearer   ${KEY}`, { status: 400, text: `bad body from ${KEY}` })),
    /body of the 400/,
    'the scheme in any case and the spaces do not make it a near miss',
  );
});

t.test('not a leak: pet data, an echo of a presented near miss, a key too short to recognise', async (t) => {
  t.equal(keyLeak(KEY, exchange(`Bearer ${KEY}`, { status: 200, text: `[{"name":"${KEY}"}]` })), undefined, 'a 2xx body is data');
  t.equal(keyLeak(KEY, exchange(`Bearer ${KEY}x`, { text: `the API key '${KEY}x' is not accepted` })), undefined, "the client's own text");
  t.equal(keyLeak(KEY, exchange(KEY, { headers: { 'x-echo': KEY } })), undefined, 'the key without a scheme, echoed');
  const short = 'k'.repeat(MIN_KEY_LENGTH - 1);
  t.equal(keyLeak(short, exchange(undefined, { text: `expected ${short}` })), undefined);
  const shortest = 'k'.repeat(MIN_KEY_LENGTH);
  t.match(keyLeak(shortest, exchange(undefined, { text: `expected ${shortest}` })), /body of the 401/, `a key of ${MIN_KEY_LENGTH} characters is searched for`);
});

t.test('a stack trace in a JSON message is seen through its escapes (a tab-indented Java frame, a quoted Python file name)', async (t) => {
  const answer = (message: string) => {
    const text = JSON.stringify({ code: 'invalid_body', message, status: 400 });
    const parsed = parseJson(text);
    return { text, json: parsed.ok ? parsed.value : undefined };
  };
  const java = answer('bad input\n\tat com.example.petstore.PetController.createPet(PetController.java:42)');
  t.notOk(java.text.includes('\tat'), 'the JSON text holds the escape, not a tab');
  t.equal(internalsShown(java), 'a Java stack trace');
  t.equal(internalsShown(answer('bad input\n  File "/srv/app/views.py", line 42, in create_pet')), 'a Python traceback');
  t.equal(internalsShown(answer('bad input\n    at parseBody (/srv/app.js:42:17)')), 'a JavaScript stack trace');
  t.equal(internalsShown(answer('categoryId is required; see the line 42 of the guide')), undefined, 'ordinary words are not a trace');
  t.equal(internalsShown({ text: 'Traceback (most recent call last):', json: undefined }), 'a Python traceback', 'a body that is not JSON is read as it is');
});

t.test("wrong keys: two unrelated, three one character away, all of the key's length", async (t) => {
  const wrong = sameLengthWrongKeys(KEY);
  t.equal(wrong.length, 5);
  for (const { key } of wrong) {
    t.equal(key.length, KEY.length, `${key}: same length`);
    t.not(key, KEY);
  }
  const differences = (a: string) => [...a].filter((c, i) => c !== KEY[i]).length;
  t.equal(differences(wrong[0]!.key), KEY.length, 'unrelated: every character differs');
  t.equal(differences(wrong[1]!.key), KEY.length);
  t.not(wrong[0]!.key, wrong[1]!.key, 'the two unrelated keys differ from each other');
  t.strictSame(
    wrong.slice(2).map((w) => differences(w.key)),
    [1, 1, 1],
    'near misses: one character each',
  );
});

t.test('a stack frame is found without parentheses, and at the start of a JSON message', async (t) => {
  t.equal(
    internalsShown({ text: 'failed\n    at async /srv/app.js:3:15', json: undefined }),
    'a JavaScript stack trace',
    'a frame with no function name and no parentheses',
  );
  const text = JSON.stringify({ code: 'internal', message: 'at Object.<anonymous> (C:\\srv\\app.js:3:15)', status: 500 });
  const parsed = parseJson(text);
  t.notOk(text.includes('\n'), 'no line break in the text as sent');
  t.equal(
    internalsShown({ text, json: parsed.ok ? parsed.value : undefined }),
    'a JavaScript stack trace',
    'a message that is a Windows frame alone: a line of its own once read out of the JSON',
  );
});

t.test('internals are looked for in error answers only: pet data may read like a stack frame', async (t) => {
  const ctx = {} as CheckContext;
  const at = (status: number, text: string) =>
    internals.applies({ request: { method: 'GET', path: '/pets', headers: {} }, response: { status, headers: {}, text } } as unknown as Exchange, ctx);
  t.ok(at(400, '{"message":"x"}'), 'a 400 with a body');
  t.ok(at(500, 'boom'), 'a 500');
  t.notOk(at(200, '[{"name":"at main (/srv/app.js:1:1)"}]'), 'a 200: a pet may be named like a frame');
  t.notOk(at(201, '{"name":"Traceback (most recent call last)"}'), 'a 201 too');
  t.notOk(at(404, ''), 'an error without a body has nothing to show');
});

t.test('unrelated wrong keys share no position with a key made of the very letters they are drawn from', async (t) => {
  // The unrelated keys are written in w, x, y and z, swapping to the other letter where the key has one.
  for (const key of ['wxyz-wxyz', 'zzzz', 'yyyy', 'xwxw', 'a']) {
    const [first, second] = sameLengthWrongKeys(key);
    for (const wrong of [first!.key, second!.key]) {
      t.equal([...wrong].length, [...key].length, `${key} → ${wrong}: same length`);
      t.ok(
        [...wrong].every((c, i) => c !== [...key][i]),
        `${key} → ${wrong}: no character in its place`,
      );
    }
    t.ok(
      [...first!.key].every((c, i) => c !== [...second!.key][i]),
      `${key}: the two unrelated keys share no position either`,
    );
  }
});

t.test('a report rebuilds the key with its middle character replaced from $PETSTORE_API_KEY, never printing it', async (t) => {
  const changed = replaceMiddle(KEY);
  t.equal(changed.length, KEY.length);
  t.equal([...changed].filter((c, i) => c !== KEY[i]).length, 1);
  const form = keyForms(KEY).find((f) => f.text === changed);
  if (!form) throw new Error('no key form for the replaced key');
  t.notOk(form.shell.includes(KEY.slice(0, 6)), 'the shell word holds no part of the key');
  const { stdout } = await promisify(execFile)('sh', ['-c', `printf '%s' ${form.shell}`], {
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', PETSTORE_API_KEY: KEY },
  });
  t.equal(stdout, changed, 'sh turns the shell word back into the replaced key');
});

t.test(
  "each operation's credential probes: none, the two wrong keys, the key without a scheme, the valid key; to createPet each with a valid NewPet",
  async (t) => {
    const c = { options: { apiKey: KEY, namePrefix: 'conform-', seed: 1 } } as unknown as CheckContext;
    const wrong = sameLengthWrongKeys(KEY);
    for (const op of ['listPets', 'createPet', 'getPet'].map(operationById)) {
      const probes = probesOf(c, op, '7').slice(0, 5);
      t.same(
        probes.map((p) => p.auth),
        [null, `Bearer ${wrong[0]!.key}`, `Bearer ${wrong[2]!.key}`, KEY, undefined],
        `${op.operationId}: the credentials`,
      );
      for (const probe of probes) {
        if (op.requestBody) {
          const parsed = parseJson(probe.body ?? '');
          t.ok(parsed.ok && typeof (parsed.value as Record<string, unknown>)['name'] === 'string', `${op.operationId} with ${probe.label}: a NewPet body`);
        } else t.equal(probe.body, undefined, `${op.operationId} with ${probe.label}: no body`);
      }
    }
  },
);

t.test("a key leaked in the answer to another family's request fails the operation's key check, naming the first such answer", async (t) => {
  const observers: ((e: Exchange) => void)[] = [];
  const clean = { status: 200, headers: { 'content-type': 'application/json' }, text: '[]', json: [], durationMs: 1 } as unknown as WireResponse;
  const ctx = {
    client: { observe: (observer: (e: Exchange) => void) => observers.push(observer) },
    operations: describeOperations(openapi),
    options: { apiKey: KEY, seed: 1, runs: 5, namePrefix: 'conform-' },
    send: async (_family: string, request: WireRequest) => ({ request: { ...request, headers: {} }, response: clean }),
    timeLeft: () => 60_000,
  } as unknown as CheckContext;
  const checks = leaksChecks(ctx);
  t.same(
    checks.map((c) => c.id),
    ['leaks.listPets.key', 'leaks.createPet.key', 'leaks.getPet.key', 'leaks.listPets.near-miss', 'leaks.getPet.near-miss', 'leaks.internals'],
    'a key check for every operation, a near-miss check for the reads',
  );
  const refusal = (path: string) =>
    ({
      family: 'limits',
      request: { method: 'GET', path, headers: { authorization: `Bearer ${KEY}` }, operationId: 'listPets' },
      response: { status: 400, headers: {}, text: `limit is invalid for key ${KEY}`, json: undefined, durationMs: 1 },
    }) as unknown as Exchange;
  for (const observer of observers) {
    observer(refusal('/pets?limit=0'));
    observer(refusal('/pets?limit=101'));
  }
  const list = await checks[0]!.run(ctx);
  t.equal(list.status, 'failed');
  t.match(list.failure?.message, /body of the 400 answer holds the API key \(seen on a request of this run\)/);
  t.equal(list.failure?.request?.path, '/pets?limit=0', 'the first answer that showed it');
  const create = await checks[1]!.run(ctx);
  t.equal(create.status, 'passed', 'another operation is judged by its own answers');
});

const GET_PET_KEY_CHECK = 'leaks.getPet.key';

t.test("getPet's key check, run alone, probes a pet that exists: a key shown only when a pet is served is seen", async (t) => {
  const { url, key } = await startTestServer(t);
  // Shows the key only in a served pet's answer: a probe of a pet that does not exist (404) never sees it.
  const front = await startFront(t, url, async (req, forward) => {
    const answer = await forward();
    if (req.operationId !== 'getPet' || answer.status !== 200) return answer;
    return { ...answer, headers: { ...answer.headers, 'x-debug-authorization': String(req.headers.authorization) } };
  });
  const { status, message } = await runCheck(front, key, GET_PET_KEY_CHECK);
  t.equal(status, 'failed');
  t.match(message, /holds the API key/);
  t.equal((await runCheck(url, key, GET_PET_KEY_CHECK)).status, 'passed', 'the reference server passes');
});
