import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { hasBrowser, launchBrowser, requireBrowser, watchedPage } from '../helpers/browser.js';
import { makeMarkRun } from '../helpers/mark-run.js';
import { writeHtmlReport } from '../../src/view/write-html-report.js';
import { startViewServer } from '../../src/view/server/view-server.js';

interface Box {
  x: number;
  width: number;
}
declare const document: {
  querySelectorAll(selector: string): ArrayLike<{
    getAttribute(name: string): string | null;
    querySelector(selector: string): { textContent: string | null; getBBox(): Box } | null;
  }>;
  querySelector(selector: string): { viewBox: { baseVal: Box } } | null;
};

// 60 characters: far more than the chart's label column holds at its font size.
const LONG = 'alombre-turn-20-crypt-south-patch-with-the-lantern-moved-xyz';
const SHORT = 'base';

/** Each fixture label of the rate chart: its full name (the <title>), the text shown, and whether it fits the chart. */
async function labels(page: Page) {
  return page.evaluate(() => {
    const view = document.querySelector('svg.chart')!.viewBox.baseVal;
    return Array.from(document.querySelectorAll('svg.chart g.chart-label')).map((group) => {
      const text = group.querySelector('text')!;
      const box = text.getBBox();
      return {
        name: group.querySelector('title')!.textContent,
        shown: text.textContent,
        inside: box.x >= view.x && box.x + box.width <= view.x + view.width,
      };
    });
  });
}

describe('long fixture names in the charts', () => {
  let folder: string;
  let run: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    expect(LONG).toHaveLength(60);
    folder = await mkdtemp(join(tmpdir(), 'turnkit-browser-long-names-'));
    run = await makeMarkRun({
      dir: join(folder, 'runs', 'places', 'stamp'),
      fixtures: [
        { name: SHORT, reps: ['deck 2', 'deck 3'] },
        { name: LONG, reps: ['deck 2', 'deck 2'] },
      ],
    });
    await writeFile(
      join(run, 'marks.csv'),
      `fixture,rep,mark,note\n${SHORT},1,pass,\n${SHORT},2,fail,\n${LONG},1,pass,\n${LONG},2,pass,\n`,
    );
    if (hasBrowser) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('has a Chromium to open the pages with (required on CI)', () => {
    expect(hasBrowser || !requireBrowser).toBe(true);
  });

  const expected = (shown: { shown: string | null }[]) => [
    { name: SHORT, shown: SHORT, inside: true },
    { name: LONG, shown: shown[1]!.shown, inside: true },
  ];

  it.runIf(hasBrowser)('the HTML report cuts a 60-character name to fit, the whole name on hover', async () => {
    const { file } = await writeHtmlReport({ dir: run, cwd: folder });
    const { page, problems } = await watchedPage(browser!.context);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready=true]');
    const found = await labels(page);
    expect(found).toEqual(expected(found));
    // Both ends of the name are kept, cut in the middle.
    expect(found[1]!.shown).toMatch(/^alombre-turn-2.*….*-moved-xyz$/);
    expect(found[1]!.shown!.length).toBeLessThanOrEqual(28);
    expect(problems).toEqual([]);
    await page.close();
  });

  it.runIf(hasBrowser)("the viewer's chart does the same", async () => {
    await using server = await startViewServer({ runs: [run], cwd: folder });
    const { page, problems } = await watchedPage(browser!.context);
    await page.goto(server.url);
    await page.waitForSelector('body[data-view=run][data-ready=true]');
    const found = await labels(page);
    expect(found).toEqual(expected(found));
    expect(found[1]!.shown).toMatch(/^alombre-turn-2.*….*-moved-xyz$/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
