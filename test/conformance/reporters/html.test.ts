// The report for people as one self-contained HTML file (no script, font or
// style from elsewhere): the summary, each failure with its requirement,
// request, response, replay and rerun, the advisories, what was set aside and
// why, every check and the coverage map. Text from the wire is escaped, and
// the API key is removed as in every report.
import t from 'tap';
import { basicCredentials } from '../../../conformance/key-forms.js';
import { renderHtml } from '../../../conformance/reporters/html.js';
import type { CheckOutcome, ConformanceResult, Failure } from '../../../conformance/vocabulary.js';

const KEY = 'secret-key-123';
const TARGET = 'http://127.0.0.1:8080/v1';

const failure: Failure = {
  checkId: 'auth.getPet.refused',
  family: 'auth',
  operationId: 'getPet',
  requirement: 'When the key is missing or invalid, the service answers 401 with an Error body (§5.3).',
  seedSection: '§5 Authentication',
  message: 'getPet with the key with the Basic scheme: expected 401, got 200',
  request: { method: 'GET', path: '/pets/1', operationId: 'getPet', headers: { authorization: `Basic ${basicCredentials(KEY)}` } },
  response: {
    status: 200,
    headers: { 'content-type': 'text/html' },
    text: `<script>alert("${KEY}")</script> & more`,
    json: undefined,
    durationMs: 2,
  },
  counterexample: '[{"label":"the key with the Basic scheme"}]',
  seed: 99,
  cause: 'cause-1',
};

const check = (id: string, status: CheckOutcome['status'], extra: Partial<CheckOutcome> = {}): CheckOutcome => {
  const [family, operationId] = id.split('.') as [CheckOutcome['family'], string];
  return { id, family, operationId, title: `the title of ${id}`, status, runs: 3, durationMs: 5, requests: 4, ...extra };
};

function sample(overrides: Partial<ConformanceResult> = {}): ConformanceResult {
  return {
    ok: false,
    counts: { passed: 1, failed: 1, advisory: 0, skipped: 1, 'not run': 1 },
    exercised: 2,
    target: TARGET,
    seed: 3,
    strict: false,
    startedAt: '2026-06-02T10:00:00.000Z',
    durationMs: 2500,
    validatorLoadMs: 0,
    requests: 20,
    writes: 4,
    checks: [
      check('auth.getPet.refused', 'failed', { failure }),
      check('validation.createPet.valid-body', 'passed'),
      check('http.date', 'skipped', { note: 'not among --checks' }),
      check('not-found.getPet.unknown-ids', 'not run', { note: 'no pet <exists>' }),
    ],
    failures: [failure],
    causes: [
      { id: 'cause-1', summary: 'Basic credentials are taken for the key', evidence: 'GET /pets/1 → 200', checkIds: ['auth.getPet.refused'], failures: 2 },
    ],
    advisories: [
      {
        decision: 'www-authenticate',
        family: 'auth',
        operationId: 'listPets',
        seed: '§4 "Response headers of any operation: not shown"',
        observed: 'a 401 without WWW-Authenticate',
        referenceBehaviour: 'every 401 carries WWW-Authenticate: Bearer realm="petstore"',
      },
    ],
    tolerated: [],
    connection: { insecure: true },
    coverage: {
      operations: [
        {
          operationId: 'getPet',
          method: 'GET',
          path: '/pets/{petId}',
          requests: 7,
          statuses: [
            { status: 200, count: 5, declared: true },
            { status: 500, count: 2, declared: false },
          ],
          neverObserved: [404],
          inputs: [{ dimension: 'credential', classes: [{ value: 'no Authorization header', count: 3 }] }],
        },
      ],
    },
    ...overrides,
  };
}

t.test('the file is self-contained: no script, no resource from elsewhere, its style inline', async (t) => {
  const html = renderHtml(sample(), KEY);
  t.ok(html.startsWith('<!doctype html>\n<html lang="en">'));
  t.match(html, /<style>[^<]*\.verdict/, 'the style is inline');
  t.notMatch(html, /<script|<link|\bsrc=|@import|url\(|https?:\/\/(?!127\.0\.0\.1:8080|proxy)/i, 'nothing is fetched or run');
  t.ok(html.trimEnd().endsWith('</html>'));
});

t.test('the API key appears nowhere, in no form that gives it away', async (t) => {
  const html = renderHtml(sample(), KEY);
  t.notOk(html.includes(KEY));
  t.notOk(html.includes(basicCredentials(KEY)));
  t.match(html, 'authorization: Basic base64($PETSTORE_API_KEY:)', 'the request shows the form of the key it sent');
});

t.test('text from the wire is escaped: markup in a response body is shown, never run', async (t) => {
  const html = renderHtml(sample(), KEY);
  t.match(html, '&lt;script&gt;alert(&quot;$PETSTORE_API_KEY&quot;)&lt;/script&gt; &amp; more');
  t.match(html, '<td>no pet &lt;exists&gt;</td>', 'and so is a note');
});

t.test('the heading gives the verdict, with a class for its colour; the title says it too', async (t) => {
  t.match(renderHtml(sample(), KEY), '<h1>petstore conform <span class="verdict FAIL">FAIL</span></h1>');
  t.match(renderHtml(sample(), KEY), '<title>petstore conform: FAIL</title>');
  const passing = sample({ ok: true, failures: [], causes: [] });
  t.match(renderHtml(passing, KEY), '<span class="verdict PASS">PASS</span>');
  t.match(renderHtml({ ...passing, exercised: 0 }, KEY), '<span class="verdict NOTHING">NOTHING TESTED</span>');
});

t.test('the run, how the target was reached (an unverified connection marked), and the count of each outcome', async (t) => {
  const html = renderHtml(sample(), KEY);
  t.match(html, `<p class="meta">${TARGET} · seed 3 · 20 requests (4 writes) in 2.5 s · started 2026-06-02T10:00:00.000Z</p>`);
  t.match(html, '<p class="connection insecure" id="connection">Reached TLS certificates NOT verified (--insecure)</p>');
  t.notMatch(renderHtml(sample({ connection: undefined }), KEY), /id="connection"/, 'a direct connection says nothing');
  t.match(html, '<li class="status-failed" data-status="failed"><b>1</b> failed</li>');
  t.match(html, '<li class="status-not-run" data-status="not run"><b>1</b> not run</li>');
  t.match(html, '<li class="status-advisory" data-status="advisory"><b>0</b> advisory</li>', 'every outcome, none hidden');
});

t.test('a failure shows its requirement, minimal input, request, response, replay and rerun, and links its cause', async (t) => {
  const html = renderHtml(sample(), KEY);
  t.match(
    html,
    '<section class="cause" id="cause-1"><h3>Basic credentials are taken for the key</h3><p>Explains 2 failures of <code>auth.getPet.refused</code>.',
  );
  t.match(
    html,
    '<h3>1) [auth] getPet: getPet with the key with the Basic scheme: expected 401, got 200 <a href="#cause-1">[cause-1]</a></h3>\n<p><b>Requirement</b> (§5 Authentication): When the key is missing or invalid',
  );
  t.match(html, '<p><b>Minimal input</b></p><pre>[{&quot;label&quot;:&quot;the key with the Basic scheme&quot;}]</pre>');
  t.match(html, '<p><b>Request</b></p><pre>GET /pets/1\nauthorization: Basic base64($PETSTORE_API_KEY:)</pre>');
  t.match(html, '<p><b>Response</b></p><pre>200\ncontent-type: text/html\n\n&lt;script&gt;');
  t.match(
    html,
    `<pre class="replay">curl -sS -i -X GET '${TARGET}/pets/1' -H 'authorization: Basic '&quot;$(printf '%s:' &quot;$PETSTORE_API_KEY&quot; | base64 | tr -d '\\n')&quot;</pre>`,
  );
  t.match(
    html,
    `<pre class="rerun">petstore conform --base-url ${TARGET} --api-key &quot;$PETSTORE_API_KEY&quot; --checks auth.getPet.refused --seed 99</pre>`,
  );
  t.match(renderHtml(sample({ ok: true, failures: [], causes: [] }), KEY), '<h2 id="failures">Failures</h2><p>None.</p>', 'no failure: said so');
});

t.test('the advisories, what was set aside and why, and every check with its outcome', async (t) => {
  const html = renderHtml(sample(), KEY);
  t.match(html, '<h2 id="advisories">Advisories (1)</h2>\n<p>The seed leaves these open: not failures; --strict makes them requirements.</p>');
  t.match(
    html,
    '<li><b>[auth] listPets</b>: a 401 without WWW-Authenticate. <i>This project:</i> every 401 carries WWW-Authenticate: Bearer realm=&quot;petstore&quot;.',
  );
  t.notMatch(renderHtml(sample({ strict: true }), KEY), /--strict makes them/, 'under --strict they are requirements already');
  t.match(html, '<h2 id="set-aside">Skipped and not run (2)</h2>');
  t.match(html, '<tr><td class="status-skipped">skipped</td><td>http.date</td><td>not among --checks</td></tr>');
  t.match(html, '<h2 id="checks">Checks (4)</h2>');
  const rows = [...html.matchAll(/<tr data-check="([^"]+)"><td class="status-([a-z-]+)">/g)].map((m) => `${m[1]} ${m[2]}`);
  t.strictSame(rows, ['auth.getPet.refused failed', 'validation.createPet.valid-body passed', 'http.date skipped', 'not-found.getPet.unknown-ids not-run']);
});

t.test('the coverage map marks undeclared statuses and the declared ones never seen', async (t) => {
  const html = renderHtml(sample(), KEY);
  t.match(html, '<table class="coverage" data-operation="getPet">');
  t.match(html, '<tr><th>requests</th><td class="requests">7</td></tr>');
  t.match(html, '<tr><th>statuses seen</th><td><span class="">200 ×5</span>, <span class="undeclared">500 (undeclared) ×2</span></td></tr>');
  t.match(html, '<tr><th>declared, never seen</th><td><span class="never">404</span></td></tr>');
  t.match(html, '<tr><td>credential</td><td>no Authorization header ×3</td></tr>');
});
