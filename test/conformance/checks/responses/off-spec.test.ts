// The answers to requests the spec does not describe (a spelling of a route,
// a Range or a precondition) are judged by the check that sent them, never
// against the spec's responses: a correct server may redirect a spelling or
// answer a Range with 206. Shown with the family that sends them run beside
// `responses`, against correct implementations that answer so.
import t, { type Test } from 'tap';
import { startVariant } from '../../../../fixtures/implementations/index.mjs';
import { runConformance } from '../../../../conformance/index.js';
import type { Family } from '../../../../conformance/vocabulary.js';
import { integerRange } from '../../../../conformance/arbitraries/schema.js';
import { pageSizeParameter } from '../../../../conformance/checks/family-requests.js';
import { operationById } from '../../../../spec/operations.js';
import { createServer } from '../../../../src/server/index.js';
import { runCheck } from '../../../helpers/check-run.js';
import { jsonAnswer, startFront } from '../../../helpers/front.js';
import { startTestServer } from '../../../helpers/server.js';

type Start = (t: Test) => Promise<{ url: string; apiKey: string; close: () => unknown }>;

const CASES: readonly [Family, string, Start, string][] = [
  ['routes', 'redirects-to-canonical-route', () => startVariant('redirects-to-canonical-route'), 'redirects a spelling of a route to the canonical one'],
  ['invariants', 'conditional-and-ranges', () => startVariant('conditional-and-ranges'), 'answers a Range with 206 and a precondition with 304 or 412'],
  ['http', 'conditional-and-ranges', () => startVariant('conditional-and-ranges'), 'answers a Range with 206 and a precondition with 304 or 412'],
  // The page size out of range is answered as the seed allows (clamped), so the list's precondition is evaluated.
  [
    'invariants',
    'a service that clamps the page size',
    startClamping,
    'clamps a page size above the maximum and answers If-None-Match: * with 304 (RFC 9110 §13.1.2)',
  ],
];

/** The reference server behind a front that clamps the page size to its maximum and evaluates If-None-Match: *. */
async function startClamping(t: Test): Promise<{ url: string; apiKey: string; close: () => unknown }> {
  const server = createServer();
  const url = await server.listen(0, '127.0.0.1');
  const size = pageSizeParameter(operationById('listPets'))!;
  const max = integerRange(size.schema)[1];
  const front = await startFront(t, url, async (req, forward) => {
    const query = new URLSearchParams(req.path.split('?')[1] ?? '');
    const asked = query.get(size.name);
    if (asked !== null && /^\d+$/.test(asked) && BigInt(asked) > max) query.set(size.name, String(max));
    const answer = await forward({ ...req, path: `${req.path.split('?')[0]}?${query}` });
    if (req.method === 'GET' && answer.status === 200 && req.headers['if-none-match'] === '*') return { status: 304, headers: {}, body: Buffer.alloc(0) };
    return answer;
  });
  return { url: front, apiKey: server.apiKeys[0]!, close: () => server.close() };
}

for (const [family, name, start, what] of CASES) {
  t.test(`${family} beside responses passes ${name}, which ${what}`, async (t) => {
    const server = await start(t);
    t.teardown(() => server.close());
    const result = await runConformance({ baseUrl: server.url, apiKey: server.apiKey, seed: 1, runs: 25, families: [family, 'responses'] });
    t.same(
      result.failures.map((f) => `${f.checkId}: ${f.message.split('\n')[0]}`),
      [],
    );
    t.ok(
      result.checks.some((c) => c.family === 'responses' && c.status === 'passed'),
      'responses judged the answers of the spec',
    );
  });
}

t.test('an answer to a spelling of the list holds no more than the largest page, whatever its status (a 203 holding the table)', async (t) => {
  const { url, key } = await startTestServer(t);
  const max = integerRange(pageSizeParameter(operationById('listPets'))!.schema)[1];
  const table = Array.from({ length: Number(max) + 1 }, (_, i) => ({ id: i + 1, name: `pet ${i + 1}`, categoryId: 1 }));
  // A spelling of the list: its path in another letter case, or with a trailing slash.
  const list = operationById('listPets').path.toLowerCase();
  const front = await startFront(t, url, (req, forward) => {
    const path = req.path.split('?')[0]!;
    const spelled = req.operationId === undefined && path.toLowerCase().replace(/\/$/, '') === list;
    return req.method === 'GET' && spelled ? jsonAnswer(203, table) : forward();
  });
  const { status, message } = await runCheck(front, key, 'invariants.listPets.any-request');
  t.equal(status, 'failed');
  t.match(message, new RegExp(`was answered 203 with ${Number(max) + 1} items, more than the largest page \\(${max}\\)`));
});
