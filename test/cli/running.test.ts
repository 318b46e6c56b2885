import { PassThrough } from 'node:stream';
import t from 'tap';
import type { CliIo } from '../../cli/io.js';
import { openOutput, reportFindings } from '../../cli/running.js';
import type { Finding } from '../../src/index.js';

function io(): CliIo & { out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return { stdout, stderr, env: {}, out: () => out, err: () => err };
}

const finding = (side: Finding['side'], severity: Finding['severity'], code: string): Finding =>
  ({
    code,
    side,
    severity,
    rule: '/paths',
    seed: '§4',
    sent: 'x',
    expected: 'y',
    message: `${code} seen`,
    count: 1,
    first: { request: 1, method: 'GET', target: '/v1/pets', at: '2026-11-29T00:00:00.000Z' },
    last: { request: 1, method: 'GET', target: '/v1/pets', at: '2026-11-29T00:00:00.000Z' },
  }) as Finding;

t.test('the summary at shutdown says whose findings they are', async (t) => {
  const cases: [Finding[], RegExp][] = [
    [[finding('client', 'warning', 'key_form')], /1 finding in what clients sent \(0 errors, 1 warning\)/],
    [[finding('server', 'error', 'http.date')], /1 finding in what the upstream answered \(1 error, 0 warnings\)/],
    [
      [finding('client', 'error', 'invalid_body'), finding('server', 'error', 'http.date'), finding('server', 'warning', 'proxy.unjudged')],
      /3 findings in what clients sent \(1\) and what the upstream answered \(2\) \(2 errors, 1 warning\)/,
    ],
  ];
  for (const [findings, said] of cases) {
    const streams = io();
    const lines: string[] = [];
    await reportFindings({}, streams, findings, (text) => lines.push(text));
    t.match(lines.join(''), said);
  }
});

t.test('--fail-on-findings error counts the errors of either side', async (t) => {
  const saved = process.exitCode;
  t.teardown(() => {
    process.exitCode = saved;
  });
  const streams = io();
  process.exitCode = undefined;
  await reportFindings({ failOnFindings: 'error' }, streams, [finding('server', 'error', 'http.date')], () => {});
  t.equal(process.exitCode, 1);
  t.match(streams.err(), /exit 1 \(--fail-on-findings error\).*http\.date/s);
  process.exitCode = undefined;
  await reportFindings({ failOnFindings: 'error' }, io(), [finding('server', 'warning', 'proxy.unjudged')], () => {});
  t.equal(process.exitCode, undefined, 'a warning does not fail --fail-on-findings error');
});

t.test('a notice is written at once, in order with the request lines', async (t) => {
  const streams = io();
  const output = openOutput(streams, { quiet: false, log: 'pretty' });
  output.notice('petstore: first\n');
  output.notice('petstore: second\n');
  output.close();
  t.equal(streams.out(), 'petstore: first\npetstore: second\n');
});
