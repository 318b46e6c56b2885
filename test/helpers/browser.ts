/**
 * Debian's Chromium, headless, driven by playwright-core for one test and
 * closed when it ends. Nothing is downloaded: the browser is the system's
 * (`.ci/run` installs the `chromium` package when it is missing).
 *
 * The flags are the ones this machine's closed network needs: without the
 * background-networking ones Chromium keeps trying to reach its vendor's
 * hosts, and each refused connection is noise in the page's log.
 */
import { existsSync } from 'node:fs';
import type { Test } from 'tap';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => !!p);

/** The system Chromium's path, or undefined when none is installed. */
export function chromiumPath(): string | undefined {
  return CANDIDATES.find((path) => existsSync(path));
}

export interface BrowserPage {
  readonly browser: Browser;
  readonly page: Page;
  /** Console errors, page errors and failed requests seen so far, as text. */
  readonly problems: string[];
  /** Every request URL the page made, to show that nothing left this machine. */
  readonly requests: string[];
}

/** A fresh page in a headless Chromium that lives as long as the test `t`. */
export async function openPage(t: Test, viewport = { width: 1280, height: 900 }): Promise<BrowserPage> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // playwright makes (and removes) a fresh profile of its own for each launch.
  t.teardown(() => browser.close());
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`));
  page.on('request', (request) => requests.push(request.url()));
  return { browser, page, problems, requests };
}

/** Gives `key` to the docs page's Authorize dialog, as a developer does, and closes it. */
export async function authorizeDocs(page: Page, key: string): Promise<void> {
  await page.locator('button.authorize').first().click();
  await page.locator('.modal-ux input[type="text"], .modal-ux input[type="password"]').first().fill(key);
  await page.locator('.modal-ux button.authorize').click();
  await page.locator('.modal-ux button.btn-done').click();
}
