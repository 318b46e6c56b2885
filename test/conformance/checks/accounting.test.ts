// State accounting (conformance/checks/accounting.ts): every pet bearing the
// run's marker was handed back by a 2xx of the run and is served as handed
// back; the ids between the run's own are read where ids are dense.
import t from 'tap';
import { accountingCheck, createLedger, gapIds, judge, listPaths } from '../../../conformance/checks/accounting.js';
import { TransportError, type Exchange } from '../../../conformance/client.js';
import { runConformance } from '../../../conformance/index.js';
import { runMarker } from '../../../conformance/runner.js';
import { startVariant } from '../../../fixtures/implementations/index.mjs';
import { operations } from '../../../spec/operations.js';
import { startTestServer } from '../../helpers/server.js';

const PREFIX = 'conform-ab12.';
const options = { options: { namePrefix: PREFIX } } as never;

const exchange = (method: string, path: string, status: number, json: unknown, body?: string): Exchange =>
  ({
    family: 'state',
    request: { method, path, headers: {}, operationId: 'x', ...(body ? { body } : {}) },
    response: { status, headers: {}, text: 'x', json, durationMs: 1 },
  }) as never;
const pet = (id: bigint, name: string, status = 'sold') => ({ id, name, categoryId: 1n, status });

t.test('a marked pet that a 2xx handed back, served as handed back, is accounted for', async (t) => {
  const ledger = createLedger(PREFIX);
  ledger.observe(exchange('POST', '/pets', 201, pet(1n, `${PREFIX}a`), `{"name":"${PREFIX}a"}`));
  ledger.observe(exchange('GET', '/pets', 200, [pet(1n, `${PREFIX}a`), pet(2n, 'conform-zz99.other run'), pet(3n, 'Rex')]));
  t.same(judge(ledger, options), [], "another run's pets and unmarked ones are not this run's to account for");
});

t.test('a marked pet no answer handed back is named with the refused request that sent its name', async (t) => {
  const ledger = createLedger(PREFIX);
  ledger.observe(exchange('POST', '/pets', 201, pet(1n, `${PREFIX}a`), `{"name":"${PREFIX}a","status":"sold"}`));
  ledger.observe(exchange('POST', '/pets', 400, { code: 'invalid_body' }, `{"name":"${PREFIX}a","status":"lost"}`));
  ledger.observe(exchange('GET', '/pets?limit=100', 200, [pet(1n, `${PREFIX}a`), pet(2n, `${PREFIX}a`)]));
  const [finding, ...rest] = judge(ledger, options);
  t.equal(rest.length, 0);
  t.match(
    finding?.message,
    /^pet 2 \(name "conform-ab12\.a"\) bears this run's marker "conform-ab12\." but no answer of the run handed it back; its name was sent by requests answered 201 ×1, 400 ×1$/,
  );
  t.equal(finding?.response?.status, 400, 'the evidence is the refused request');
});

t.test('the evidence is the first request that sent the name and was not answered 2xx', async (t) => {
  for (const [statuses, shown] of [
    [[200, 400], 400],
    [[201, 300, 400], 300],
  ] as const) {
    const ledger = createLedger(PREFIX);
    for (const status of statuses) ledger.observe(exchange('POST', '/pets', status, {}, `{"name":"${PREFIX}f"}`));
    ledger.observe(exchange('GET', '/pets', 200, [pet(11n, `${PREFIX}f`)]));
    t.equal(judge(ledger, options)[0]?.response?.status, shown, `sent by requests answered ${statuses.join(', ')}`);
  }
});

t.test('a marked pet without any sender, and one served otherwise than created', async (t) => {
  const ledger = createLedger(PREFIX);
  ledger.observe(exchange('POST', '/pets', 201, pet(1n, `${PREFIX}a`, 'sold'), `{"name":"${PREFIX}a"}`));
  ledger.observe(exchange('GET', '/pets/1', 200, pet(1n, `${PREFIX}a`, 'available')));
  ledger.observe(exchange('GET', '/pets/9', 200, pet(9n, `${PREFIX}b`)));
  const messages = judge(ledger, options).map((f) => f.message);
  t.same(messages, [
    'pet 1 was created with status "sold" but GET /pets/1 served status "available" (they differ from character 1: U+0073 U+006F U+006C U+0064, then U+0061 U+0076 U+0061 U+0069 …)',
    `pet 9 (name "${PREFIX}b") bears this run's marker "${PREFIX}" but no answer of the run handed it back; no request of the run sent its name`,
  ]);
});

t.test('a refused write that answers with a pet does not account for it; a 2xx write does', async (t) => {
  const ledger = createLedger(PREFIX);
  ledger.observe(exchange('POST', '/pets', 400, pet(4n, `${PREFIX}c`)));
  ledger.observe(exchange('PUT', '/pets/5', 200, pet(5n, `${PREFIX}d`)));
  ledger.observe(exchange('POST', '/pets', 300, pet(12n, `${PREFIX}h`)));
  ledger.observe(exchange('GET', '/pets', 200, [{ name: `${PREFIX}g`, categoryId: 1n }]));
  t.same([...ledger.given.keys()], ['5'], 'only a 2xx to a write hands a pet back');
  t.same([...ledger.served.keys()], [], 'a 4xx or a 3xx serves nothing, nor a marked object without an id');
});

t.test("a pet whose name is no string bears no run's marker, and is heard without harm", async (t) => {
  const ledger = createLedger(PREFIX);
  ledger.observe(exchange('POST', '/pets', 201, { id: 7n, name: 7n, categoryId: 1n }));
  ledger.observe(exchange('GET', '/pets', 200, [{ id: 8n, categoryId: 1n }, { id: 9n, name: [PREFIX] }, pet(10n, 'Rex')]));
  t.same([...ledger.given.keys(), ...ledger.served.keys()], []);
});

t.test('a safe method hands no pet back, whatever its answer holds: a marked pet it shows is only served', async (t) => {
  const ledger = createLedger(PREFIX);
  // A server that routes OPTIONS or TRACE to its getPet handler shows a pet it must already have handed back.
  for (const method of ['GET', 'HEAD', 'OPTIONS', 'TRACE', 'get']) ledger.observe(exchange(method, '/pets/6', 200, pet(6n, `${PREFIX}e`)));
  t.same([...ledger.given.keys()], []);
  t.same(ledger.served.get('6')?.length, 4, 'the last four reads kept');
  t.match(judge(ledger, options)[0]?.message, /^pet 6 .* no answer of the run handed it back/);
});

t.test('a target that stops answering the read-back: what was heard is still judged, and nothing heard is no pass', async (t) => {
  for (const heard of [[], [exchange('GET', '/pets/9', 200, pet(9n, `${PREFIX}b`))]]) {
    const listeners: ((e: Exchange) => void)[] = [];
    const ctx = {
      operations,
      options: { namePrefix: PREFIX },
      client: { observe: (l: (e: Exchange) => void) => listeners.push(l) },
      send: async (_family: string, request: never) => {
        throw new TransportError('connect ECONNREFUSED', request);
      },
      timeLeft: () => 60_000,
    } as never;
    const check = accountingCheck(ctx);
    for (const e of heard) for (const listener of listeners) listener(e);
    const outcome = await check.run(ctx);
    t.equal(outcome.status, heard.length > 0 ? 'failed' : 'skipped', `${heard.length} marked pets heard`);
    t.equal(outcome.runs, heard.length, 'the pets it judged');
  }
  // Anything else is a defect of the suite, not of the target: the run says so rather than skip the check.
  const ctx = {
    operations,
    options: { namePrefix: PREFIX },
    client: { observe: () => {} },
    send: async () => {
      throw new TypeError('a bug');
    },
    timeLeft: () => 60_000,
  } as never;
  await t.rejects(accountingCheck(ctx).run(ctx), /a bug/);
});

t.test("the read-back reads the run's pets by id while time is left and getPet is not past its removal", async (t) => {
  const sunset = operations.find((op) => op.operationId === 'getPet')!.sunset!.getTime();
  for (const [timeLeft, now, reads] of [
    [60_000, sunset - 1000, true],
    [0, sunset - 1000, false],
    [60_000, sunset, false],
  ] as const) {
    const listeners: ((e: Exchange) => void)[] = [];
    const sent: string[] = [];
    const ctx = {
      operations,
      options: { namePrefix: PREFIX },
      client: { observe: (l: (e: Exchange) => void) => listeners.push(l) },
      send: async (_family: string, request: { method: string; path: string }) => {
        sent.push(request.path);
        const read = exchange('GET', request.path, request.path.startsWith('/pets?') ? 200 : 404, request.path.startsWith('/pets?') ? [] : {});
        return { request: read.request, response: read.response };
      },
      readAfterWrite: (read: () => unknown) => read(),
      timeLeft: () => timeLeft,
      targetNow: () => now,
    } as never;
    const check = accountingCheck(ctx);
    for (const id of [1n, 2n, 4n]) for (const listener of listeners) listener(exchange('POST', '/pets', 201, pet(id, `${PREFIX}${id}`)));
    const outcome = await check.run(ctx);
    const byId = sent.filter((path) => !path.startsWith('/pets?'));
    t.same(byId, reads ? ['/pets/3', '/pets/1', '/pets/2', '/pets/4'] : [], `time left ${timeLeft}, ${now < sunset ? 'before' : 'at'} the removal`);
    t.equal(outcome.status, reads ? 'failed' : 'passed');
    if (reads) t.match(outcome.failure?.message, /^pet 1 was handed back by POST \/pets \(201\) but is answered 404 now: it was removed/);
  }
});

/**
 * A run's context for the read-back: every read answered by `answer` (given the paths sent so far), each noted,
 * read once unless `readAfterWrite` says otherwise; `hear` plays an exchange to the check's observer.
 */
function readBackRun(
  answer: (path: string, sent: readonly string[]) => Exchange,
  readAfterWrite: (read: () => Promise<unknown>, ok: (sent: unknown) => boolean) => Promise<unknown> = (read) => read(),
) {
  const sent: string[] = [];
  const listeners: ((e: Exchange) => void)[] = [];
  const ctx = {
    operations,
    options: { namePrefix: PREFIX },
    client: { observe: (l: (e: Exchange) => void) => listeners.push(l) },
    send: async (_family: string, request: { path: string }) => {
      sent.push(request.path);
      const read = answer(request.path, sent);
      return { request: read.request, response: read.response };
    },
    readAfterWrite,
    timeLeft: () => 60_000,
    targetNow: () => 0,
  } as never;
  return {
    ctx,
    sent,
    hear: (e: Exchange) => {
      for (const l of listeners) l(e);
    },
  };
}

t.test("the run's own pets are read back 200 at most, spread over them all", async (t) => {
  const { ctx, sent, hear } = readBackRun((path) => {
    const id = /^\/pets\/(\d+)$/.exec(path)?.[1];
    return exchange('GET', path, 200, id ? pet(BigInt(id), `${PREFIX}${id}`) : []);
  });
  const check = accountingCheck(ctx);
  for (let id = 1n; id <= 401n; id++) hear(exchange('POST', '/pets', 201, pet(id, `${PREFIX}${id}`)));
  t.equal((await check.run(ctx)).status, 'passed');
  const reads = sent.filter((path) => !path.startsWith('/pets?'));
  t.ok(reads.length > 100 && reads.length <= 200, `${reads.length} read`);
  t.equal(reads[0], '/pets/1');
  t.ok(Number(reads.at(-1)!.slice('/pets/'.length)) > 390, `the last read is ${reads.at(-1)}`);
});

t.test('a pet of the run answered 404 is read again within the settle window, and not removed once served', async (t) => {
  // A replica behind: pet 1 is found from its second read on.
  const { ctx, sent, hear } = readBackRun(
    (path, earlier) => {
      const found = path === '/pets/1' && earlier.filter((p) => p === '/pets/1').length > 1;
      return exchange('GET', path, path.startsWith('/pets?') || found ? 200 : 404, found ? pet(1n, `${PREFIX}1`) : []);
    },
    async (read, ok) => {
      let answer = await read();
      for (let tries = 0; !ok(answer) && tries < 4; tries++) answer = await read();
      return answer;
    },
  );
  const check = accountingCheck(ctx);
  hear(exchange('POST', '/pets', 201, pet(1n, `${PREFIX}1`)));
  t.equal((await check.run(ctx)).status, 'passed');
  t.same(
    sent.filter((path) => !path.startsWith('/pets?')),
    ['/pets/1', '/pets/1'],
  );
});

t.test("the ids between the run's own, on the stride they keep, when few enough", async (t) => {
  t.same(gapIds(['1', '2', '5', '3']), ['4']);
  t.same(gapIds(['9007199254740993', '9007199254740999', '9007199254740995']), ['9007199254740997'], 'odd ids: stride 2');
  t.same(gapIds(['10', '11', '12']), [], 'no gap');
  t.same(gapIds([]), [], 'no id, no gap');
  t.same(gapIds(['7']), [], 'one id has no gap');
  t.same(gapIds(['7', '7']), [], 'nor one id heard twice');
  t.same(gapIds(['5', '1', '3', '9']), ['7'], 'in any order');
  t.equal(gapIds(['1', '3', '515']).length, 255, 'a stride of 2: the ids on it count, not the span');
  t.same(gapIds(['1', '4611686018427387904', '9223372036854775807']), [], 'random ids: too many to read');
  t.equal(gapIds(['1', '2', '259']).length, 256, 'up to 256 read');
  t.same(gapIds(['1', '2', '260']), [], 'not 257');
  t.same(gapIds(['1', '258']), [], 'two ids alone keep the stride between them');
});

t.test('the run marker is the prefix and four letters or digits, new on every run', async (t) => {
  const markers = new Set(Array.from({ length: 50 }, () => runMarker('conform-')));
  for (const marker of markers) t.match(marker, /^conform-[0-9a-z]{4}\.$/);
  t.ok(markers.size > 45, 'a fresh token each run (50 draws from 36^4)');
});

t.test('a server that keeps a body it refused fails the accounting, and only it', async (t) => {
  const server = await startVariant('stores-refused-status', { apiKey: 'test-key' });
  t.teardown(() => server.close());
  const result = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, seed: 5, runs: 10, families: ['validation'] });
  t.same(
    result.failures.map((f) => f.checkId),
    result.failures.map(() => 'state.accounting'),
  );
  t.match(result.failures[0]?.message, /bears this run's marker .* but no answer of the run handed it back; its name was sent by requests answered .*400 ×\d+/);
});

t.test("a second run against the same server takes none of the first run's pets for its own", async (t) => {
  const { url, key } = await startTestServer(t);
  for (const run of [1, 2]) {
    const result = await runConformance({ baseUrl: url, apiKey: key, seed: 5, runs: 10, families: ['validation', 'state'] });
    t.equal(result.ok, true, `run ${run} passes`);
    t.equal(result.checks.find((c) => c.id === 'state.accounting')?.status, 'passed', `run ${run}: the accounting passed`);
  }
});

t.test('the lists read back: the largest page, then the largest page of each value of each filter', async (t) => {
  const list = operations.find((op) => op.operationId === 'listPets')!;
  t.same(listPaths(list), ['/pets?limit=100', '/pets?limit=100&status=available', '/pets?limit=100&status=pending', '/pets?limit=100&status=sold']);
  const bare = { ...list, parameters: list.parameters.filter((p) => p.name === 'status') };
  t.same(listPaths(bare), ['/pets', '/pets?status=available', '/pets?status=pending', '/pets?status=sold'], 'without a page size, no page is asked for');
});
