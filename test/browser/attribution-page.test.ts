import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasBrowser, launchBrowser, requireBrowser, watchedPage } from '../helpers/browser.js';
import { attributionHtml } from '../../src/attribution/attribution-html.js';
import { sequentialAttribution } from '../../src/attribution/sequential-design.js';

// page.evaluate runs these callbacks in the page, where document and window are the page's.
declare const document: {
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; className: string }> &
    Iterable<{
      textContent: string | null;
      className: string;
      querySelectorAll(s: string): Iterable<{ textContent: string | null }>;
    }>;
};
declare const window: { __pwned?: unknown };

// A label and a name as a hostile file could hold them: markup that would run if the page interpreted it.
const HOSTILE = 'turn 7 <img src=x onerror="window.__pwned=1">';

describe('attribution.html in a real browser', () => {
  let folder: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-browser-attribution-'));
    if (hasBrowser) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('has a Chromium to open the page with (required on CI)', () => {
    expect(hasBrowser || !requireBrowser).toBe(true);
  });

  it.runIf(hasBrowser)(
    'shows the ranking the text prints, the significant row marked, every label as text',
    async () => {
      const outcome = await sequentialAttribution(
        ['turn 3', HOSTILE, 'turn 19'],
        async (_look, reps) => [
          { pass: 2, fail: reps - 2 },
          { pass: 3, fail: reps - 3 },
          { pass: 2, fail: reps - 2 },
          { pass: reps, fail: 0 },
        ],
        { repsPerLook: 10, maxLooks: 2, alpha: 0.05 },
      );
      const file = join(folder, 'attribution.html');
      await writeFile(
        file,
        attributionHtml({
          fixture: 'meridian-turn-23',
          question: 'questions/places.yaml',
          dir: 'runs/places/attribute-x',
          outcome,
          variants: [
            { label: 'turn 3', turns: [3], name: 'm-no-t3', file: '/x/m-no-t3.json' },
            { label: HOSTILE, turns: [7], name: 'm-no-t7', file: '/x/m-no-t7.json' },
            { label: 'turn 19', turns: [19], name: 'm-no-t19', file: '/x/m-no-t19.json' },
          ],
        }),
      );
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(pathToFileURL(file).href);
      const rows = await page.evaluate(() =>
        [...document.querySelectorAll('table.ranking tbody tr')].map((row) => ({
          significant: row.className === 'significant',
          cells: [...row.querySelectorAll('td')].map((cell) => cell.textContent),
        })),
      );
      // Fisher's p for 10/10 against 2/10 is 0.00071; Holm over three variants makes it 0.0021.
      expect(rows[0]).toEqual({
        significant: true,
        cells: ['1', 'turn 19', '10/10', '100%', '72%-100%', '+80 pts', '0.002', 'm-no-t19'],
      });
      expect(rows.map((row) => row.cells[1])).toEqual(['turn 19', 'turn 3', HOSTILE]);
      expect(rows.slice(1).every((row) => !row.significant)).toBe(true);
      expect(await page.evaluate(() => document.querySelectorAll('img, script, [onerror]').length)).toBe(0);
      expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
      expect(problems).toEqual([]);
    },
  );
});
