// The tolerance table (conformance/tolerances.ts) holds no row a correct
// server does not need: for each row, a correct server (the reference, a
// framework server kept at its defaults, a correct variant) is run with the
// families that reach it, passes, and has at least one answer that the rules
// over every answer would fail without that row.
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { universalRules } from '../../conformance/checks/universal.js';
import type { Exchange, WireResponse } from '../../conformance/client.js';
import { judgePair, type PairFacts } from '../../conformance/differential/compare.js';
import { runConformance } from '../../conformance/index.js';
import { GENERATED_NAME_CODE_POINTS } from '../../conformance/arbitraries/requests.js';
import { allowanceRows, interfaceMethods, operationPathOf, TOLERANCES, type Pair } from '../../conformance/tolerances.js';
import type { CheckContext, Family } from '../../conformance/vocabulary.js';
import { startFramework } from '../../fixtures/frameworks/index.mjs';
import { startVariant } from '../../fixtures/implementations/index.mjs';
import { operations } from '../../spec/operations.js';
import { startTestOracle } from '../helpers/reference-oracle.js';
import { startTestServer } from '../helpers/server.js';
import { startNginx } from '../helpers/staging.js';

/** The correct server that needs each row, and the families whose requests meet it. */
const NEEDED_BY: Record<string, { server: string; families: Family[] }> = {
  'unimplemented-method': { server: 'not-implemented-without-date', families: ['http'] },
  'head-without-content': { server: 'reference', families: ['routes'] },
  'parser-refusal': { server: 'express', families: ['http'] },
  'outside-interface': { server: 'express', families: ['invariants'] },
  'method-outside-interface': { server: 'fastify', families: ['http'] },
  'repeated-field-refusal': { server: 'reference behind nginx', families: ['auth'] },
  'open-reading': { server: 'first-member-wins', families: ['json'] },
  'media-type-reading': { server: 'lenient-media-types', families: ['media-types'] },
  'unknown-names': { server: 'refuses-unknown-properties', families: ['validation'] },
  'length-limit': { server: 'name-max-length', families: ['validation'] },
  'read-after-write': { server: 'lagging-get-pet', families: ['state'] },
  'past-sunset': { server: 'past-sunset', families: ['deprecation'] },
};

async function start(t: Test, name: string): Promise<{ url: string; apiKey: string }> {
  if (name === 'reference behind nginx') {
    const { url, key } = await startTestServer(t);
    const upstream = new URL(url).origin;
    const gateway = await startNginx(
      t,
      (port) => `listen 127.0.0.1:${port}; location / { proxy_pass ${upstream}; proxy_http_version 1.1; proxy_set_header Connection ""; }`,
    );
    return { url: `http://127.0.0.1:${gateway.port}/v1`, apiKey: key };
  }
  if (name === 'reference') {
    const { url, key } = await startTestServer(t);
    return { url, apiKey: key };
  }
  const server = ['express', 'fastify'].includes(name) ? await startFramework(name, { apiKey: 'test-key' }) : await startVariant(name, { apiKey: 'test-key' });
  t.teardown(() => server.close());
  return server;
}

t.test('the methods of the interface: those its operations use, and HEAD only with GET (RFC 9110 §9.3.2)', async (t) => {
  t.same([...interfaceMethods(operations)].sort(), ['GET', 'HEAD', 'POST']);
  t.same([...interfaceMethods(operations.filter((op) => op.method !== 'GET'))], ['POST']);
});

t.test('length-limit: a string longer than the run generates, anywhere in the body', async (t) => {
  const row = TOLERANCES.find((r) => r.id === 'length-limit')!;
  const applies = (body: unknown) =>
    row.applies(
      { family: 'validation', request: { method: 'POST', path: '/pets', headers: {}, operationId: 'createPet', body: JSON.stringify(body) } } as never,
      operations,
      { kind: 'accepted-refused', oracle: { status: 201, headers: {} }, op: undefined, lagging: false },
    );
  const long = 'x'.repeat(GENERATED_NAME_CODE_POINTS + 1);
  t.equal(applies({ name: long, categoryId: 1 }), true);
  t.equal(applies({ name: 'Rex', tags: [[long]] }), true, 'in an array');
  t.equal(applies({ name: 'x'.repeat(GENERATED_NAME_CODE_POINTS), categoryId: 1 }), false, 'as long as the run generates');
});

t.test("a path is an operation's when it spells the template, its literal parts literally", async (t) => {
  const ops = [{ path: '/a.b/{id}' }] as never;
  t.equal(operationPathOf('/a.b/7?x=1', ops), '/a.b/{id}');
  t.equal(operationPathOf('/aXb/7', ops), undefined, 'a dot is a dot');
  t.equal(operationPathOf('/a.b/7/8', ops), undefined, 'a parameter is one segment');
});

t.test('every row of the table says where its leniency comes from', async (t) => {
  t.same(Object.keys(NEEDED_BY).sort(), TOLERANCES.map((row) => row.id).sort(), 'each row has a correct server that needs it, here');
  for (const row of TOLERANCES) t.ok(/RFC \d+ §|seed §/.test(row.source) && row.allows.length > 0 && row.seenIn.length > 0, row.id);
});

for (const row of TOLERANCES) {
  const { server, families } = NEEDED_BY[row.id]!;
  t.test(`${row.id}: ${server} passes, and fails without the row`, async (t) => {
    const target = await start(t, server);
    const oracle = await startTestOracle(t, target.apiKey);
    const pairs: [Exchange, WireResponse, PairFacts][] = [];
    const exchanges: Exchange[] = [];
    const result = await runConformance({
      baseUrl: target.url,
      apiKey: target.apiKey,
      seed: 11,
      runs: 5,
      families,
      oracle,
      observe: (e) => exchanges.push(e),
      observeOracle: (e, answer, facts) => pairs.push([e, answer, facts]),
    });
    t.equal(result.ok, true, `${server} passes with the table (${result.failures.map((f) => f.message).join('; ')})`);
    t.ok((result.tolerated.find((r) => r.id === row.id)?.count ?? 0) > 0, 'the run counts answers the row excused');
    const without = TOLERANCES.filter((other) => other !== row);
    const ctx = { operations } as unknown as CheckContext;
    const failed =
      row.rule === 'same-outcome'
        ? pairs.filter(([e, answer, facts]) => {
            const verdict = judgePair(e, answer, facts, without, operations);
            return verdict !== undefined && 'difference' in verdict;
          })
        : exchanges.filter((e) => universalRules(without, new Map()).some((rule) => rule.applies(e, ctx) && rule.judge(e, ctx) !== undefined));
    t.ok(failed.length > 0, `without the row, ${failed.length} of its ${row.rule === 'same-outcome' ? pairs.length : exchanges.length} answers fail`);
  });
}

t.test("docs/conformance.md's tolerance table has one row per row of the table, in order", async (t) => {
  const page = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('### The tolerance table'));
  const ids = [...section.matchAll(/^\| ([a-z-]+) \| ([a-z-]+) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
  t.same(
    ids,
    TOLERANCES.map((row) => `${row.id} ${row.rule}`),
  );
});

t.test('--compare-allow entries become rows of the table: of one kind, for one operation and one status when given', async (t) => {
  const [any, narrow] = allowanceRows([
    { difference: 'accepted-refused', reason: 'v2 refuses what v1 served' },
    { difference: 'refused-accepted', operationId: 'createPet', status: 201, reason: 'v2 takes a form body' },
  ]);
  t.match(any, { id: 'compare-allow-1', rule: 'same-outcome', allows: 'v2 refuses what v1 served', source: '--compare-allow' });
  t.equal(narrow?.id, 'compare-allow-2');
  const exchange = (operationId: string, status: number) =>
    ({
      family: 'oracle',
      request: { method: 'POST', path: '/pets', headers: {}, operationId },
      response: { status, headers: {}, text: '', json: undefined, durationMs: 1 },
    }) as Exchange;
  const pair = (kind: Pair['kind']) => ({ kind, oracle: { status: 400, headers: {} }, op: undefined, lagging: false }) as Pair;
  t.equal(any!.applies(exchange('listPets', 400), operations, pair('accepted-refused')), true, 'any operation, any status');
  t.equal(any!.applies(exchange('listPets', 400), operations, pair('refused-accepted')), false, 'its kind only');
  t.equal(any!.applies(exchange('listPets', 400), operations), false, 'never outside a comparison');
  t.equal(narrow!.applies(exchange('createPet', 201), operations, pair('refused-accepted')), true);
  t.equal(narrow!.applies(exchange('listPets', 201), operations, pair('refused-accepted')), false, 'its operation only');
  t.equal(narrow!.applies(exchange('createPet', 200), operations, pair('refused-accepted')), false, "the target's status only");
});
