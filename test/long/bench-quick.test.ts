// `npm run bench -- --quick` must keep working (it is not part of npm test
// otherwise). This runs it with autocannon, the generator every clean clone
// has, and checks the table it prints; the figures themselves are not judged
// here: speed targets live in the bench, not in timed tests.
import { spawn } from 'node:child_process';
import t from 'tap';

// The quick bench runs every scenario against every server for a second or more: beyond tap's default per file.
t.setTimeout(600_000);
t.test('npm run bench -- --quick runs every scenario and prints its tables', { timeout: 600_000 }, async (t) => {
  const child = spawn(process.execPath, ['bench/run.mjs', '--quick', '--generator', 'autocannon', '--seconds', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  t.equal(code, 0, `the bench exits 0\n${out}`);
  for (const scenario of ['GET /pets?limit=20', 'GET /pets/{id}', 'POST /pets', '401 (no key)']) {
    for (const server of ['ceiling', 'reference', 'reference --quiet', 'ceiling + outbox', 'prism-static']) {
      t.match(
        out,
        new RegExp(`\\| ${scenario.replace(/[?{}()/]/g, '\\$&')} \\| ${server.replace('+', '\\+')} \\| [\\d,]+ \\|`),
        `${scenario} against ${server}`,
      );
    }
  }
  t.match(
    out,
    /reference × \(ceiling \+ outbox\), paired the same way: GET \/pets\?limit=20 [\d.]+/,
    'the reference against the ceiling with the same write policy',
  );
  t.match(
    out,
    /reference \(default: log to a file, journal, findings\) × reference --quiet --journal-size 0, paired: GET \/pets\?limit=20 [\d.]+/,
    'issue 26: the default configuration beside the quiet one',
  );
  t.match(out, /issue 26 targets \(the default configuration × ceiling, median\): GET \/pets\?limit=20 [\d.]+x (≥|<) 0\.9x/, 'and against the targets');
  // autocannon reports whole milliseconds: a p50 of 0 leaves the ratio undefined ("–", both 0) or infinite ("∞", only the first).
  t.match(out, /\| GET \/pets\?status=sold&limit=100 \| [\d.]+ \| [\d.]+ \| ([\d.]+|–|∞) \|/, 'the scaling run');
  t.match(out, /bytes per pet/, 'memory per pet');
  t.match(out, /suite: petstore conform .* exit 0, [\d,]+ requests/, 'the suite run passed against the reference server');
  t.match(out, /where the time goes: suite process [\d.]+ s CPU \(main thread [\d.]+ s; other threads [\d.]+ s/, "the suite's CPU, main thread and the rest");
  t.match(out, /the floor: the suite's client alone .* [\d.]+ s = [\d,]+ req\/s/, "the client floor under the suite's rate");
  // Issue 48: the proxy's overhead, the reference alone beside it behind petstore proxy and behind Prism's proxy.
  for (const scenario of ['GET /pets?limit=20', 'GET /pets/{id}', 'POST /pets', '401 (no key)']) {
    for (const server of ['reference', 'proxy → reference', 'prism proxy → reference']) {
      t.match(
        out,
        new RegExp(`\\| ${scenario.replace(/[?{}()/]/g, '\\$&')} \\| ${server} \\| [\\d,]+ \\| [\\d.,]+ \\| [\\d.,]+ \\| `),
        `the proxy's overhead: ${scenario} to ${server}`,
      );
    }
  }
  t.match(out, /issue 48 targets \(proxy → reference × reference, 50 connections, median\): GET \/pets\?limit=20 [\d.]+x (≥|<) 0\.6x/, "the proxy's targets");
  t.match(out, /\| scenario \(1 connection, 1 round\(s\)\) \| server \|/, 'one request at a time through the proxies');
});
