// Hostile input: arbitrary methods, paths, query strings, headers and bodies,
// valid and not, over raw sockets and over undici. Whatever arrives, the
// answer is a well-formed HTTP/1.1 response, never a 5xx, an Error body for
// every error, nothing created unless a 201 said so, and the server keeps
// serving. The seed is fixed and printed; FUZZ_SEED=<n> replays another run.
import fc from 'fast-check';
import t from 'tap';
import { Agent, errors as undiciErrors, request as undiciRequest } from 'undici';
import { createServer } from '../../src/server/index.js';
import { errorBodyProblems, parseResponses, send, type WireResponse } from './wire.js';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_122);
const KEY = 'fuzz-key-0123456789';
const RAW_RUNS = 300;
const UNDICI_RUNS = 300;
const TIME_LIMIT_MS = 12_000;

const token = fc.string({ unit: fc.constantFrom(..."!#$%&'*+-.^_`|~ABCXYZabcxyz0129"), minLength: 1, maxLength: 12 });
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
/** Printable text with its spaces percent-encoded, so that most request lines stay parsable. */
const urlText = (maxLength: number) => fc.string({ maxLength }).map((s) => s.replace(/ /g, '%20'));

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'POST') },
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH', 'TRACE', 'CONNECT') },
  { weight: 2, arbitrary: fc.constantFrom('get', 'post', 'Get', 'FOO', 'M-SEARCH', 'PURGE', 'PROPFIND', 'PRI', 'QUERY') },
  { weight: 1, arbitrary: token },
);

const segment = fc.oneof(
  fc.constantFrom(
    'pets',
    'v1',
    '1',
    '0',
    '-1',
    '9223372036854775807',
    '9223372036854775808',
    '00000000000000000000001',
    '..',
    '.',
    '',
    '%',
    '%zz',
    '%2e%2e',
    '%2F',
    '%00',
    '%F0%9F%90%B6',
    '🐶',
    'x'.repeat(3000),
  ),
  urlText(12),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
const path = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('/v1/pets', '/v1/pets/1') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '/v1/pets',
      '/v1/pets/1',
      '/v1/pets/2',
      '/v1/pets/',
      '/v1',
      '/',
      '*',
      '/v1/../v1/pets',
      '/v1/pets/..',
      '/v1//pets',
      'http://127.0.0.1/v1/pets',
      '127.0.0.1:80',
      `/v1/pets/${'9'.repeat(9000)}`,
    ),
  },
  { weight: 4, arbitrary: fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/v1/${parts.join('/')}`) },
  { weight: 1, arbitrary: anyText.map((s) => `/${s}`) },
);

const queryKey = fc.oneof(fc.constantFrom('limit', 'status', '__proto__', 'constructor', 'prototype', 'limit[]', ''), urlText(6));
const queryValue = fc.oneof(
  fc.constantFrom(
    '1',
    '20',
    '100',
    '101',
    '0',
    '-1',
    '1.0',
    '1e2',
    '01',
    ' 5',
    '0x10',
    '99999999999999999999',
    'available',
    'pending',
    'sold',
    'AVAILABLE',
    '%',
    '%zz',
    '%E0%A4%A',
    '',
  ),
  urlText(8),
);
const query = fc.oneof(
  fc.constant(''),
  fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => `?${new URLSearchParams(pairs).toString()}`),
);

const validPet = fc
  .record(
    {
      name: fc.string({ maxLength: 20 }),
      categoryId: fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
      status: fc.constantFrom('available', 'pending', 'sold'),
    },
    { requiredKeys: ['name', 'categoryId'] },
  )
  .map((pet) => JSON.stringify(pet, (_k, v: unknown) => (typeof v === 'bigint' ? `@${v}@` : v)).replace(/"@(-?\d+)@"/g, '$1'));
const body = fc.oneof(
  { weight: 3, arbitrary: fc.constant('') },
  { weight: 4, arbitrary: validPet },
  { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{',
      '{"name":"a","categoryId":1e400}',
      '{"__proto__":{"name":"a"},"categoryId":1}',
      '\ufeff{"name":"a","categoryId":1}',
      '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      'null',
    ),
  },
  { weight: 1, arbitrary: anyText },
);

const auth = fc.oneof(
  { weight: 5, arbitrary: fc.constant(`Bearer ${KEY}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(`bearer ${KEY}`, `Bearer  ${KEY}`, 'Bearer', 'Bearer ', `Basic ${KEY}`, `Bearer ${KEY}x`, `Bearer ${KEY.slice(0, -1)}`),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const headerPair = fc.oneof(
  fc.tuple(
    fc.constant('Content-Type'),
    fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json; charset=latin1', '', 'APPLICATION/JSON'),
  ),
  fc.tuple(fc.constant('Content-Length'), fc.constantFrom('0', '1', '5', '-1', '99999999999', '1e3', ' 3', '3, 3', 'abc')),
  fc.tuple(fc.constant('Transfer-Encoding'), fc.constantFrom('chunked', 'gzip', 'gzip, chunked', 'chunked, gzip', 'identity', 'Chunked', '')),
  fc.tuple(
    fc.constantFrom('Connection', 'Expect', 'Upgrade', 'Origin', 'Access-Control-Request-Method', 'Accept', 'Host', 'Authorization'),
    fc.oneof(fc.constantFrom('close', 'keep-alive', 'upgrade', '100-continue', 'websocket', 'h2c', 'GET', '*'), fc.string({ maxLength: 10 })),
  ),
  fc.tuple(token, fc.string({ maxLength: 20 })),
);

/** How a raw request's body is framed: by the generator's own headers only, or also a correct length, or chunked. */
const framing = fc.constantFrom('content-length', 'content-length', 'content-length', 'chunked', 'none');

const contentType = fc.option(fc.constant('application/json'), { freq: 3 });
const hostileCase = fc.record({
  host: fc.option(fc.constantFrom('127.0.0.1', '', 'a b', 'x'.repeat(300)), { freq: 4 }),
  method,
  path,
  query,
  auth: fc.option(auth, { freq: 5 }),
  contentType,
  headers: fc.array(headerPair, { maxLength: 3 }),
  body,
  framing,
  version: fc.oneof({ weight: 8, arbitrary: fc.constant('HTTP/1.1') }, fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', 'HTTP/1.1\r\n', '')),
});
/** Well-framed requests to the interface's own paths, so that the fuzz also reaches the operations. */
const plausibleCase = fc.record({
  host: fc.constant('127.0.0.1'),
  method: fc.constantFrom('GET', 'POST', 'POST', 'HEAD', 'OPTIONS'),
  path: fc.constantFrom('/v1/pets', '/v1/pets', '/v1/pets', '/v1/pets/1', '/v1/pets/2', '/v1/pets/0'),
  query,
  auth: fc.option(auth, { freq: 8 }),
  contentType,
  headers: fc.array(
    fc.tuple(
      fc.constantFrom('Origin', 'Accept', 'X-Request-Id', 'Content-Type'),
      fc.constantFrom('https://a.example', '*/*', 'abc', 'application/json; charset=utf-8'),
    ),
    { maxLength: 2 },
  ),
  body: fc.oneof(validPet, body),
  framing: fc.constantFrom('content-length', 'chunked'),
  version: fc.constant('HTTP/1.1'),
});
const rawCase = fc.oneof(plausibleCase, hostileCase);

function rawBytes(c: RawCase): Buffer {
  const lines = [`${c.method} ${c.path}${c.query} ${c.version}`.trimEnd()];
  if (c.host !== null) lines.push(`Host: ${c.host}`);
  if (c.auth !== null) lines.push(`Authorization: ${c.auth}`);
  if (c.contentType !== null) lines.push(`Content-Type: ${c.contentType}`);
  for (const [name, value] of c.headers) lines.push(`${name}: ${value}`);
  const payload = Buffer.from(c.body, 'utf8');
  let framed = payload;
  if (c.framing === 'content-length' && payload.length > 0) lines.push(`Content-Length: ${payload.length}`);
  if (c.framing === 'chunked') {
    lines.push('Transfer-Encoding: chunked');
    framed = Buffer.concat([
      payload.length ? Buffer.from(`${payload.length.toString(16)}\r\n`) : Buffer.alloc(0),
      payload,
      payload.length ? Buffer.from('\r\n') : Buffer.alloc(0),
      Buffer.from('0\r\n\r\n'),
    ]);
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), framed]);
}
type RawCase = typeof rawCase extends fc.Arbitrary<infer T> ? T : never;

/** Everything wrong with one answer, given whether it answers a HEAD. */
function answerProblems(r: WireResponse, head: boolean): string[] {
  const problems: string[] = [];
  if (r.status >= 500) problems.push(`a ${r.status}: ${r.body.toString('utf8').slice(0, 200)}`);
  if (r.status >= 400 && !head) problems.push(...errorBodyProblems(r));
  if (r.status >= 200 && r.status < 300 && r.body.length > 0) {
    if (r.headers['content-type']?.[0] !== 'application/json') problems.push(`${r.status}: Content-Type ${r.headers['content-type']?.[0]}`);
    try {
      JSON.parse(r.body.toString('utf8'));
    } catch {
      problems.push(`${r.status}: the body is not JSON`);
    }
  }
  return problems;
}

t.test(`fuzz (seed ${SEED}): every answer is well-formed HTTP/1.1, never 5xx, an Error body for every error; the server keeps serving`, async (t) => {
  t.comment(`fast-check seed ${SEED} (FUZZ_SEED=${SEED} replays this run)`);
  const reported: unknown[] = [];
  const server = createServer({
    apiKeys: [KEY],
    limits: { maxBodyBytes: 64 * 1024, headersTimeoutMs: 2_000, requestTimeoutMs: 3_000, keepAliveTimeoutMs: 1_000 },
    onError: (error) => reported.push(error),
  });
  const url = await server.listen(0, '127.0.0.1');
  const port = Number(new URL(url).port);
  const agent = new Agent({ connections: 8, headersTimeout: 5_000, bodyTimeout: 5_000 });
  t.teardown(async () => {
    await agent.close();
    await server.close(500);
  });
  /** The JSON of every 201 seen, by id: after the run, exactly these pets exist. */
  const created = new Map<string, string>();
  const statuses = new Map<string, number>();
  const record = (status: number, text: string) => {
    const code = status >= 400 ? /"code":"(\w+)"/.exec(text)?.[1] : undefined;
    const key = code ? `${status} ${code}` : String(status);
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
    if (status !== 201) return;
    const id = /^\{"id":(\d+),/.exec(text)?.[1];
    if (id) created.set(id, text);
  };

  // Raw sockets: anything at all, then FIN; read to the close.
  const raw = await fc.check(
    fc.asyncProperty(rawCase, async (c) => {
      const bytes = rawBytes(c);
      const exchange = await send(port, bytes, { timeoutMs: 6_000 });
      const problems: string[] = [];
      if (!exchange.closed) problems.push('the server neither answered in full nor closed within 6 s');
      const parsed = parseResponses(exchange.data, [c.method === 'HEAD']);
      problems.push(...parsed.problems);
      const finals = parsed.responses.filter((r) => r.status >= 200);
      if (finals.length === 0) problems.push(`no answer at all${exchange.error ? ` (${exchange.error})` : ''}`);
      finals.forEach((r, i) => {
        problems.push(...answerProblems(r, i === 0 && c.method === 'HEAD'));
        record(r.status, r.body.toString('utf8'));
      });
      if (problems.length) throw new Error(`${problems.join('; ')}\nsent: ${JSON.stringify(bytes.toString('latin1').slice(0, 600))}`);
    }),
    { seed: SEED, numRuns: RAW_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false, includeErrorInReport: true },
  );
  t.ok(!raw.failed, raw.failed ? `raw sockets: ${fc.defaultReportMessage(raw)}` : `raw sockets: ${raw.numRuns} requests, all answered well`);
  t.ok(raw.numRuns >= 100, `at least 100 raw requests ran in the time allowed (${raw.numRuns})`);

  // undici: what a real client can send. Requests undici itself refuses to
  // send (an invalid header, a length that does not match) are not counted.
  let refusedByClient = 0;
  const undiciCase = fc.record({
    method,
    path,
    query,
    auth: fc.option(auth, { freq: 5 }),
    headers: fc.array(headerPair, { maxLength: 2 }),
    body,
    json: fc.boolean(),
  });
  const viaUndici = await fc.check(
    fc.asyncProperty(undiciCase, async (c) => {
      const headers: [string, string][] = [];
      if (c.auth !== null) headers.push(['authorization', c.auth]);
      if (c.json) headers.push(['content-type', 'application/json']);
      for (const [name, value] of c.headers) headers.push([name, value]);
      const target = `http://127.0.0.1:${port}${c.path.startsWith('/') ? c.path : `/${c.path}`}${c.query}`;
      let res: Awaited<ReturnType<typeof undiciRequest>>;
      try {
        res = await undiciRequest(target, {
          dispatcher: agent,
          method: c.method,
          headers: headers.flat(),
          body: c.body === '' || c.method === 'GET' || c.method === 'HEAD' ? null : c.body,
        });
      } catch (error) {
        const clientSide =
          error instanceof undiciErrors.InvalidArgumentError ||
          error instanceof undiciErrors.NotSupportedError ||
          error instanceof undiciErrors.RequestContentLengthMismatchError ||
          error instanceof TypeError; // an invalid URL
        if (clientSide) {
          refusedByClient++;
          return;
        }
        throw new Error(`transport error ${String((error as Error).message)} for ${c.method} ${target.slice(0, 200)}`);
      }
      const bodyBytes = Buffer.from(await res.body.arrayBuffer());
      const headersOut: Record<string, string[]> = {};
      for (const [name, value] of Object.entries(res.headers)) headersOut[name] = ([] as string[]).concat(value ?? []);
      const r: WireResponse = { status: res.statusCode, headers: headersOut, body: bodyBytes };
      const problems = answerProblems(r, c.method.toUpperCase() === 'HEAD');
      const length = headersOut['content-length']?.[0];
      if (c.method.toUpperCase() !== 'HEAD' && length !== undefined && Number(length) !== bodyBytes.length)
        problems.push(`Content-Length ${length} for ${bodyBytes.length} bytes`);
      record(r.status, bodyBytes.toString('utf8'));
      if (problems.length)
        throw new Error(`${problems.join('; ')}\nsent: ${c.method} ${target.slice(0, 300)} ${JSON.stringify(headers)} ${JSON.stringify(c.body.slice(0, 200))}`);
    }),
    { seed: SEED, numRuns: UNDICI_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false, includeErrorInReport: true },
  );
  t.ok(
    !viaUndici.failed,
    viaUndici.failed
      ? `undici: ${fc.defaultReportMessage(viaUndici)}`
      : `undici: ${viaUndici.numRuns} requests (${refusedByClient} refused by undici itself), all answered well`,
  );
  t.ok(viaUndici.numRuns - refusedByClient >= 100, 'at least 100 requests reached the server through undici');

  t.comment(
    `answers by status: ${[...statuses]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(', ')}`,
  );
  t.strictSame(reported.map(String), [], 'the server reported no unexpected error');
  const check = await undiciRequest(`${url}/pets?limit=100`, { dispatcher: agent, headers: { authorization: `Bearer ${KEY}` } });
  t.equal(check.statusCode, 200, 'after the run a normal request is answered 200');
  await check.body.text();

  // Nothing lost, nothing altered: the store holds exactly the pets whose 201 was seen, as they were answered.
  t.equal(server.store.size, created.size, `the store holds exactly the ${created.size} pets a 201 announced`);
  const altered: string[] = [];
  for (const [id, json] of created) {
    const got = await undiciRequest(`${url}/pets/${id}`, { dispatcher: agent, headers: { authorization: `Bearer ${KEY}` } });
    const text = await got.body.text();
    if (got.statusCode !== 200 || text !== json) altered.push(`${id}: ${got.statusCode} ${text} ≠ ${json}`);
  }
  t.strictSame(altered, [], 'getPet answers each created pet exactly as its 201 did');
});
