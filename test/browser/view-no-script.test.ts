import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasBrowser, launchBrowser, requireBrowser } from '../helpers/browser.js';
import { makeReportRun } from '../helpers/report-run.js';
import { startViewServer } from '../../src/view/server/view-server.js';

// With JavaScript off (or a crawler's screenshot), the viewer's first response says what it is: the run's summary.
describe('turnkit view without JavaScript', () => {
  let folder: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-browser-noscript-'));
    if (hasBrowser) browser = await launchBrowser({ javaScriptEnabled: false });
  });
  afterAll(async () => {
    await browser?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('has a Chromium to open the pages with (required on CI)', () => {
    expect(hasBrowser || !requireBrowser).toBe(true);
  });

  it.runIf(hasBrowser)('shows the summary table of the run, its text escaped, before any script runs', async () => {
    const run = await makeReportRun(join(folder, 'runs', 'places', 'stamp'));
    // A question text with markup: shown as text, never as an element.
    const manifestFile = join(run, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    manifest.question.text = 'where is <b id="bold">the mess hall</b>?';
    await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    await using server = await startViewServer({ runs: [run], cwd: folder });
    const page = await browser!.context.newPage();
    await page.goto(server.url);
    // Read through locators (playwright's own world): the page's scripts are off.
    const rows = page.locator('#summary-0 tbody tr');
    const cells: string[][] = [];
    for (let i = 0; i < (await rows.count()); i++) cells.push(await rows.nth(i).locator('th, td').allTextContents());
    expect(cells).toEqual([
      ['base', 'dev', '1', '3', '1', '1', '0', '0.25 (1/4)', 'missed'],
      ['base-fixed', 'dev', '5', '1', '0', '0', '0', '0.83 (5/6)', expect.stringMatching(/^(met|missed)/)],
      ['far', 'heldout', '3', '1', '0', '0', '2', '0.75 (3/4)', 'pending (uncertain)'],
    ]);
    expect(await page.textContent('#summary-0 h1')).toBe('places: where is <b id="bold">the mess hall</b>?');
    expect(await page.$('#bold')).toBeNull();
    await page.close();
  });
});
