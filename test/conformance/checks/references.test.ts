// The names answers give (conformance/checks/references.ts): a 201's
// Location, a followed Link, a 2xx's Content-Location. Answers written by
// hand are heard as the run's; a small server holds the pets 1 and 2, and
// its log shows what was read, and that nothing went to another origin.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { createHearing, followedLinks, judgeRead, referencesCheck, referencesIn, toRead, type Reference } from '../../../conformance/checks/references.js';
import { createClient, type Exchange, type Observer } from '../../../conformance/client.js';
import type { CheckContext } from '../../../conformance/vocabulary.js';
import { runConformance } from '../../../conformance/index.js';
import { operations } from '../../../spec/operations.js';
import { startTestServer } from '../../helpers/server.js';

const KEY = 'secret-key-123';

interface Origin {
  readonly url: string;
  /** `METHOD path authorization` of each request it got. */
  readonly log: string[];
}

/** Serves pets 1 and 2 under /v1/pets/{id}, the list at /v1/pets, and 404 for anything else. */
async function startOrigin(t: Test): Promise<Origin> {
  const log: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    log.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    const pet = /^\/v1\/pets\/(\d+)$/.exec(req.url ?? '')?.[1];
    const found = pet === '1' || pet === '2' ? `{"id":${pet},"name":"Rex","categoryId":1}` : req.url === '/v1/pets' ? '[]' : undefined;
    res.writeHead(found === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(found ?? '{"code":"not_found","message":"none","status":404}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}

/** A context whose client reaches `origin` for real, and whose observers can also be handed answers written by hand. */
function contextFor(origin: Origin, now = Date.now()): { ctx: CheckContext; hear: (exchange: Exchange) => void } {
  const real = createClient({ baseUrl: `${origin.url}/v1`, apiKey: KEY, timeoutMs: 5000, concurrency: 2, rate: 0, maxWrites: 10, maxResponseBytes: 1 << 20 });
  t.teardown(() => real.close());
  const observers: Observer[] = [];
  const client = { ...real, observe: (o: Observer) => void observers.push(o) };
  const ctx = {
    client,
    operations,
    async send(family: string, { auth: _auth, headers, ...rest }: { auth?: string | null; headers?: Record<string, string> } & Record<string, unknown>) {
      const request = { ...rest, headers: { authorization: real.authorization, ...headers } } as never;
      return { request, response: await real.send(family, request) };
    },
    readAfterWrite: (read: () => Promise<unknown>) => read(),
    targetNow: () => now,
    timeLeft: () => 60_000,
  } as unknown as CheckContext;
  return {
    ctx,
    hear: (exchange) => {
      for (const o of observers) o(exchange);
    },
  };
}

/** An answer of the run, to `request`. */
const answer = (status: number, headers: Record<string, string>, json?: unknown, path = '/pets', method = 'POST'): Exchange =>
  ({
    family: 'state',
    request: { method, path, headers: {}, operationId: method === 'POST' ? 'createPet' : 'listPets' },
    response: { status, headers, text: '', json, durationMs: 1 },
  }) as never;
const created = (id: bigint, location: string) => answer(201, { location }, { id, name: 'Rex', categoryId: 1n });

async function verdict(origin: Origin, exchanges: Exchange[], now?: number) {
  const { ctx, hear } = contextFor(origin, now);
  const check = referencesCheck(ctx);
  for (const exchange of exchanges) hear(exchange);
  return check.run(ctx);
}

t.test('a Location that names the pet created passes, read once with the key', async (t) => {
  const origin = await startOrigin(t);
  const outcome = await verdict(origin, [created(1n, '/v1/pets/1'), created(1n, `${origin.url}/v1/pets/1`)]);
  t.match(outcome, { id: 'http.references', family: 'http', operationId: '*', status: 'passed' });
  t.same(origin.log, [`GET /v1/pets/1 Bearer ${KEY}`], 'the relative and the absolute form are one name, read once');
});

t.test('a Location that names nothing fails, naming the 201 and the read', async (t) => {
  const origin = await startOrigin(t);
  const outcome = await verdict(origin, [created(1n, '/pets/1')]);
  t.equal(outcome.status, 'failed');
  t.equal(
    outcome.failure?.message,
    `the 201 for pet 1 to POST /pets names ${origin.url}/pets/1 (Location: /pets/1), but GET /pets/1 with the key is answered 404: it names a resource that does not exist`,
  );
  t.equal(outcome.failure?.response?.status, 404, 'the evidence is the read');
  t.equal(outcome.failure?.operationId, 'createPet', 'reported against the answer that gave the name');
});

t.test('a Location that names another pet than the one created fails', async (t) => {
  const origin = await startOrigin(t);
  const outcome = await verdict(origin, [created(1n, '/v1/pets/2')]);
  t.match(outcome.failure?.message, /GET \/v1\/pets\/2 with the key serves pet 2, not pet 1: it names another resource than the one created/);
});

t.test('a Location on another origin is not read: the key stays with the target', async (t) => {
  const origin = await startOrigin(t);
  const elsewhere = await startOrigin(t);
  const outcome = await verdict(origin, [created(1n, `${elsewhere.url}/v1/pets/1`), created(2n, 'https://api.example.com/petstore/v1/pets/2')]);
  t.equal(outcome.status, 'skipped');
  t.match(outcome.note, new RegExp(`not read, as the key stays with the target: ${elsewhere.url}, https://api.example.com \\(another origin\\)`));
  t.same(elsewhere.log, [], 'nothing was sent to the other origin');
  t.same(origin.log, []);
});

t.test('followed Link targets must not be 404 or 410; other relations are not followed', async (t) => {
  const origin = await startOrigin(t);
  const link = '</v1/pets>; rel="successor-version", </v1/old>; rel="alternate", </v1/next>; rel=next';
  const outcome = await verdict(origin, [answer(200, { link }, [], '/pets/1', 'GET')]);
  t.match(outcome.failure?.message, /the 200 to GET \/pets\/1 names .*\/v1\/old \(Link: \/v1\/old\), but GET \/v1\/old with the key is answered 404/);
  t.same(origin.log.map((l) => l.split(' ')[1]).sort(), ['/v1/old', '/v1/pets'], 'rel=next is not read');
});

t.test('a Content-Location on a 2xx must be readable; on an error it names nothing', async (t) => {
  const origin = await startOrigin(t);
  const failing = await verdict(origin, [answer(200, { 'content-location': '/v1/pets?page=1' }, [], '/pets', 'GET')]);
  t.match(failing.failure?.message, /\(Content-Location: \/v1\/pets\?page=1\), but GET \/v1\/pets\?page=1 with the key is answered 404/);
  const quiet = await verdict(origin, [answer(404, { 'content-location': '/v1/missing' }, undefined, '/pets/9', 'GET')]);
  t.equal(quiet.status, 'not run', 'a 404 is no representation of anything');
});

t.test('past the removal date of getPet, Locations are not read', async (t) => {
  const origin = await startOrigin(t);
  const onTheDay = await verdict(origin, [created(1n, '/pets/1')], Date.parse('2030-12-05T00:00:00Z'));
  t.equal(onTheDay.status, 'skipped', 'from the removal date itself');
  const outcome = await verdict(origin, [created(1n, '/pets/1')], Date.parse('2031-01-01T00:00:00Z'));
  t.equal(outcome.status, 'skipped');
  t.match(outcome.note, /not read: the Locations, as getPet is past its removal date/);
  t.same(origin.log, []);
});

t.test('at most 20 distinct names are read, each field in turn', async (t) => {
  const origin = await startOrigin(t);
  const many = Array.from({ length: 30 }, (_, i) => created(BigInt(i + 1), `/v1/pets/${i + 1}`));
  const outcome = await verdict(origin, [...many, answer(200, { link: '</v1/gone>; rel="deprecation"' }, [], '/pets/1', 'GET')]);
  t.equal(origin.log.length, 20);
  t.ok(
    origin.log.some((l) => l.startsWith('GET /v1/gone ')),
    'the one Link is read although 30 Locations came first',
  );
  t.equal(outcome.status, 'failed', 'pets 3 and on do not exist here');
});

t.test('names are resolved against the URL of the request they answer', async (t) => {
  const base = 'http://127.0.0.1:1/v1';
  const [relative] = referencesIn(created(7n, 'pets/7'), base, 0);
  t.equal(relative?.url.href, 'http://127.0.0.1:1/v1/pets/7');
  t.equal(relative?.petId, '7');
  const fromOrigin = {
    ...answer(201, { location: '7' }, {}),
    request: { method: 'POST', path: '/admin/pets', fromOrigin: true, headers: {}, operationId: 'x' },
  };
  t.equal(referencesIn(fromOrigin as never, base, 0)[0]?.url.href, 'http://127.0.0.1:1/admin/7');
  t.same(referencesIn(answer(200, { location: '/v1/pets/1' }, {}), base, 0), [], 'a Location on a 200 names no created resource');
  t.same(referencesIn(answer(201, {}, { id: 1n }), base, 0), [], 'a 201 without Location names nothing');
  t.same(
    referencesIn(answer(300, { 'content-location': '/v1/pets/1' }, []), base, 0),
    [],
    'a Content-Location on a 300 names no representation of the content',
  );
  t.same(
    referencesIn(answer(299, { 'content-location': '/v1/pets/1' }, []), base, 0).map((r) => r.field),
    ['Content-Location'],
    'on any 2xx it does',
  );
  t.same(referencesIn(created(1n, 'http://['), base, 0), [], 'a Location that is no URI reference (http.location reports it)');
});

t.test('followedLinks takes successor-version, alternate and deprecation, among several relations too', async (t) => {
  t.same(followedLinks('</a>; rel="successor-version"'), ['/a']);
  t.same(followedLinks('<https://x.test/doc, 1>; rel="help deprecation"; type="text/html", </b>;rel=alternate'), ['https://x.test/doc, 1', '/b']);
  t.same(followedLinks('</c>; rel="next", </d>; anchor="#x"'), []);
  // RFC 8288 §3: link-param = token BWS [ "=" BWS ( token / quoted-string ) ], white space around the "=" allowed.
  t.same(followedLinks('</e>; rel = successor-version, </f>;REL\t="Alternate"'), ['/e', '/f'], 'white space around "=", any case');
});

t.test('the hearing keeps the first 20 distinct names of each field; toRead interleaves them', async (t) => {
  const hearing = createHearing('http://127.0.0.1:1/v1');
  for (let i = 1; i <= 25; i++) hearing.observe(created(BigInt(i), `/v1/pets/${i}`));
  hearing.observe(created(1n, '/v1/pets/1'));
  t.equal(hearing.heard.length, 20);
  const links = Array.from({ length: 3 }, (_, i) => answer(200, { link: `</l${i}>; rel=alternate` }, []));
  for (const l of links) hearing.observe(l);
  t.same(
    toRead(hearing.heard, 4).map((r) => r.field),
    ['Location', 'Link', 'Location', 'Link'],
  );
  const again = referencesIn(created(1n, '/v1/pets/1'), 'http://127.0.0.1:1/v1', 0);
  t.equal(toRead([...again, ...again]).length, 1, 'a name heard twice is read once');
  t.equal(toRead(hearing.heard, 3).length, 3, 'never more than asked, whatever the fields');
});

t.test('under --read-only the names the answers give are still read: reading writes nothing', async (t) => {
  const { url, key } = await startTestServer(t);
  const result = await runConformance({ baseUrl: url, apiKey: key, seed: 3, runs: 3, families: ['http'], checkIds: ['http.references'], readOnly: true });
  t.not(result.checks.find((c) => c.id === 'http.references')?.status, 'skipped');
});

t.test(
  'each read: a GET of the name with the key, judged here alone (off the spec), attributed to the operation its path is; only a Location is read again while 404',
  async (t) => {
    const origin = await startOrigin(t);
    const { ctx, hear } = contextFor(origin);
    const check = referencesCheck(ctx);
    t.equal(check.writes, false, 'reading writes nothing');
    t.equal(check.afterAll, true, 'it reads what every other check heard: it runs after them');
    hear(created(1n, '/v1/pets/1'));
    hear(answer(200, { 'content-location': '/v1/pets' }, [], '/pets', 'GET'));
    hear(answer(200, { link: '</v1/old>; rel="alternate", </elsewhere>; rel="alternate", </v2/pets>; rel="successor-version"' }, [], '/pets/1', 'GET'));
    const sent: unknown[] = [];
    const waited: [number, boolean, boolean][] = [];
    const spied = {
      ...ctx,
      send: (family: string, request: { operationId: string; offSpec?: boolean; fromOrigin?: boolean; method: string; path: string }) => {
        sent.push([family, request.method, request.path, request.operationId, request.offSpec, request.fromOrigin]);
        return ctx.send(family as never, request as never);
      },
      readAfterWrite: async (read: () => Promise<{ response: { status: number } }>, visible: (sent: { response: { status: number } }) => boolean) => {
        const got = await read();
        waited.push([got.response.status, visible(got), visible({ ...got, response: { ...got.response, status: 404 } })]);
        return got;
      },
    } as unknown as CheckContext;
    const outcome = await check.run(spied);
    t.same(
      sent,
      [
        ['http', 'GET', '/v1/pets/1', 'getPet', true, true],
        ['http', 'GET', '/v1/pets', 'listPets', true, true],
        ['http', 'GET', '/v1/old', 'http.references', true, true],
        ['http', 'GET', '/elsewhere', 'http.references', true, true],
        ['http', 'GET', '/v2/pets', 'http.references', true, true],
      ],
      'in turn, each field; a path no operation has (or outside the base path) is the check’s own',
    );
    t.same(waited, [[200, true, false]], 'the Location alone is read through the settle window, until it is not 404');
    t.match(outcome, { id: 'http.references', family: 'http', operationId: '*', title: /./, runs: 5, requests: 5, status: 'failed' });
  },
);

t.test('what was not read is said beside the failures: another origin, the Locations past the removal date; each failure counted', async (t) => {
  const origin = await startOrigin(t);
  const outcome = await verdict(
    origin,
    [
      created(1n, '/v1/pets/1'),
      answer(200, { link: '</v1/old>; rel="alternate", </v1/gone>; rel="deprecation", <https://api.example.com/v1/x>; rel="alternate"' }, [], '/pets', 'GET'),
    ],
    Date.parse('2031-01-01T00:00:00Z'),
  );
  t.equal(outcome.status, 'failed');
  t.match(outcome.failure?.message, / \(and 1 more\)$/);
  t.equal(outcome.extraFailures?.length, 1);
  t.equal(outcome.runs, 2, 'the two Links read');
  t.equal(
    outcome.note,
    'not read, as the key stays with the target: https://api.example.com (another origin); not read: the Locations, as getPet is past its removal date',
  );
  const passing = await verdict(origin, [answer(200, { link: '</v1/pets>; rel="successor-version"' }, [], '/pets/1', 'GET')]);
  t.equal(passing.status, 'passed');
  t.equal(passing.note, undefined, 'no note when everything was read');
  t.equal(
    (await verdict(origin, [answer(200, { link: '</v1/old>; rel="alternate"' }, [], '/pets/1', 'GET')])).failure?.message.includes('more'),
    false,
    'one failure, no count',
  );
});

t.test('a target that stops answering ends the reads: what was read is judged, the rest said', async (t) => {
  const origin = await startOrigin(t);
  const { ctx, hear } = contextFor(origin);
  const check = referencesCheck(ctx);
  hear(created(1n, '/v1/pets/1'));
  hear(created(2n, '/v1/pets/2'));
  let reads = 0;
  const { TransportError } = await import('../../../conformance/client.js');
  const cut = {
    ...ctx,
    send: (family: string, request: unknown) =>
      ++reads === 1 ? ctx.send(family as never, request as never) : Promise.reject(new TransportError('connection refused', {} as never)),
    readAfterWrite: (read: () => Promise<unknown>) => read(),
  } as unknown as CheckContext;
  const outcome = await check.run(cut);
  t.match(outcome, { status: 'passed', runs: 1 }, 'the one read that was answered passed');
  const [none, buggy, late] = [referencesCheck(ctx), referencesCheck(ctx), referencesCheck(ctx)];
  hear(created(1n, '/v1/pets/1'));
  const silent = { ...cut, send: () => Promise.reject(new TransportError('connection refused', {} as never)) } as unknown as CheckContext;
  t.match(await none.run(silent), { status: 'skipped', runs: 0, note: /^the reads got no answer: connection refused/ });
  const broken = { ...cut, send: () => Promise.reject(new Error('a bug')) } as unknown as CheckContext;
  await t.rejects(buggy.run(broken), /a bug/, 'anything else is a failure of the suite, not of the target');
  t.match(
    await late.run({ ...ctx, timeLeft: () => 0 } as unknown as CheckContext),
    { status: 'skipped', runs: 0, note: 'nothing to read' },
    'no time left: nothing read',
  );
});

t.test('what a read shows wrong, by the field that gave the name', async (t) => {
  const reference = (field: Reference['field'], petId?: string) => ({ field, petId }) as unknown as Reference;
  const read = (status: number, json?: unknown) => ({ status, headers: {}, text: '', json, durationMs: 1 }) as never;
  // A Location: the pet created, served 200.
  t.equal(judgeRead(reference('Location', '1'), read(200, { id: 1n, name: 'Rex', categoryId: 1n })), undefined);
  t.equal(judgeRead(reference('Location', '1'), read(200, { id: 2n })), 'serves pet 2, not pet 1');
  t.equal(judgeRead(reference('Location', '1'), read(200, { name: 'Rex' })), 'serves no pet, not pet 1');
  t.equal(judgeRead(reference('Location'), read(200, { id: 2n })), undefined, 'a 201 that gave no id: any pet will do');
  t.equal(judgeRead(reference('Location', '1'), read(204)), 'is answered 204', 'nothing but 200 is the pet');
  // A Content-Location: any 2xx.
  for (const status of [200, 204, 299]) t.equal(judgeRead(reference('Content-Location'), read(status)), undefined, `${status}`);
  for (const status of [300, 404]) t.equal(judgeRead(reference('Content-Location'), read(status)), `is answered ${status}`, `${status}`);
  // A followed Link: anything but a resource that is not there, or gone.
  for (const status of [404, 410]) t.equal(judgeRead(reference('Link'), read(status)), `is answered ${status}`, `${status}`);
  for (const status of [200, 300, 401]) t.equal(judgeRead(reference('Link'), read(status)), undefined, `${status}`);
});
