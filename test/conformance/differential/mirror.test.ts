// The oracle (conformance/differential/mirror.ts): every request of the run
// sent again to a second implementation, ids and key translated, the answers
// compared in the order the target gave them.
import t from 'tap';
import { createOracleSession, describeAnswer, namedPet, oracleCheck, translated } from '../../../conformance/differential/mirror.js';
import { runConformance } from '../../../conformance/index.js';
import { jsonAnswer, startFront } from '../../helpers/front.js';
import { startTestOracle } from '../../helpers/reference-oracle.js';
import { startTestServer } from '../../helpers/server.js';

t.test("a request is translated: the target's ids of the run's pets to the oracle's, the target's key to the oracle's", async (t) => {
  const ids = new Map([['12', '90071992547409931']]);
  const request = {
    method: 'GET',
    path: '/pets/12?x=12',
    headers: { authorization: 'Bearer one', 'x-api-key': 'one' },
    body: '{"k":"one"}',
    operationId: 'getPet',
  };
  t.same(
    translated(request, ids, 'one', 'two'),
    {
      ...request,
      path: '/pets/90071992547409931?x=12',
      headers: { authorization: 'Bearer two', 'x-api-key': 'two' },
      body: '{"k":"two"}',
    },
    'a query value is not an id in a path',
  );
  t.same(translated(request, new Map(), 'one', 'one'), request, 'the same key, no pet of the run: unchanged');
});

t.test('the reference compared with itself: every request mirrored, no difference', async (t) => {
  const { url, key } = await startTestServer(t);
  const oracle = await startTestOracle(t, key);
  const ops: [string, string | undefined][] = [];
  const result = await runConformance({
    baseUrl: url,
    apiKey: key,
    seed: 3,
    runs: 5,
    families: ['state', 'auth', 'oracle'],
    oracle,
    observeOracle: (exchange, _answer, facts) => ops.push([exchange.request.operationId, facts.op?.operationId]),
  });
  const same = result.checks.find((c) => c.id === 'oracle.same-outcome');
  // The tolerance rows read the operation (its parameters, its removal date) from the facts of each pair.
  t.same(
    ops.filter(([id]) => ['listPets', 'getPet', 'createPet'].includes(id)).filter(([id, op]) => id !== op),
    [],
    'each pair of an operation is compared with that operation',
  );
  t.ok(ops.some(([id]) => id === 'getPet'));
  t.equal(result.ok, true, result.failures.map((f) => f.message).join('\n'));
  t.equal(same?.status, 'passed');
  t.ok((same?.runs ?? 0) > 20, `${same?.runs} requests mirrored`);
  t.equal(result.checks.find((c) => c.id === 'oracle.composed')?.status, 'passed');
});

t.test('a target that serves the list without a key, where the oracle refuses, fails with both answers', async (t) => {
  const { url, key } = await startTestServer(t);
  // A gateway that lets a request asking for HTML through to an unguarded page of the list.
  const front = await startFront(t, url, async (req, forward) =>
    req.headers['accept'] === 'text/html' ? forward({ ...req, headers: { ...req.headers, authorization: `Bearer ${key}` } }) : forward(),
  );
  const oracle = await startTestOracle(t, key);
  const result = await runConformance({
    baseUrl: front,
    apiKey: key,
    seed: 3,
    runs: 5,
    families: ['invariants'],
    checkIds: ['invariants.no-credential'],
    oracle,
  });
  const failure = result.failures.find((f) => f.checkId === 'oracle.same-outcome');
  t.match(
    failure?.message,
    /was answered 200 by the target and 401 by the oracle: the target served pet data to a request that carries no form of the key\. the reference server answered 401 \{"code":"unauthorized"/,
  );
  t.notMatch(failure?.message, /…/, "the oracle's short answer is shown whole");
});

t.test('a target that stops answering leaves the oracle skipped, not failed', async (t) => {
  let sends = 0;
  const { url, key } = await startTestServer(t);
  const session = createOracleSession(
    { operations: [], options: { apiKey: key, settleMs: 0 }, client: { authorization: `Bearer ${key}` } } as never,
    {
      send: async () => {
        sends++;
        const { TransportError } = await import('../../../conformance/client.js');
        throw new TransportError('connection refused', { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets' });
      },
    } as never,
    { baseUrl: url, apiKey: key, label: 'the other one' },
  );
  const exchange = {
    family: 'auth',
    request: { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets' },
    response: { status: 200, headers: {}, text: '[]', json: [], durationMs: 1 },
  };
  t.equal(await session.ask(exchange as never), undefined);
  t.equal(session.stopped(), 'the other one stopped answering: connection refused');
  t.equal(await session.ask({ ...exchange, request: { ...exchange.request, raw: 'GET / HTTP/1.1\r\n\r\n' } } as never), undefined, 'nor asked again');
  t.equal(await session.ask(exchange as never), undefined);
  t.equal(sends, 1, 'one request reached the oracle that stopped');
});

t.test('what is not mirrored: bytes written by hand, a path outside the base path, a 429 or a 5xx', async (t) => {
  const sent: string[] = [];
  const answer = { status: 200, headers: {}, text: '[]', json: [], durationMs: 1 };
  const session = createOracleSession(
    { operations: [], options: { apiKey: 'k', settleMs: 0 }, client: { authorization: 'Bearer k' } } as never,
    {
      send: async (_family: string, request: { path: string }) => {
        sent.push(request.path);
        return answer;
      },
    } as never,
    { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k', label: 'the other one' },
  );
  const exchange = (path: string, status: number, extra: object = {}) =>
    ({ family: 'http', request: { method: 'GET', path, headers: {}, operationId: 'listPets', ...extra }, response: { ...answer, status } }) as never;
  for (const skipped of [
    exchange('/raw', 200, { raw: 'GET /v1/pets HTTP/1.1\r\n\r\n' }),
    exchange('/origin', 200, { fromOrigin: true }),
    exchange('/limited', 429),
    exchange('/failed', 503),
  ])
    t.equal(await session.ask(skipped), undefined);
  t.equal((await session.ask(exchange('/pets', 404)))?.answer.status, 200);
  t.same(sent, ['/pets'], 'only the request the target answered itself, through the base path');
});

t.test('a pet is lagging only within the settle window (and a second) after the write that created it', async (t) => {
  const session = createOracleSession(
    { operations: [], options: { apiKey: 'k', settleMs: 0 }, client: { authorization: 'Bearer k' } } as never,
    { send: async () => ({ status: 201, headers: {}, text: '', json: { id: 90n }, durationMs: 1 }) } as never,
    { baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'k', label: 'the other one' },
  );
  const exchange = (method: string, path: string, status: number, json?: unknown) =>
    ({ family: 'state', request: { method, path, headers: {}, operationId: 'x' }, response: { status, headers: {}, text: '', json, durationMs: 1 } }) as never;
  await session.ask(exchange('POST', '/pets', 201, { id: 5n, name: 'a' }));
  const lagging = async (path: string) => (await session.ask(exchange('GET', path, 404)))?.facts.lagging;
  t.equal(await lagging('/pets/5'), true, 'just created');
  t.equal(await lagging('/pets/6'), false, 'no pet of the run');
  await new Promise((resolve) => setTimeout(resolve, 1_050));
  t.equal(await lagging('/pets/5'), false, 'a second past the window');
});

t.test("the oracle's own family is not mirrored again: its checks compare their requests themselves", async (t) => {
  const listeners: ((e: never) => void)[] = [];
  const asked: string[] = [];
  const session = { target: { label: 'x' }, stopped: () => undefined, ask: async (e: { family: string }) => void asked.push(e.family) };
  const check = oracleCheck({ operations: [], client: { observe: (l: never) => listeners.push(l) } } as never, session as never, new Map());
  for (const family of ['oracle', 'state']) for (const listener of listeners) listener({ family } as never);
  await check.run({} as never);
  t.same(asked, ['state']);
});

t.test('differences are grouped by kind, operation and the two statuses, with their count; what a row allows is counted under it', async (t) => {
  const listeners: ((e: never) => void)[] = [];
  const answer = (status: number) => ({ status, headers: {}, text: '', json: status === 200 ? [] : {}, durationMs: 1 });
  const session = {
    target: { label: 'the other one' },
    stopped: () => undefined,
    ask: async () => ({ answer: answer(200), facts: { apiKey: 'k', authorization: 'Bearer k', op: undefined, lagging: false } }),
  };
  const tolerated = new Map<string, number>();
  const check = oracleCheck({ operations: [], client: { observe: (l: never) => listeners.push(l) } } as never, session as never, tolerated);
  const exchange = (status: number, offSpec = false) =>
    ({ family: 'state', request: { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets', offSpec }, response: answer(status) }) as never;
  for (const e of [exchange(400), exchange(400), exchange(404), exchange(404, true)]) for (const listener of listeners) listener(e);
  const outcome = await check.run({} as never);
  t.same(
    [outcome.failure, ...(outcome.extraFailures ?? [])].map((f) => [f?.response?.status, f?.occurrences]),
    [
      [400, 2],
      [404, 1],
    ],
  );
  t.same(Object.fromEntries(tolerated), { 'open-reading': 1 });
});

t.test('an oracle that stopped leaves the comparison skipped, unless it found a difference before', async (t) => {
  for (const [status, expected] of [
    [200, 'skipped'],
    [400, 'failed'],
  ] as const) {
    const listeners: ((e: never) => void)[] = [];
    const session = {
      target: { label: 'the other one' },
      stopped: () => 'the other one stopped answering',
      ask: async () => ({
        answer: { status: 200, headers: {}, text: '[]', json: [], durationMs: 1 },
        facts: { apiKey: 'k', authorization: 'Bearer k', lagging: false },
      }),
    };
    const check = oracleCheck({ operations: [], client: { observe: (l: never) => listeners.push(l) } } as never, session as never, new Map());
    const response = { status, headers: {}, text: '', json: status === 200 ? [] : {}, durationMs: 1 };
    for (const listener of listeners)
      listener({ family: 'state', request: { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets' }, response } as never);
    t.equal((await check.run({} as never)).status, expected, `the target answered ${status}`);
  }
});

t.test('under --read-only the comparison still runs: it writes nothing itself', async (t) => {
  const { url, key } = await startTestServer(t);
  const oracle = await startTestOracle(t, key);
  const result = await runConformance({ baseUrl: url, apiKey: key, seed: 3, runs: 3, families: ['not-found'], readOnly: true, oracle });
  t.equal(result.checks.find((c) => c.id === 'oracle.same-outcome')?.status, 'passed');
});

t.test('a comparison that mirrored nothing is not run, one that did passes without a note', async (t) => {
  for (const heard of [0, 1]) {
    const listeners: ((e: never) => void)[] = [];
    const ok = { status: 200, headers: {}, text: '[]', json: [], durationMs: 1 };
    const session = {
      target: { label: 'x' },
      stopped: () => undefined,
      ask: async () => ({ answer: ok, facts: { apiKey: 'k', authorization: 'Bearer k', lagging: false } }),
    };
    const check = oracleCheck({ operations: [], client: { observe: (l: never) => listeners.push(l) } } as never, session as never, new Map());
    for (let i = 0; i < heard; i++)
      for (const listener of listeners)
        listener({ family: 'state', request: { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets' }, response: ok } as never);
    const outcome = await check.run({} as never);
    t.same([outcome.status, outcome.note === undefined], heard ? ['passed', true] : ['not run', false]);
  }
});

t.test("a pet the run created is read from the oracle by the oracle's id: the two ids are paired at the 201, whatever each server gives", async (t) => {
  // The target gives ids from 9007199254740993, the oracle random ones, and each has its own key.
  const { url, key } = await startTestServer(t, { ids: 'large', apiKeys: ['target-key-5a1'] });
  const oracle = await startTestOracle(t, 'oracle-key-7c2');
  const created = new Set<string>();
  const reads: [string, number, number][] = [];
  await runConformance({
    baseUrl: url,
    apiKey: key,
    seed: 5,
    runs: 5,
    families: ['state', 'oracle'],
    oracle,
    observeOracle: (exchange, answer) => {
      const { request, response } = exchange;
      if (request.method === 'POST' && response.status === 201) created.add(/"id":(\d+)/.exec(response.text)?.[1] ?? '');
      const id = /^\/pets\/(\d+)$/.exec(request.path)?.[1];
      if (request.method === 'GET' && id !== undefined && created.has(id)) reads.push([request.path, response.status, answer.status]);
    },
  });
  t.ok(reads.length >= 3, `${reads.length} reads of the run's own pets were mirrored`);
  t.same(
    reads.filter(([, mine, theirs]) => mine !== theirs),
    [],
    'the oracle served each as the target did: its id was the one it gave',
  );
});

t.test("a difference shows the oracle's answer, cut after 160 characters with an ellipsis; a short one whole", async (t) => {
  const { url, key } = await startTestServer(t);
  // A target that refuses every page of 100, which the oracle serves: the run's own pets, more than 160 characters of them.
  const front = await startFront(t, url, async (req, forward) =>
    req.method === 'GET' && /[?&]limit=100(&|$)/.test(req.path)
      ? jsonAnswer(400, { code: 'too_many', message: 'pages of 100 are refused', status: 400 })
      : forward(),
  );
  const oracle = await startTestOracle(t, key);
  const result = await runConformance({ baseUrl: front, apiKey: key, seed: 3, runs: 5, families: ['state'], oracle });
  const messages = result.failures.map((f) => f.message);
  const long = messages.find((m) => /answered 400 by the target and 200 by the oracle/.test(m));
  t.match(long, /the reference server answered 200 \[\{.{150,170}…/, 'the list, cut');
  t.notMatch(long, /…[^\n]*…/, 'once');
});

t.test('a path names a pet of the run by a whole segment, never by a digit of one', async (t) => {
  const createdAt = new Map([['1', 10]]);
  t.equal(namedPet('/pets/1?limit=12', createdAt), 10);
  t.equal(namedPet('/pets/12', createdAt), undefined, 'pet 12 is not pet 1');
  t.equal(namedPet('/pets?limit=1', createdAt), undefined, 'a query value is no segment');
});

t.test('an answer in a difference: its status, and its body when it has one', async (t) => {
  const answer = (status: number, text: string) => ({ status, headers: {}, text, json: undefined, durationMs: 1 });
  t.equal(describeAnswer(answer(204, '')), '204');
  t.equal(describeAnswer(answer(401, '{"code":"unauthorized"}')), '401 {"code":"unauthorized"}');
});
