// The request log's own rules (src/server/log.ts): a line is handed over as
// its UTF-8 bytes, and a latency in tenths exactly as toFixed(1) shows it.
// What `petstore serve` logs, in a child process, is in
// test/cli/serve/log.long.test.ts.
import t from 'tap';
import type { JournalRecord } from '../../../src/server/control/journal.js';
import { createRequestLogger, tenths, utf8Bytes } from '../../../src/server/log.js';

t.test('a line is handed over as its UTF-8 bytes, one character a byte: written with latin1, the bytes the line always had, past ASCII too', async (t) => {
  // Node's parser refuses a target with bytes past ASCII (400, not logged); the control API's own texts may hold any.
  const record: JournalRecord = {
    id: 3,
    findings: 'warning /paths/~1pets/get/parameters, warning /é',
    arrivedAt: Date.UTC(2026, 10, 26, 12, 34, 56, 7),
    method: 'GET',
    path: '/v1/pets?né=1&k=the-key',
    status: 503,
    latencyMs: 1.25,
    code: 'fault_injected',
    fault: 'status=503 ✓',
    httpVersion: '1.1',
    requestHeaders: [],
    requestBody: undefined,
    requestBytes: 0,
    responseHeaders: undefined,
    responseBody: undefined,
    responseBytes: 0,
  };
  const redact = (text: string) => text.replace('the-key', '[redacted]');
  for (const format of ['pretty', 'json'] as const) {
    const lines: string[] = [];
    createRequestLogger(format, (line) => lines.push(line))!(record, redact);
    createRequestLogger(format, (line) => lines.push(line))!({ ...record, path: '/v1/pets', findings: undefined, fault: undefined, code: undefined }, redact);
    const written = Buffer.from(lines.join(''), 'latin1').toString('utf8').split('\n');
    if (format === 'pretty') {
      t.strictSame(written, [
        '12:34:56.007 GET    /v1/pets?né=1&k=[redacted] → 503 fault_injected 1.3 ms [fault: status=503 ✓] [warning /paths/~1pets/get/parameters, warning /é]',
        '12:34:56.007 GET    /v1/pets → 503 1.3 ms',
        '',
      ]);
    } else {
      const [first, second] = written.map((line) => (line === '' ? undefined : JSON.parse(line)));
      t.match(first, {
        level: 50,
        time: record.arrivedAt,
        req: { method: 'GET', url: '/v1/pets?né=1&k=[redacted]' },
        code: 'fault_injected',
        fault: 'status=503 ✓',
      });
      t.equal(first.findings, record.findings);
      t.match(second, { req: { url: '/v1/pets' }, res: { statusCode: 503 } });
    }
  }
  t.equal(utf8Bytes('plain ASCII'), 'plain ASCII', 'ASCII is itself');
  t.equal(Buffer.from(utf8Bytes('→ é ✓ 🐕'), 'latin1').toString('utf8'), '→ é ✓ 🐕');
});

t.test('a latency is shown in tenths exactly as toFixed(1) shows it, ties included', async (t) => {
  let mismatches = 0;
  const check = (x: number) => {
    if (tenths(x) !== x.toFixed(1) && mismatches++ < 5) t.fail(`${x}: ${tenths(x)}, toFixed ${x.toFixed(1)}`);
  };
  // Every latency as the server records one (hundredths) up to 20 s, ties (0.05, 0.15, 1.25…) included.
  for (let k = 0; k <= 2_000_000; k++) check(k / 100);
  // And 100,000 others spread over nine orders of magnitude, from a fixed sequence (a 32-bit LCG).
  let state = 1;
  const next = () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
  for (let i = 0; i < 100_000; i++) {
    const raw = next() * 10 ** (next() * 9);
    check(Math.round(raw * 100) / 100);
    check(raw);
  }
  for (const x of [0, -0, -1.25, 1e21, Number.NaN, Number.POSITIVE_INFINITY, 0.049999, 90071992547409.94, 5e-324]) check(x);
  t.equal(mismatches, 0);
});
