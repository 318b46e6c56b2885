// `--reporter html` in a real browser (Debian's Chromium, headless): the
// page opens from the file alone, with no request to anywhere, logs no error,
// and shows what a reader needs: the counts, each failure with its replay
// line, and the coverage map, on a laptop and on a phone.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { startVariant } from '../../fixtures/implementations/index.mjs';
import type { ConformanceResult } from '../../conformance/index.js';
import { openPage } from '../helpers/browser.js';
import { runCli } from '../helpers/run-conform.js';

const KEY = 'html-report-key-7';

/** One run with two reports: the JSON result, to compare with, and the HTML page. */
async function reportsOf(variant: string): Promise<{ result: ConformanceResult; html: string; file: string }> {
  const target = await startVariant(variant, { apiKey: KEY });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-html-'));
    const file = join(dir, 'report.html');
    const json = join(dir, 'report.json');
    await runCli([
      'conform',
      '--base-url',
      target.url,
      '--api-key',
      KEY,
      '--seed',
      '1',
      '--runs',
      '10',
      '--quiet',
      '--reporter',
      `json:${json}`,
      '--reporter',
      `html:${file}`,
    ]);
    return { result: JSON.parse(readFileSync(json, 'utf8')) as ConformanceResult, html: readFileSync(file, 'utf8'), file };
  } finally {
    await target.close();
  }
}

for (const [variant, failing] of [
  ['accepts-missing-auth', true],
  ['shuffled-order', false],
] as const) {
  t.test(`the HTML report of a run against ${variant} (${failing ? 'broken' : 'correct'}) reads in a browser`, async (t) => {
    const { result, html, file } = await reportsOf(variant);
    t.notOk(html.includes(KEY), 'the key appears nowhere in the file');
    t.notMatch(
      html,
      /<script|<link|@import|url\(|https?:\/\/(?!127\.0\.0\.1)/i,
      'no script, stylesheet, font or address outside the file (the target is on 127.0.0.1)',
    );

    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      const { page, problems, requests } = await openPage(t, { width, height });
      await page.goto(pathToFileURL(file).href);
      for (const status of ['passed', 'failed', 'advisory', 'skipped', 'not run'] as const) {
        const cell = page.locator(`#counts li[data-status="${status}"]`);
        t.ok(await cell.isVisible(), `${width}px: the ${status} count is visible`);
        t.equal((await cell.locator('b').textContent())?.trim(), String(result.counts[status]), `${width}px: ${status} shows ${result.counts[status]}`);
      }
      t.equal((await page.locator('h1 .verdict').textContent())?.trim(), failing ? 'FAIL' : 'PASS', `${width}px: the verdict`);
      if (failing) {
        const first = page.locator('section.failure').first();
        t.ok(await first.isVisible(), `${width}px: the first failure is visible`);
        t.equal(await page.locator('section.failure').count(), result.failures.length, `${width}px: one section per failure`);
        t.match(await first.locator('pre.replay').textContent(), /^curl -sS -i -X \w+ 'http:\/\/127\.0\.0\.1:\d+\/v1\/pets/, `${width}px: its replay line`);
        t.match(await first.textContent(), /Requirement \(§/, `${width}px: its requirement and seed section`);
      }
      for (const op of result.coverage.operations) {
        const table = page.locator(`table.coverage[data-operation="${op.operationId}"]`);
        t.ok(await table.isVisible(), `${width}px: the coverage of ${op.operationId} is visible`);
        t.equal((await table.locator('td.requests').textContent())?.trim(), String(op.requests), `${width}px: ${op.operationId}: ${op.requests} requests`);
      }
      // A string, evaluated in the page: the tests are compiled without the DOM's types.
      const overflow = (await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')) as number;
      t.ok(overflow <= 0, `${width}px: nothing wider than the window (${overflow} px over)`);
      t.strictSame(problems, [], `${width}px: the page logs no error`);
      t.strictSame(requests, [pathToFileURL(file).href], `${width}px: the page requests nothing but itself`);
    }
  });
}
