// The passive judge (conformance/passive/judge.ts): every exchange that passed
// through the proxy judged by the suite's own rules. It finds nothing in what a
// correct server answers to the suite's whole run, and it finds, in one exchange,
// what a broken server's single answer shows.
import { gzipSync, deflateSync, brotliCompressSync } from 'node:zlib';
import t, { type Test } from 'tap';
import type { Exchange } from '../../../conformance/client.js';
import { runConformance, type ConformanceResult, type Family } from '../../../conformance/index.js';
import { createPassiveJudge, toExchange, type PassedExchange, type PassiveFinding } from '../../../conformance/passive/judge.js';
import { operations } from '../../../spec/operations.js';
import { startVariant } from '../../../fixtures/implementations/index.mjs';
import { startTestServer } from '../../helpers/server.js';

/** The codings a client undoes, applied again: the bytes the proxy saw on the wire carry the same text. */
const ENCODERS: Readonly<Record<string, (bytes: Buffer) => Buffer>> = {
  gzip: (b) => gzipSync(b),
  'x-gzip': (b) => gzipSync(b),
  deflate: (b) => deflateSync(b),
  br: (b) => brotliCompressSync(b),
};

/** The exchange the suite recorded as the proxy would hand it over: lower-case fields, the body's bytes as they came. */
export function passedOf({ request, response }: Exchange): PassedExchange {
  const requestHeaders: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    const key = name.toLowerCase();
    const earlier = requestHeaders[key];
    requestHeaders[key] = earlier === undefined ? (Array.isArray(value) ? [...value] : (value as string)) : ([earlier, value].flat() as string[]);
  }
  let bytes: Buffer = Buffer.from(response.text, 'utf8');
  for (const coding of (response.coding ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean))
    bytes = ENCODERS[coding]!(bytes);
  return {
    method: request.method,
    path: request.path,
    requestHeaders,
    ...(request.body !== undefined ? { requestBody: Buffer.from(request.body, 'utf8') } : {}),
    status: response.status,
    responseHeaders: response.headers,
    responseBody: bytes,
    durationMs: response.durationMs,
  };
}

/**
 * A run of the suite with every answer also handed to a passive judge, in the order they were answered. Messages
 * written by hand (raw) reach an upstream through a proxy only as the proxy frames them again, and targets outside the
 * base path are passed on unjudged: neither is an exchange the proxy judges.
 */
export async function judgedRun(baseUrl: string, apiKey: string, options: { families?: readonly Family[]; runs?: number } = {}) {
  const judge = createPassiveJudge();
  const findings: { finding: PassiveFinding; exchange: Exchange }[] = [];
  const result: ConformanceResult = await runConformance({
    baseUrl,
    apiKey,
    seed: 7,
    runs: options.runs ?? 10,
    ...(options.families ? { families: options.families } : {}),
    settleMs: 0,
    observe: (exchange) => {
      if (exchange.request.raw !== undefined || exchange.request.fromOrigin) return;
      for (const finding of judge.judge(passedOf(exchange))) findings.push({ finding, exchange });
    },
  });
  return { result, findings };
}

const show = (found: readonly { finding: PassiveFinding; exchange: Exchange }[]) =>
  found
    .slice(0, 12)
    .map(
      ({ finding, exchange }) =>
        `${finding.severity} ${finding.rule}: ${finding.problem} [${exchange.request.method} ${exchange.request.path} -> ${exchange.response.status}${exchange.request.offSpec ? ' offSpec' : ''}]`,
    )
    .join('\n');

t.test('every answer of a whole run against the reference server passes the judge, advisories included', async (t) => {
  const { url, key } = await startTestServer(t);
  const started = performance.now();
  const { result, findings } = await judgedRun(url, key);
  t.comment(`${result.requests} requests in ${Math.round(performance.now() - started)} ms`);
  t.ok(result.ok, 'the run itself passed');
  t.same(
    findings.map((f) => f.finding.rule),
    [],
    show(findings),
  );
});

/** Warnings are the advisories the run itself gave: the judge grades an answer as the suite does. */
const advisoriesOnly = (t: Test, result: ConformanceResult, found: readonly { finding: PassiveFinding; exchange: Exchange }[]) => {
  const errors = found.filter((f) => f.finding.severity === 'error');
  t.same(
    errors.map((f) => f.finding.rule),
    [],
    show(errors),
  );
  const decisions = new Set(result.advisories.map((a) => a.decision));
  const unheard = found.filter((f) => f.finding.severity === 'warning' && !decisions.has(f.finding.kind));
  t.same(
    unheard.map((f) => f.finding.kind),
    [],
    'every warning is an advisory the run gave too',
  );
};

for (const name of [
  'compresses-answers',
  'conditional-and-ranges',
  'normalizes-routes',
  'large-sequential-ids',
  'first-member-wins',
  'default-status-available',
]) {
  t.test(`a correct implementation (${name}): nothing but the advisories its run gives`, async (t) => {
    const target = await startVariant(name, { apiKey: 'test-key-123' });
    t.teardown(() => target.close());
    const { result, findings } = await judgedRun(target.url, target.apiKey, { runs: 5 });
    t.ok(result.ok, 'the run itself passed');
    advisoriesOnly(t, result, findings);
  });
}

/** Broken implementations whose defect one answer shows (or, for the state rules, the answers that passed by). */
const BROKEN: readonly { name: string; rule: string; families: readonly Family[] }[] = [
  { name: 'no-date-header', rule: 'http.date', families: ['http'] },
  { name: 'unknown-pet-500', rule: 'responses.no-server-error', families: ['not-found'] },
  { name: 'stack-trace-in-errors', rule: 'leaks.internals', families: ['leaks'] },
  { name: 'empty-401-body', rule: 'responses.error-body', families: ['auth'] },
  { name: 'loses-int64-precision', rule: 'validation.createPet.valid-body', families: ['validation'] },
  { name: 'create-returns-200', rule: 'responses.createPet', families: ['validation'] },
  { name: 'wrong-sunset-date', rule: 'deprecation.getPet.signals', families: ['deprecation'] },
  { name: 'deprecates-every-operation', rule: 'deprecation.listPets.not-deprecated', families: ['deprecation'] },
  { name: 'echoes-key-on-success', rule: 'leaks.listPets.key', families: ['leaks'] },
  { name: 'json-with-bom', rule: 'json.encoding', families: ['json'] },
  { name: 'challenge-missing', rule: 'http.challenge', families: ['auth'] },
  { name: 'returns-limit-plus-one', rule: 'state.page-size', families: ['limits'] },
  { name: 'reuses-ids', rule: 'state.id-reused', families: ['state'] },
  { name: 'get-pet-omits-status', rule: 'state.created-unchanged', families: ['state'] },
  { name: 'gone-early', rule: 'deprecation.getPet.signals', families: ['deprecation'] },
];

for (const { name, rule, families } of BROKEN) {
  t.test(`a broken implementation (${name}) breaks ${rule}`, async (t) => {
    const target = await startVariant(name, { apiKey: 'test-key-123' });
    t.teardown(() => target.close());
    const { findings } = await judgedRun(target.url, target.apiKey, { runs: 5, families });
    const hit = findings.find((f) => f.finding.rule === rule);
    t.ok(hit, `found: ${[...new Set(findings.map((f) => f.finding.rule))].join(', ')}`);
    t.equal(hit?.finding.severity, 'error');
  });
}

const passed = (over: Partial<PassedExchange> = {}): PassedExchange => ({
  method: 'GET',
  path: '/pets/1',
  requestHeaders: { authorization: 'Bearer secret-key-1' },
  status: 200,
  responseHeaders: { 'content-type': 'application/json', date: new Date().toUTCString() },
  responseBody: Buffer.from('{"id":1,"name":"Rex","categoryId":1}'),
  durationMs: 1,
  ...over,
});

t.test('a request that is not the operation as the spec spells it is marked off the spec, as the suite marks its own', async (t) => {
  const marked = (over: Partial<PassedExchange>) => toExchange(passed(over), operations).request;
  t.same([marked({}).operationId, marked({}).offSpec], ['getPet', undefined], 'GET /pets/1 is getPet, as spelled');
  t.same([marked({ path: '/pets?limit=5' }).operationId, marked({ path: '/pets?limit=5' }).offSpec], ['listPets', undefined]);
  const others: Partial<PassedExchange>[] = [
    { method: 'HEAD' },
    { method: 'DELETE' },
    { path: '/pets/1.json' },
    { path: '/pets/%31' },
    { path: '/pets/1;v=1' },
    { path: '/pets?' },
    { requestHeaders: { 'if-none-match': '"x"' } },
    { requestHeaders: { range: 'bytes=0-9' } },
    { requestHeaders: { 'x-http-method-override': 'DELETE' } },
    { requestHeaders: { authorization: ['Bearer a', 'Bearer b'] } },
    { requestHeaders: { accept: 'text/html' } },
    { requestHeaders: { accept: 'application/json;q=0, text/html' } },
  ];
  for (const over of others) t.equal(marked(over).offSpec, true, JSON.stringify(over));
  t.equal(marked({ requestHeaders: { accept: 'text/html, */*;q=0.1' } }).offSpec, undefined, 'an Accept that allows JSON');
  t.same([marked({ path: '/pets/' }).operationId, marked({ path: '/pets/' }).offSpec], ['', true], 'a path no operation has');
});

t.test('the body is read as client.ts reads it: codings undone, int64 exact', async (t) => {
  const text = '{"id":9007199254740993,"name":"Rex","categoryId":1}';
  const { response } = toExchange(passed({ responseHeaders: { 'content-encoding': 'gzip' }, responseBody: gzipSync(Buffer.from(text)) }), operations);
  t.equal(response.text, text);
  t.equal(response.coding, 'gzip');
  t.equal((response.json as { id: bigint }).id, 9007199254740993n);
});

t.test('an advisory of the suite is a warning; a problem, an error', async (t) => {
  const judge = createPassiveJudge();
  const challenge = 'Bearer realm="petstore", error="invalid_token"';
  const body = Buffer.from('{"code":"unauthorized","message":"no key","status":401}');
  const [open] = judge.judge(
    passed({
      requestHeaders: {},
      status: 401,
      responseHeaders: { 'content-type': 'application/json', date: new Date().toUTCString(), 'www-authenticate': challenge },
      responseBody: body,
    }),
  );
  t.match(open, { rule: 'http.challenge', severity: 'warning', kind: 'challenge-error-without-credential', operationId: 'getPet' });
  const [failed] = judge.judge(passed({ requestHeaders: {}, status: 401, responseBody: body }));
  t.match(failed, { rule: 'http.challenge', severity: 'error', problem: 'a 401 without a WWW-Authenticate field' });
});

t.test('an answer too large to judge is judged by its head only', async (t) => {
  const judge = createPassiveJudge();
  const rules = (over: Partial<PassedExchange>) => judge.judge(passed({ path: '/pets', responseBody: undefined, ...over })).map((f) => f.rule);
  t.same(rules({}), [], 'a 200 whose body was not held');
  t.same(rules({ status: 400 }), [], 'no Error body is asked of a body not held');
  t.same(rules({ status: 500 }), ['responses.no-server-error']);
});

t.test('a key an earlier answer accepted is found in a later answer to another request; a refused token echoed is not', async (t) => {
  const judge = createPassiveJudge();
  const refusal = (message: string) =>
    passed({
      requestHeaders: { authorization: 'Bearer wrong-key-22' },
      status: 401,
      responseHeaders: { 'content-type': 'application/json', date: new Date().toUTCString(), 'www-authenticate': 'Bearer realm="petstore"' },
      responseBody: Buffer.from(JSON.stringify({ code: 'unauthorized', message, status: 401 })),
    });
  t.same(judge.judge(refusal('the key wrong-key-22 is not accepted')), [], "the client's own text");
  t.same(judge.judge(passed({ path: '/pets', responseBody: Buffer.from('[]') })), [], 'secret-key-1 was accepted');
  const [leak] = judge.judge(refusal('expected secret-key-1'));
  t.match(leak, { rule: 'leaks.getPet.key', severity: 'error', problem: 'the body of the 401 answer holds the API key' });
});

t.test("a 410 from getPet before its removal date, by the answer's own Date, is an error; from that date on it is allowed", async (t) => {
  const gone = (date: string) =>
    createPassiveJudge().judge(
      passed({
        status: 410,
        responseHeaders: {
          'content-type': 'application/json',
          date,
          deprecation: '@1735689600',
          sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
          link: '</v1/pets>; rel="successor-version"',
        },
        responseBody: Buffer.from('{"code":"gone","message":"removed","status":410}'),
      }),
    );
  t.match(gone('Sun, 29 Nov 2026 10:00:00 GMT'), [
    { rule: 'deprecation.getPet.signals', severity: 'error', problem: /answered 410 Gone on .*2026.*before getPet's removal date/ },
  ]);
  t.same(gone('Thu, 05 Dec 2030 00:00:00 GMT'), [], 'on the removal date');
});
