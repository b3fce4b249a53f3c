import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import {
  expectInert,
  hasBrowser,
  launchBrowser,
  requireBrowser,
  screenshot,
  screenshotDir,
  watchedPage,
} from '../helpers/browser.js';
import { readMarks } from '../helpers/mark-run.js';
import { makeRolloutRun } from '../helpers/rollout-run.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { startViewServer } from '../../src/view/server/view-server.js';
import { writeHtmlReport } from '../../src/view/write-html-report.js';

// A turn's input and response that would run script if the page took them as markup.
const PAYLOAD = '<script>window.__pwned = "script"; alert("script")</script><img src=x onerror="window.__pwned = 1">';

declare const window: { __pwned?: unknown };
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): { length: number };
};

const BLANK = 'fixture,rep,mark,note\nalpha,1,,\nalpha,2,,\nbeta,1,,\nbeta,2,error,sut: exit\n';

/**
 * alpha: two reps that pass every one of their 3 turns' checks; beta 1 stopped at turn 24 on a failed check; beta 2
 * errored at turn 25, its turn 24 holding markup in the player's input, the response, the check's reason and the error.
 */
async function rolloutRun(dir: string): Promise<string> {
  const pass = { mark: 'pass', reason: 'names deck 2' } as const;
  await makeRolloutRun(dir, 3, [
    { name: 'alpha', reps: [{ turns: [{ check: pass }, { check: pass }, { check: pass }] }, { turns: [{}, {}, {}] }] },
    {
      name: 'beta',
      reps: [
        { turns: [{ check: pass }, { check: { mark: 'fail', reason: 'names deck 3' } }], stopped: 'fail' },
        {
          turns: [
            {},
            { input: PAYLOAD, response: PAYLOAD, check: { mark: 'pass', reason: PAYLOAD } },
            { response: null, error: { cause: 'exit', message: PAYLOAD } },
          ],
          stopped: 'error',
        },
      ],
    },
  ]);
  await writeFile(join(dir, 'marks.csv'), BLANK);
  return dir;
}

/** The turn numbers a list of turns shows, in the page's order. */
async function turnsOf(items: Locator): Promise<(string | null)[]> {
  return Promise.all((await items.all()).map((item) => item.getAttribute('data-turn')));
}

async function allSaved(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('#save-status')?.textContent === 'every mark saved');
}

describe('rollout reps in the browser', () => {
  let folder: string;
  let shots: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-browser-rollout-view-'));
    shots = await screenshotDir('rollout-view');
    if (hasBrowser) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('has a Chromium to open the pages with (required on CI)', () => {
    expect(hasBrowser || !requireBrowser).toBe(true);
  });

  it.runIf(hasBrowser)(
    'the viewer lists each rollout rep turn by turn: input, response, checks, error, changes, where it stopped',
    async () => {
      const run = await rolloutRun(join(folder, 'runs', 'places', 'viewer'));
      await using server = await startViewServer({ runs: [run], cwd: folder, strict: true });
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(`${server.url}#run=0`);
      await page.waitForSelector('body[data-view=run][data-ready=true]');
      const alpha1 = page.locator('[data-rep="alpha/1"]');
      expect(await alpha1.locator('.rollout-summary').textContent()).toBe('Rollout: 3 of 3 turns played');
      expect(await turnsOf(alpha1.locator('li.turn'))).toEqual(['23', '24', '25']);
      expect(await alpha1.locator('li.turn h4').allTextContents()).toEqual([
        'Turn 23 · checks pass · SUT 33 ms',
        'Turn 24 · checks pass · SUT 34 ms',
        'Turn 25 · checks pass · SUT 35 ms',
      ]);
      expect(await alpha1.locator('.turn-input .text').allTextContents()).toEqual([
        'INPUT-alpha-1-23 where now?',
        'INPUT-alpha-1-24 where now?',
        'INPUT-alpha-1-25 where now?',
      ]);
      expect(await alpha1.locator('pre.turn-response').allTextContents()).toEqual([
        'RESPONSE-alpha-1-23: take the lift.',
        'RESPONSE-alpha-1-24: take the lift.',
        'RESPONSE-alpha-1-25: take the lift.',
      ]);
      expect(await alpha1.locator('.turn-check').first().textContent()).toBe('checks: pass (names deck 2)');
      expect(await alpha1.locator('.turn-changed').first().textContent()).toBe(
        'changed: inserted 1 row of turns; turn row written by sut',
      );
      // The transcript is shown once, turn by turn, not again as one response.
      expect(await alpha1.locator('pre.response').count()).toBe(0);
      expect(await page.locator('[data-rep="alpha/2"] li.turn[data-check=none]').count()).toBe(3);

      const beta1 = page.locator('[data-rep="beta/1"]');
      expect(await beta1.locator('.rollout-summary').textContent()).toBe(
        'Rollout: 2 of 3 turns played (stopped at turn 24: a turn failed its checks)',
      );
      expect(await beta1.locator('li.turn[data-turn="24"] .turn-check').textContent()).toBe(
        'checks: fail (names deck 3)',
      );
      const beta2 = page.locator('[data-rep="beta/2"]');
      expect(await beta2.locator('.rollout-summary').textContent()).toBe(
        'Rollout: 3 of 3 turns played (stopped at turn 25: a turn errored)',
      );
      // The markup stays text, character for character, wherever the turn shows it.
      const turn24 = beta2.locator('li.turn[data-turn="24"]');
      expect(await turn24.locator('.turn-input .text').textContent()).toBe(PAYLOAD);
      expect(await turn24.locator('pre.turn-response').textContent()).toBe(PAYLOAD);
      expect(await turn24.locator('.turn-check').textContent()).toBe(`checks: pass (${PAYLOAD})`);
      expect(await beta2.locator('li.turn[data-turn="25"] .turn-error').textContent()).toBe(`ERROR (exit): ${PAYLOAD}`);
      expect(await beta2.locator('li.turn[data-turn="25"] .turn-response').textContent()).toBe('(no response)');
      // The text filter finds a rep by a turn's response.
      await page.fill('#filter-text', 'RESPONSE-alpha-2-24');
      await page.waitForFunction(() => document.querySelector('#rep-count')?.textContent?.includes('of 1 matching'));
      await screenshot(page, shots, 'rollout-run');
      await expectInert(page, problems);
      await page.close();
    },
  );

  it.runIf(hasBrowser)(
    "marks turn 24 fail in the browser: turn_marks in marks.csv, and the report's survival drops at turn 24",
    async () => {
      const run = await rolloutRun(join(folder, 'runs', 'places', 'marker'));
      const before = await runInProcess(['report', run, '--json'], { cwd: folder });
      const alphaBefore = JSON.parse(before.stdout).report.rollout.fixtures.find(
        (f: { fixture: string }) => f.fixture === 'alpha',
      );
      expect(alphaBefore.steps.map((step: { surviving: number }) => step.surviving)).toEqual([2, 2, 2]);
      {
        await using server = await startViewServer({ runs: [run], cwd: folder, strict: true });
        const { page, problems } = await watchedPage(browser!.context);
        await page.goto(`${server.url}#mark=0`);
        await page.waitForSelector('body[data-view=marker][data-ready=true]');
        expect(await page.textContent('#rep-label')).toBe('alpha rep 1 (1 of 4)');
        expect(await page.textContent('#pane-text')).toContain('TURN 23 of 25 (step 1 of 3; 3 played)');
        expect(await turnsOf(page.locator('#turnbar li'))).toEqual(['23', '24', '25']);
        await page.keyboard.press(']');
        const pane = (await page.textContent('#pane-text'))!;
        expect(pane).toContain('TURN 24 of 25 (step 2 of 3; 3 played)');
        expect(pane).toContain('  player_input: INPUT-alpha-1-24 where now?');
        expect(pane).toContain('RESPONSE-alpha-1-24: take the lift.');
        await page.keyboard.press('F');
        await allSaved(page);
        expect(await page.getAttribute('#turnbar li[data-turn="24"]', 'data-mark')).toBe('fail');
        expect(await page.textContent('#pane-text')).toContain('your mark for this turn: fail');
        let marks = await readMarks(join(run, 'marks.csv'));
        expect(marks['alpha/1']).toMatchObject({ mark: '', turnMarks: [{ turn: 24, mark: 'fail' }] });
        expect(await readFile(join(run, 'marks.csv'), 'utf8')).toMatch(
          /^fixture,rep,mark,note,grader,marked_at,rubric_version,turn_marks\n/,
        );
        // The rep's own mark keeps its turn marks; p moves on to beta 1, where a click marks turn 23 pass.
        await page.keyboard.press('p');
        expect(await page.textContent('#rep-label')).toBe('beta rep 1 (2 of 4)');
        await page.click('#turnbar li[data-turn="23"] button[data-give=pass]');
        await allSaved(page);
        // A mark given and taken away again leaves nothing in the cell.
        await page.click('#turnbar li[data-turn="24"] button[data-give=fail]');
        await allSaved(page);
        await page.click('#turnbar li[data-turn="24"] button[data-give=none]');
        await allSaved(page);
        await screenshot(page, shots, 'rollout-marker');
        expect(problems).toEqual([]);
        marks = await readMarks(join(run, 'marks.csv'));
        expect(marks['alpha/1']).toMatchObject({ mark: 'pass', turnMarks: [{ turn: 24, mark: 'fail' }] });
        expect(marks['beta/1']).toMatchObject({ mark: '', turnMarks: [{ turn: 23, mark: 'pass' }] });
        expect(await readFile(join(run, 'marks.csv'), 'utf8')).toMatch(/^alpha,1,pass,,[^,]+,[^,]+,v?\d*,24:fail$/m);
        await page.close();
      }
      // The marks file read back by turnkit report: alpha's survival drops at turn 24.
      const after = await runInProcess(['report', run, '--json'], { cwd: folder });
      expect(after.code).toBe(0);
      const alphaAfter = JSON.parse(after.stdout).report.rollout.fixtures.find(
        (f: { fixture: string }) => f.fixture === 'alpha',
      );
      expect(alphaAfter.steps.map((step: { surviving: number }) => step.surviving)).toEqual([2, 1, 1]);
      expect(alphaAfter.medianFirstFailingTurn).toBe(24);
      const text = await runInProcess(['report', run], { cwd: folder });
      expect(text.stdout).toMatch(/^alpha\s+2\/2\s+1\/2\s+1\/2\s+turn 24\s*$/m);

      // The static report says so too, and how many turns a person marked.
      const { file } = await writeHtmlReport({ dir: run, cwd: folder, file: join(folder, 'rollout.html') });
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('body[data-ready=true]');
      expect(await page.locator('[data-survival="alpha"] th, [data-survival="alpha"] td').allTextContents()).toEqual([
        'alpha',
        '2/2',
        '1/2',
        '1/2',
        'turn 24',
      ]);
      expect(await page.textContent('#survival-turn-marks')).toBe(
        '2 turns marked by a person in marks.csv (1 fail), counted with the checks.',
      );
      expect(await page.textContent('[data-rep="alpha/1"] li.turn[data-turn="24"] .turn-marks')).toBe(
        'marked by hand: marks.csv: fail',
      );
      // The static page draws the same turns as text.
      expect(await page.locator('[data-rep="beta/2"] li.turn[data-turn="24"] pre.turn-response').textContent()).toBe(
        PAYLOAD,
      );
      await expectInert(page, problems);
      await page.close();
    },
  );

  it.runIf(hasBrowser)(
    "blind: a rollout's turns with the fixture names scrubbed, and a turn's mark in marks.blind.csv",
    async () => {
      // Each response names its fixture as a word: blind, the page shows the case's neutral name instead.
      const said = (name: string) => ({ response: `Welcome aboard the ${name}.`, input: `${name} deck?` });
      const run = await makeRolloutRun(join(folder, 'runs', 'places', 'blind'), 2, [
        { name: 'alpha', reps: [{ turns: [said('alpha'), said('alpha')] }, { turns: [said('alpha'), said('alpha')] }] },
        { name: 'beta', reps: [{ turns: [said('beta'), said('beta')] }, { turns: [said('beta'), said('beta')] }] },
      ]);
      const blank = BLANK.replace('beta,2,error,sut: exit', 'beta,2,,');
      await writeFile(join(run, 'marks.csv'), blank);
      await using server = await startViewServer({ runs: [run], cwd: folder, strict: true, blind: true, seed: 3 });
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(server.url);
      await page.waitForSelector('body[data-view=marker][data-ready=true]');
      const pane = (await page.textContent('#pane-text'))!;
      expect(pane).toMatch(/^TURN 23 of 24 \(step 1 of 2; 2 played\)\n\nPlayer:\n {2}player_input: case \d deck\?\n/);
      expect(pane).toMatch(/Response:\nWelcome aboard the case \d\.\n/);
      expect(await page.evaluate(() => document.querySelector('main')?.textContent)).not.toMatch(/alpha|beta/);
      expect(await turnsOf(page.locator('#turnbar li'))).toEqual(['23', '24']);
      await page.keyboard.press('F');
      await allSaved(page);
      const rows = Object.values(await readMarks(join(run, 'marks.blind.csv')));
      expect(rows.flatMap((row) => row.turnMarks ?? [])).toEqual([{ turn: 23, mark: 'fail' }]);
      expect(await readFile(join(run, 'marks.csv'), 'utf8')).toBe(blank);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
