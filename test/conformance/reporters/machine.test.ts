// The reports CI reads, from the real CLI: `--reporter junit --output FILE`
// is well-formed XML whose counts are the run's, `--reporter tap` is valid
// TAP 14, `--reporter json` is the ConformanceResult; and the replay line of
// a failure rebuilds the failing request from $PETSTORE_API_KEY.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { startVariant } from '../../../fixtures/implementations/index.mjs';
import { FAMILIES, type ConformanceResult } from '../../../conformance/index.js';
import { CHECK_STATUSES } from '../../../conformance/vocabulary.js';
import { renderJson } from '../../../conformance/reporters/machine.js';
import { startServer } from '../../../src/index.js';
import { conformJson, runCli } from '../../helpers/run-conform.js';

const KEY = 'k-SECRET-123';

// A target whose every Error body is text that XML, TAP and JSON must each
// escape: markup, entities, quotes, a control character, an astral
// character, and lines that look like TAP test points. Its status is also
// wrong, so every error answer is a failure that quotes the body.
const HOSTILE_BODY = '{"code":"x","message":"<b>&amp; \\"q\\" \' ]]> \u0001 🐢 \n1..1\nnot ok 99 - injected\n# SKIP","status":418}';
const startHostile = () => startVariant('base', { apiKey: KEY, errorBody: () => HOSTILE_BODY });

/** The result of a run, through the JSON reporter, each from a new target so that runs do not share state. */
async function resultOf(start: () => Promise<{ url: string; close(): Promise<void> }>, extra: readonly string[]): Promise<ConformanceResult> {
  const target = await start();
  try {
    return (await conformJson(target.url, KEY, extra)).result;
  } finally {
    await target.close();
  }
}

async function reportOf(
  start: () => Promise<{ url: string; close(): Promise<void> }>,
  args: readonly string[],
): Promise<{ code: number; report: string; stdout: string }> {
  const target = await start();
  const dir = mkdtempSync(join(tmpdir(), 'conform-report-'));
  try {
    const file = join(dir, 'report');
    const run = await runCli(['conform', '--base-url', target.url, '--api-key', KEY, '--quiet', ...args, '--output', file]);
    return { code: run.code, report: readFileSync(file, 'utf8'), stdout: run.stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.close();
  }
}

// ── XML ────────────────────────────────────────────────────────────────

interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = '[A-Za-z_:][-A-Za-z0-9_:.]*';
const XML_CHAR = /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g;

function decodeXml(text: string, where: string): string {
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(text)) throw new Error(`a bare & in ${where}`);
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(ENTITY, (_m, name: string | undefined, dec: string | undefined, hex: string | undefined) =>
    name ? named[name]! : String.fromCodePoint(dec ? Number(dec) : parseInt(hex!, 16)),
  );
}

/**
 * A strict reader for the XML 1.0 the JUnit reporter writes: one optional
 * declaration, elements with double-quoted attributes, character data with
 * the predefined entities. Throws on anything not well-formed.
 */
function parseXml(source: string): XmlElement {
  if (!XML_CHAR.test(source)) throw new Error('a character XML 1.0 does not allow');
  let rest = source.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/, '');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  const tag = new RegExp(`^<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*"[^"<]*")*)\\s*(/?)>`);
  while (rest.length > 0) {
    const lt = rest.indexOf('<');
    const text = lt === -1 ? rest : rest.slice(0, lt);
    if (text.includes('>') && /]]>/.test(text)) throw new Error('"]]>" in character data');
    stack.at(-1)!.text += decodeXml(text, 'character data');
    if (lt === -1) break;
    rest = rest.slice(lt);
    const match = tag.exec(rest);
    if (!match) throw new Error(`not a tag: ${JSON.stringify(rest.slice(0, 60))}`);
    const [whole, closing, name, attributeText, selfClosing] = match as unknown as [string, string, string, string, string];
    rest = rest.slice(whole.length);
    if (closing) {
      if (selfClosing || attributeText) throw new Error(`a malformed end tag </${name}>`);
      const open = stack.pop();
      if (!open || open.name !== name || stack.length === 0) throw new Error(`</${name}> closes <${open?.name}>`);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, key, value] of attributeText.matchAll(new RegExp(`(${NAME})\\s*=\\s*"([^"<]*)"`, 'g'))) {
      if (key! in attributes) throw new Error(`attribute ${key} twice on <${name}>`);
      attributes[key!] = decodeXml(value!, `the attribute ${key}`);
    }
    const element: XmlElement = { name, attributes, children: [], text: '' };
    stack.at(-1)!.children.push(element);
    if (!selfClosing) stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  if (root.children.length !== 1 || root.text.trim() !== '') throw new Error('not exactly one root element');
  return root.children[0]!;
}

const all = (element: XmlElement, name: string): XmlElement[] =>
  element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...all(child, name)]);

t.test('the strict XML reader refuses what is not well-formed', async (t) => {
  t.throws(() => parseXml('<a><b></a></b>'));
  t.throws(() => parseXml('<a x="1" x="2"/>'));
  t.throws(() => parseXml('<a>1 & 2</a>'));
  t.throws(() => parseXml('<a>1 < 2</a>'));
  t.throws(() => parseXml('<a x="<"/>'));
  t.throws(() => parseXml('<a>\u0001</a>'));
  t.throws(() => parseXml('<a>\ud800</a>'));
  t.throws(() => parseXml('<a></a><b></b>'));
  t.equal(parseXml('<a x="&quot;&#60;">1 &lt; 2 🐢</a>').text, '1 < 2 🐢');
});

for (const [label, start, extra] of [
  ['a failing target whose answers hold markup, control characters and astral characters', startHostile, ['--seed', '5', '--runs', '20']],
  [
    'the reference server with --read-only (checks that write are skipped)',
    () => startServer({ apiKeys: [KEY] }),
    ['--seed', '5', '--runs', '20', '--read-only'],
  ],
] as const) {
  t.test(`--reporter junit --output writes well-formed XML whose testsuites, testcases, failures and skips are the run's: ${label}`, async (t) => {
    const result = await resultOf(start, extra);
    const { code, report, stdout } = await reportOf(start, [...extra, '--reporter', 'junit']);
    t.equal(code, result.ok ? 0 : 1, 'exit code');
    t.match(
      stdout,
      new RegExp(`^${result.ok ? 'PASS' : 'FAIL'}: ${result.failures.length} failures, \\d+ advisories, seed 5; report in `),
      'stdout keeps a one-line summary',
    );
    t.ok(report.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'), 'an XML declaration');
    let root: XmlElement;
    try {
      root = parseXml(report);
    } catch (error) {
      return t.fail(`not well-formed: ${(error as Error).message}`);
    }
    const failed = result.checks.filter((c) => c.status === 'failed');
    // JUnit has one way to say a test did not run: <skipped>, for `skipped` and `not run` alike (the message tells which).
    const skipped = result.checks.filter((c) => c.status === 'skipped' || c.status === 'not run');
    t.equal(root.name, 'testsuites');
    t.equal(root.attributes['tests'], String(result.checks.length), 'testsuites tests=');
    t.equal(root.attributes['failures'], String(failed.length), 'testsuites failures=');
    const suites = all(root, 'testsuite');
    t.strictSame(
      suites.map((s) => s.attributes['name']).sort(),
      FAMILIES.filter((f) => result.checks.some((c) => c.family === f)).sort(),
      'one testsuite per family',
    );
    for (const suite of suites) {
      const checks = result.checks.filter((c) => c.family === suite.attributes['name']);
      t.equal(suite.attributes['tests'], String(checks.length), `${suite.attributes['name']}: tests=`);
      t.equal(suite.attributes['failures'], String(checks.filter((c) => c.status === 'failed').length), `${suite.attributes['name']}: failures=`);
      t.equal(
        suite.attributes['skipped'],
        String(checks.filter((c) => c.status === 'skipped' || c.status === 'not run').length),
        `${suite.attributes['name']}: skipped=`,
      );
      t.equal(all(suite, 'testcase').length, checks.length, `${suite.attributes['name']}: testcases`);
    }
    const cases = all(root, 'testcase');
    t.equal(cases.length, result.checks.length, 'one testcase per check');
    t.strictSame(
      cases
        .map((c) => {
          const outcome = all(c, 'failure').length
            ? 'failed'
            : all(c, 'skipped').length
              ? all(c, 'skipped')[0]!.attributes['message']!.startsWith('not run:')
                ? 'not run'
                : 'skipped'
              : all(c, 'system-out').some((o) => o.text.startsWith('advisory'))
                ? 'advisory'
                : 'passed';
          return `${c.attributes['classname']} ${c.attributes['name']} ${outcome}`;
        })
        .sort(),
      result.checks.map((c) => `${c.family}.${c.operationId} ${c.title} ${c.status}`).sort(),
      'each testcase is a check with its outcome',
    );
    t.equal(all(root, 'failure').length, failed.length, 'a <failure> per failed check');
    t.equal(all(root, 'skipped').length, skipped.length, 'a <skipped> per skipped or not-run check');
    if (label.startsWith('the reference')) t.ok(skipped.length > 0, 'some checks were skipped');
    for (const failure of all(root, 'failure')) {
      t.ok(failure.attributes['message'], 'a failure has a message');
      t.match(failure.text, /requirement \((§|seed §|RFC \d+ §|OWASP )/, 'a failure names its requirement');
    }
    if (label.startsWith('a failing')) {
      t.ok(failed.length > 0, 'the target fails');
      const texts = all(root, 'failure')
        .map((f) => f.text)
        .join('\n');
      t.ok(texts.includes('<b>&amp; \\"q\\"'), 'markup from the response survives escaping, unchanged');
      t.ok(texts.includes('🐢'), 'an astral character survives');
      t.ok(texts.includes('\ufffd'), 'the control character is replaced');
      t.match(texts, /replay: curl /, 'the replay line is in the failure');
    }
  });
}

// ── TAP ────────────────────────────────────────────────────────────────

interface TapPoint {
  readonly ok: boolean;
  readonly id: number;
  readonly description: string;
  readonly directive?: string;
}

/** TAP 14 (testanything.org/tap-version-14-specification): version, one plan, points, YAML blocks, comments. */
function parseTap(text: string): { plan: number; points: TapPoint[] } {
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines[0] !== 'TAP version 14') throw new Error(`the first line is ${JSON.stringify(lines[0])}`);
  let plan: number | undefined;
  const points: TapPoint[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const planMatch = /^1\.\.(\d+)(?: #.*)?$/.exec(line);
    if (planMatch) {
      if (plan !== undefined) throw new Error(`a second plan on line ${i + 1}`);
      if (points.length > 0 && i !== lines.length - 1) throw new Error('the plan is neither first nor last');
      plan = Number(planMatch[1]);
      continue;
    }
    const point = /^(not )?ok\b(?: (\d+))?(?: -)?(?: ((?:\\.|[^#\\])*?))?(?: # (.*))?$/.exec(line);
    if (point) {
      points.push({ ok: !point[1], id: Number(point[2]), description: point[3] ?? '', ...(point[4] !== undefined ? { directive: point[4] } : {}) });
      if (lines[i + 1] === '  ---') {
        const end = lines.indexOf('  ...', i + 2);
        if (end === -1) throw new Error(`the YAML block after line ${i + 1} never ends`);
        for (const yaml of lines.slice(i + 2, end)) if (!yaml.startsWith('  ')) throw new Error(`a YAML line not indented: ${JSON.stringify(yaml)}`);
        i = end;
      }
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    throw new Error(`line ${i + 1} is not TAP: ${JSON.stringify(line)}`);
  }
  if (plan === undefined) throw new Error('no plan');
  return { plan, points };
}

t.test('--reporter tap is valid TAP 14: the plan counts the test points, a failed check is `not ok`, a skipped one `# SKIP`', async (t) => {
  for (const [label, start, extra] of [
    ['a failing target', startHostile, ['--seed', '5', '--runs', '20']],
    ['the reference server with --read-only', () => startServer({ apiKeys: [KEY] }), ['--seed', '5', '--runs', '20', '--read-only']],
  ] as const) {
    const result = await resultOf(start, extra);
    const { code, report } = await reportOf(start, [...extra, '--reporter', 'tap']);
    t.equal(code, result.ok ? 0 : 1, `${label}: exit code`);
    let tap: ReturnType<typeof parseTap>;
    try {
      tap = parseTap(report);
    } catch (error) {
      t.fail(`${label}: not TAP 14: ${(error as Error).message}`);
      continue;
    }
    t.equal(tap.plan, tap.points.length, `${label}: the plan matches the number of test points`);
    t.equal(tap.plan, result.checks.length, `${label}: one test point per check`);
    t.strictSame(
      tap.points.map((p) => p.id),
      tap.points.map((_p, i) => i + 1),
      `${label}: points numbered 1..N`,
    );
    t.strictSame(
      tap.points
        .map(
          (p) =>
            `${p.description.split(' - ')[0]} ${p.ok ? (p.directive?.startsWith('SKIP not run:') ? 'not run' : p.directive?.startsWith('SKIP') ? 'skipped' : 'passed') : 'failed'}`,
        )
        .sort(),
      // TAP has no directive for an advisory: its point is ok, with a comment after it.
      result.checks.map((c) => `${c.id} ${c.status === 'advisory' ? 'passed' : c.status}`).sort(),
      `${label}: each point is a check with its outcome`,
    );
    t.equal(tap.points.filter((p) => !p.ok).length, result.checks.filter((c) => c.status === 'failed').length, `${label}: a failed check is not ok`);
    if (!result.ok) t.match(report, /^not ok \d+ - \S+ - .*\n {2}---\n( {2}# .*\n)+ {2}\.\.\.$/m, `${label}: a failure has a YAML block`);
  }
});

/** Every field of a ConformanceResult, sorted: the JSON report carries them all. */
const RESULT_FIELDS = [
  'advisories',
  'causes',
  'checks',
  'counts',
  'coverage',
  'durationMs',
  'exercised',
  'failures',
  'ok',
  'requests',
  'seed',
  'startedAt',
  'strict',
  'target',
  'targetDate',
  'tolerated',
  'validatorLoadMs',
  'writes',
];

// ── JSON ───────────────────────────────────────────────────────────────

t.test('--reporter json prints the ConformanceResult: every field, integers as numbers with every digit, the key redacted', async (t) => {
  const target = await startVariant('error-status-mismatch', { apiKey: KEY });
  t.teardown(() => target.close());
  const { code, result, stdout } = await conformJson(target.url, KEY, ['--runs', '20']);
  t.equal(code, 1);
  t.strictSame(Object.keys(result).sort(), RESULT_FIELDS);
  t.equal(result.ok, false);
  t.equal(result.target, target.url);
  t.equal(result.seed, 1);
  t.equal(result.strict, false);
  t.ok(!Number.isNaN(Date.parse(result.startedAt)) && !Number.isNaN(Date.parse(result.targetDate!)), 'ISO instants');
  t.ok(result.requests > 0 && result.writes > 0 && result.writes <= result.requests, `${result.requests} requests, ${result.writes} writes`);
  for (const check of result.checks) {
    t.ok(
      (FAMILIES as readonly string[]).includes(check.family) &&
        CHECK_STATUSES.includes(check.status) &&
        typeof check.runs === 'number' &&
        typeof check.durationMs === 'number',
      `check ${check.id}`,
    );
    t.equal(check.status === 'failed', check.failure !== undefined, `${check.id}: a failure exactly when failed`);
  }
  t.ok(result.failures.length >= result.checks.filter((c) => c.status === 'failed').length, 'every failed check has its failure listed');
  for (const failure of result.failures) {
    t.ok(
      failure.checkId && failure.requirement && failure.seedSection && failure.message && failure.request && failure.response,
      `failure ${failure.checkId} has its requirement and exchange`,
    );
  }
  const withBody = result.failures.find((f) => f.response?.json !== undefined);
  t.ok(withBody, 'a failure carries the parsed response');
  t.equal(typeof (withBody!.response!.json as { status?: unknown }).status, 'number', 'a JSON integer is written as a number');
  t.equal((withBody!.response!.json as { status?: unknown }).status, 400);
  t.notMatch(stdout, /"status": "\d+"/, 'no integer of a body is written as a string');
  t.notOk(stdout.includes(KEY), 'no key');
  t.match(
    JSON.stringify(result.failures.map((f) => f.request!.headers['authorization'])),
    /Bearer \$PETSTORE_API_KEY/,
    'the credential shows as $PETSTORE_API_KEY',
  );
});

// ── Replay ─────────────────────────────────────────────────────────────

// Near misses of the key, each accepted by one target: its report's replay
// line must send that exact header, rebuilt by the shell from the variable.
const nearMisses: Record<string, { authenticate: (header: string | undefined, key: string) => string; header: string }> = {
  'the key itself': { authenticate: () => 'ok', header: `Bearer ${KEY}` },
  'the key as Basic credentials': {
    authenticate: (header, key) => (header?.startsWith('Basic ') || header === `Bearer ${key}` ? 'ok' : 'missing'),
    header: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`,
  },
  'the key with its case swapped': {
    authenticate: (header, key) => (header?.toLowerCase() === `bearer ${key.toLowerCase()}` ? 'ok' : 'missing'),
    header: 'Bearer K-secret-123',
  },
  'the key without its last character': {
    authenticate: (header, key) => (header && header.length > 7 && header.startsWith('Bearer ') && key.startsWith(header.slice(7)) ? 'ok' : 'missing'),
    header: `Bearer ${KEY.slice(0, -1)}`,
  },
};

t.test('the replay line of a failure, run by sh with PETSTORE_API_KEY set, sends the failing request, the credential rebuilt from the variable', async (t) => {
  for (const [label, { authenticate, header }] of Object.entries(nearMisses)) {
    // 'the key itself' fails on createPet's 201 (turned into a 200), so the failing request carries the valid key.
    const overrides = label === 'the key itself' ? { createdStatus: 200 } : { authenticate };
    const target = await startVariant('base', { apiKey: KEY, ...overrides });
    const run = await runCli([
      'conform',
      '--base-url',
      target.url,
      '--api-key',
      KEY,
      '--seed',
      '1',
      '--checks',
      label === 'the key itself' ? 'validation' : 'auth',
    ]);
    await target.close();
    t.equal(run.code, 1, `${label}: the target fails`);
    const replays = [...run.stdout.matchAll(/^ {3}replay: (curl .*)$/gm)].map((m) => m[1]!);
    const requests = [...run.stdout.matchAll(/^ {3}request: (\S+) (\S+)$/gm)].map((m) => ({ method: m[1]!, path: m[2]! }));
    t.ok(replays.length > 0 && replays.length === requests.length, `${label}: a replay line per failing request`);
    let found = false;
    for (const [i, line] of replays.entries()) {
      // `curl` replaced by a function that prints each argument it gets, NUL-terminated.
      const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${line}`;
      const { stdout } = await promisify(execFile)('sh', ['-c', script], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', PETSTORE_API_KEY: KEY } });
      const args = stdout.split('\0').slice(0, -1);
      t.strictSame(args.slice(0, 5), ['-sS', '-i', '-X', requests[i]!.method, target.url + requests[i]!.path], `${label}: method and URL`);
      const headers = args.flatMap((a, j) => (args[j - 1] === '-H' ? [a] : []));
      if (headers.includes(`authorization: ${header}`)) found = true;
      t.notOk(line.includes(KEY) || line.includes(header.split(' ')[1]!), `${label}: the line itself holds no form of the key`);
    }
    t.ok(found, `${label}: a replay sends Authorization: ${header}`);
  }
});

// ── A one-character key ────────────────────────────────────────────────

t.test("a one-character key is removed from the data of every report, never from the suite's own words", async (t) => {
  const key = 'k';
  const target = await startVariant('error-status-mismatch', { apiKey: key });
  t.teardown(() => target.close());
  const args = ['conform', '--base-url', target.url, '--api-key', key, '--seed', '1', '--runs', '10', '--quiet'];

  const json = await runCli([...args, '--reporter', 'json']);
  t.equal(json.code, 1);
  const result = JSON.parse(json.stdout) as ConformanceResult;
  t.strictSame(Object.keys(result).sort(), RESULT_FIELDS, 'field names intact');
  // The same run with a long key is the baseline: the suite's own words must read the same.
  const baselineTarget = await startVariant('error-status-mismatch', { apiKey: KEY });
  t.teardown(() => baselineTarget.close());
  const baseline = JSON.parse(
    (await runCli(['conform', '--base-url', baselineTarget.url, '--api-key', KEY, '--seed', '1', '--runs', '10', '--quiet', '--reporter', 'json'])).stdout,
  ) as ConformanceResult;
  const ownWords = (r: ConformanceResult) => ({
    // The leaks family has nothing to look for with a one-character key (not run), whatever a report says.
    checks: r.checks.map((c) => [c.id, c.family, c.operationId, c.title, c.family === 'leaks' ? '' : c.status]),
    failures: r.failures.map((f) => [f.checkId, f.requirement, f.seedSection]),
    advisories: r.advisories.map((a) => [a.decision, a.seed, a.referenceBehaviour]),
  });
  t.strictSame(ownWords(result), ownWords(baseline), 'check ids, titles, requirements and advisories read as with a long key');
  const credentials = result.failures.flatMap((f) => [f.request?.headers['authorization'] ?? []].flat());
  t.ok(credentials.length > 0 && credentials.every((a) => !/ k$/.test(a!)), `no credential shows the key: ${JSON.stringify(credentials)}`);
  t.ok(credentials.includes('Bearer $PETSTORE_API_KEY'), 'the key shows as $PETSTORE_API_KEY');

  const tap = await runCli([...args, '--reporter', 'tap']);
  const points = tap.stdout.split('\n').filter((l) => /^(not )?ok \d+ - /.test(l));
  t.strictSame(
    points.map((l) => l.replace(/^(not )?ok \d+ - /, '').replace(/ # SKIP.*$/, '')),
    result.checks.map((c) => `${c.id} - ${c.title}`.replace(/#/g, '\\#')),
    'one TAP test point per check, "ok" spelled out, each named by its check id and title',
  );
  t.ok(tap.stdout.startsWith('TAP version 14\n'));

  const human = await runCli([...args]);
  t.match(human.stdout, /\nFAIL: \d+ passed, \d+ failed(, \d+ (advisory|skipped|not run))*\n$/, 'the human report ends with its verdict');
  for (const c of result.checks) t.ok(human.stdout.includes(`${c.operationId}: ${c.title}`), `the human report names ${c.id} as it is`);
  t.match(human.stdout, /replay: curl .*\$PETSTORE_API_KEY/, 'the replay line reads the key from the environment');
});

t.test('--reporter json writes an int64 beyond 2^53 with every digit, as a JSON number', async (t) => {
  const result = {
    ok: false,
    failures: [{ response: { json: { id: 9007199254740993n, categoryId: -9223372036854775808n } } }],
  } as unknown as Parameters<typeof renderJson>[0];
  const text = renderJson(result, 'some-key-123');
  t.match(text, /"id": 9007199254740993,/);
  t.match(text, /"categoryId": -9223372036854775808\n/);
});
