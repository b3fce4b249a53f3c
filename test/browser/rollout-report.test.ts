import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasBrowser, launchBrowser, watchedPage } from '../helpers/browser.js';
import { DEMO_FIXTURES, demoLikeRun } from '../helpers/mark-run.js';
import { writeHtmlReport } from '../../src/view/write-html-report.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

declare const document: { querySelectorAll(selector: string): { length: number } };

// Makes each rep of a demo-like run a 3-turn rollout: a wrong response fails its turn's checks from there on.
async function asRollouts(run: string): Promise<void> {
  for (const fixture of DEMO_FIXTURES) {
    const folder = join(run, 'reps', fixture);
    for (const name of (await readdir(folder)).filter((file) => file.endsWith('.json'))) {
      const record = JSON.parse(await readFile(join(folder, name), 'utf8')) as RepRecord;
      const wrong = record.response?.includes('deck 3') ?? false;
      record.rollout = { turns: 3, played: 3 };
      record.turns = [23, 24, 25].map((turn, i) => ({
        turn,
        input: { player_input: `turn ${turn}` },
        caseFile: '',
        response: record.response,
        error: null,
        timings: { playerMs: 0, sutMs: 1, turnkitMs: 1 },
        effects: null,
        turnRow: 'sut' as const,
        // The base's wrong reps go wrong at turn 24; the fixed one's at turn 25.
        check: { mark: wrong && i >= (fixture === DEMO_FIXTURES[0] ? 1 : 2) ? 'fail' : 'pass', reason: '' } as const,
      }));
      await writeFile(join(folder, name), `${JSON.stringify(record, null, 2)}\n`);
    }
  }
}

describe.runIf(hasBrowser)('the HTML report of a rollout run', () => {
  let folder: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-browser-rollout-'));
    await asRollouts(await demoLikeRun(join(folder, 'run'), 6));
    // Nobody has marked the reps: the survival comes from the turns' checks.
    const rows = DEMO_FIXTURES.flatMap((fixture) => [1, 2, 3, 4, 5, 6].map((rep) => `${fixture},${rep},,`));
    await writeFile(join(folder, 'run', 'marks.csv'), `fixture,rep,mark,note\n${rows.join('\n')}\n`);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('charts the reps still passing after each turn and shows the survival table and the per-turn delta', async () => {
    const { file } = await writeHtmlReport({ dir: join(folder, 'run'), cwd: folder });
    const { page, problems } = await watchedPage(browser.context);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready=true]');
    // Base: reps 1 and 4 right (i % 3 === 0), 4 wrong from turn 24. Fixed: rep 4 wrong from turn 25.
    const cells = async (selector: string): Promise<string[]> =>
      page.locator(`${selector} th, ${selector} td`).allTextContents();
    expect(await cells(`[data-survival="${DEMO_FIXTURES[0]}"]`)).toEqual([
      DEMO_FIXTURES[0],
      '6/6',
      '2/6',
      '2/6',
      'turn 24',
    ]);
    expect(await cells(`[data-survival="${DEMO_FIXTURES[1]}"]`)).toEqual([
      DEMO_FIXTURES[1],
      '6/6',
      '6/6',
      '5/6',
      'turn 25',
    ]);
    const pair = await cells(`[data-survival-pair="${DEMO_FIXTURES[1]}"]`);
    expect(pair.slice(0, 4)).toEqual([DEMO_FIXTURES[1], DEMO_FIXTURES[0], 'delta / Fisher p', '±0.00 / 1.000']);
    expect(pair[4]).toMatch(/^\+0\.67 \/ 0\.061$/);
    expect(await page.evaluate(() => document.querySelectorAll('#survival svg polyline').length)).toBe(2);
    expect(await page.locator('#chart-survival-d').textContent()).toContain(
      `${DEMO_FIXTURES[0]}: turn 23 6/6, turn 24 2/6, turn 25 2/6`,
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});
