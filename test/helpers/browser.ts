import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { systemProgram } from './system-programs.js';

/** Debian's chromium (no browser can be downloaded from npm here); TURNKIT_CHROMIUM names another. */
export const CHROMIUM = process.env.TURNKIT_CHROMIUM || '/usr/bin/chromium';

const chromiumProgram = systemProgram('chromium', existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}`);

/** Whether a Chromium is here to drive the pages with (when not, a notice says what to install). */
export const hasBrowser = chromiumProgram.found;

/** CI (TURNKIT_REQUIRE_BROWSER, or CI set) requires the browser: a machine without it fails instead of quietly skipping. */
export const requireBrowser = chromiumProgram.required;

// The machine's network is closed: every background service of the browser would only produce refused connections.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium with a new empty profile (JavaScript off when asked); close() removes the profile too. */
export async function launchBrowser(
  options: { javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const { chromium } = await import('playwright-core');
  const profile = await mkdtemp(join(tmpdir(), 'turnkit-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** A new page that records what it should never do: script errors, dialogs (alert, confirm), console errors. */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return { page, problems };
}

/** Where a test file's screenshots go (under the temporary folder), printed for a person to look at. */
export async function screenshotDir(name: string): Promise<string> {
  const dir = join(tmpdir(), `turnkit-screenshots-${name}-${process.pid}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Saves a full-page screenshot and prints its path in the test output. */
export async function screenshot(page: Page, dir: string, name: string): Promise<string> {
  const file = join(dir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`screenshot: ${file}`);
  return file;
}

declare const window: { __pwned?: unknown };
declare const document: { querySelectorAll(selector: string): { length: number } };

/**
 * Asserts that a page holding an injected payload ran none of it: no flag set by a script, nothing of the payload
 * became an element (no image, no handler, no javascript: link, no third script: the page has two of its own), and no
 * page error or dialog (`problems`, from `watchedPage`).
 */
export async function expectInert(page: Page, problems: string[]): Promise<void> {
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  expect(
    await page.evaluate(
      () => document.querySelectorAll('img, svg [onload], [onerror], a[href^="javascript"], #evil').length,
    ),
  ).toBe(0);
  expect(await page.evaluate(() => document.querySelectorAll('script').length)).toBe(2);
  expect(problems).toEqual([]);
}
