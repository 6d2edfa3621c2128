import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';

/** Debian's chromium (tools/scripts/ensure-chromium.sh installs it); never a downloaded one. */
const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where each run's screenshots go; the README's come from here (docs/screenshots). */
export const SCREENSHOT_DIR = path.resolve(__dirname, '../../../../tmp/console-screenshots');

/**
 * Headless Chromium as these machines allow it: no sandbox (root), no GPU, and none of the
 * background calls to Google's hosts that a closed network refuses.
 */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/**
 * Playwright's own step timeout is 30 s, the same as these tests' jest timeout, so a step that
 * never finishes used to end as jest's "Exceeded timeout" naming only the test. At 10 s the step
 * fails first, with Playwright's error naming the locator it waited for.
 */
const STEP_TIMEOUT_MS = 10_000;

export async function newBrowserContext(
  browser: Browser,
  options: BrowserContextOptions,
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  // A page load (the console's first, on a busy CI machine) keeps Playwright's 30 s.
  context.setDefaultNavigationTimeout(30_000);
  return context;
}

/**
 * The whole page, from its top: a full-page capture draws sticky elements (the console's sidebar)
 * where the current scroll put them, halfway down a page a step scrolled.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
