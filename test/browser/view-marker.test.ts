import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  hasBrowser,
  launchBrowser,
  requireBrowser,
  screenshot,
  screenshotDir,
  watchedPage,
} from '../helpers/browser.js';
import { makeMarkRun, readMarks, standardRun } from '../helpers/mark-run.js';
import { makeReportRun } from '../helpers/report-run.js';
import { startViewServer } from '../../src/view/server/view-server.js';
import { buildReport } from '../../src/report/build-report.js';
import { compareReports } from '../../src/report/compare-runs.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  body: { innerText: string };
};

const BLANK_MARKS =
  'fixture,rep,mark,note\nalpha,1,,\nalpha,2,error,sut: exit\nalpha,3,,\nbeta,1,,\nbeta,2,,\nbeta,3,,not run\n';

/** Presses a key as a person does, one at a time. */
async function press(page: Page, key: string): Promise<void> {
  await page.keyboard.press(key);
}

/** Waits for every mark given to be on disk (the page says so only when the server has answered). */
async function allSaved(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelector('#save-status')?.textContent === 'every mark saved');
}

describe('turnkit view: marking in the browser', () => {
  let folder: string;
  let shots: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-browser-marker-'));
    shots = await screenshotDir('marker');
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
    'marks every rep with the keyboard; after a reload the page and marks.csv hold what was typed',
    async () => {
      const run = await makeMarkRun(standardRun(join(folder, 'runs', 'places', 'one')));
      await writeFile(join(run, 'marks.csv'), BLANK_MARKS);
      await using server = await startViewServer({ runs: [run], cwd: folder, strict: true });
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(`${server.url}#mark=0`);
      await page.waitForSelector('body[data-view=marker][data-ready=true]');
      // The marking order interleaves fixtures and skips the errored alpha 2 and the never-run beta 3.
      expect(await page.textContent('#rep-label')).toBe('alpha rep 1 (1 of 6)');
      expect(await page.textContent('#pane-text')).toBe('RESP-ALPHA-1 deck 2, aft.');
      expect(await page.textContent('#rubric')).toContain('PASS-RULE');
      await press(page, 'p');
      expect(await page.textContent('#rep-label')).toBe('beta rep 1 (2 of 6)');
      await press(page, 'f');
      expect(await page.textContent('#rep-label')).toBe('beta rep 2 (4 of 6)');
      await press(page, '2');
      expect(await page.textContent('#pane-text')).toContain('CASE-BETA');
      await press(page, '1');
      await press(page, 'n');
      expect(await page.textContent('#rep-label')).toBe('alpha rep 3 (5 of 6)');
      await press(page, 'e');
      await page.keyboard.type('says deck 5, "wrong"');
      await press(page, 'Enter');
      await press(page, 'f');
      await allSaved(page);
      expect(await page.textContent('#progress')).toMatch(/^marked 4\/4 in marks\.csv · grader \S+$/);
      // Back to beta 1 and change its mark: u clears, p gives pass.
      await press(page, 'ArrowLeft');
      await press(page, 'h');
      expect(await page.textContent('#rep-label')).toBe('beta rep 1 (2 of 6)');
      await press(page, 'u');
      await press(page, 'p');
      await allSaved(page);
      await screenshot(page, shots, 'marker');
      expect(problems).toEqual([]);

      const typed = {
        'alpha/1': 'pass',
        'beta/1': 'pass',
        'alpha/2': 'error',
        'beta/2': 'na',
        'alpha/3': 'fail',
        'beta/3': '',
      };
      const marks = await readMarks(join(run, 'marks.csv'));
      expect(Object.fromEntries(Object.entries(marks).map(([id, row]) => [id, row.mark]))).toEqual(typed);
      expect(marks['alpha/3']!.note).toBe('says deck 5, "wrong"');
      expect(marks['alpha/1']).toMatchObject({
        rubricVersion: 'v3',
        grader: expect.any(String),
        markedAt: expect.stringMatching(/^\d{4}-/),
      });
      const history = (await readFile(join(run, 'marks.history.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(history.map((entry) => `${entry.fixture}/${entry.rep}:${entry.from.mark}>${entry.to.mark}`)).toEqual([
        'alpha/1:>pass',
        'beta/1:>fail',
        'beta/2:>na',
        'alpha/3:>',
        'alpha/3:>fail',
        'beta/1:fail>',
        'beta/1:>pass',
      ]);

      await page.reload();
      await page.waitForSelector('body[data-view=marker][data-ready=true]');
      for (const [label, mark] of [
        ['alpha rep 1', 'pass'],
        ['beta rep 1', 'pass'],
        ['beta rep 2', 'na'],
        ['alpha rep 3', 'fail'],
      ] as const) {
        if (!(await page.textContent('#rep-label'))!.startsWith(label)) {
          // Every rep is marked: the page opens on the first one; walk forward to each.
          await press(page, 'l');
        }
        expect(await page.textContent('#rep-label')).toContain(label);
        expect(await page.getAttribute('#markbar', 'data-mark')).toBe(mark);
      }
      await page.close();
    },
  );

  it.runIf(hasBrowser)(
    'blind: shuffled by a recorded seed, reps named by place only, no other marks sent, its own marks file',
    async () => {
      const run = await makeMarkRun({
        ...standardRun(join(folder, 'runs', 'places', 'blind')),
        fixtures: [
          { name: 'alpha', caseFile: '# Case one\n', reps: ['RESPONSE-ONE', 'RESPONSE-TWO', 'RESPONSE-THREE'] },
          { name: 'beta', caseFile: '# Case two\n', reps: ['RESPONSE-FOUR', 'RESPONSE-FIVE', 'RESPONSE-SIX'] },
        ],
      });
      await writeFile(
        join(run, 'marks.csv'),
        'fixture,rep,mark,note\nalpha,1,pass,EARLIER-NOTE\nalpha,2,fail,EARLIER-NOTE\nalpha,3,pass,\nbeta,1,fail,\nbeta,2,pass,\nbeta,3,pass,\n',
      );
      await using server = await startViewServer({ runs: [run], cwd: folder, strict: true, blind: true, seed: 7 });
      const { page, problems } = await watchedPage(browser!.context);
      const sent: Promise<string>[] = [];
      page.on('response', (response) => {
        if (response.url().includes('/api/')) sent.push(response.text().catch(() => ''));
      });
      await page.goto(server.url);
      await page.waitForSelector('body[data-view=marker][data-ready=true]');
      expect(await page.textContent('#rep-label')).toBe('item 1 of 6');
      expect(await page.textContent('#progress')).toBe(
        `marked 0/6 in marks.blind.csv (blind, seed 7) · grader ${(await page.textContent('#progress'))!.split('grader ')[1]}`,
      );
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) {
        const text = await page.evaluate(() => document.body.innerText);
        expect(text).not.toMatch(/alpha|beta|EARLIER-NOTE|rep \d/);
        seen.push((await page.textContent('#pane-text'))!);
        await press(page, '2');
        // The case file rendered from its Markdown: "# Case one" is a heading.
        expect(await page.textContent('#pane-text .markdown h1')).toBe(
          seen[i]!.match(/ONE|TWO|THREE/) ? 'Case one' : 'Case two',
        );
        await press(page, '1');
        await press(page, i % 2 === 0 ? 'p' : 'f');
      }
      await allSaved(page);
      // The shuffled order is not the plan's, and every rep came once.
      expect(seen).not.toEqual([
        'RESPONSE-ONE',
        'RESPONSE-FOUR',
        'RESPONSE-TWO',
        'RESPONSE-FIVE',
        'RESPONSE-THREE',
        'RESPONSE-SIX',
      ]);
      expect([...seen].sort()).toEqual([
        'RESPONSE-FIVE',
        'RESPONSE-FOUR',
        'RESPONSE-ONE',
        'RESPONSE-SIX',
        'RESPONSE-THREE',
        'RESPONSE-TWO',
      ]);
      const bodies = await Promise.all(sent);
      expect(bodies.join('\n')).toContain('RESPONSE-ONE');
      expect(bodies.join('\n')).not.toMatch(/alpha|beta|EARLIER-NOTE/);
      // The seed, and the neutral labels mapped to the reps they stand for (for the report to join).
      expect(JSON.parse(await readFile(join(run, 'marks.blind.seed.json'), 'utf8'))).toMatchObject({ seed: 7 });
      const blind = await readMarks(join(run, 'marks.blind.csv'));
      const byResponse = Object.fromEntries(seen.map((response, i) => [response, i % 2 === 0 ? 'pass' : 'fail']));
      const responseOf = (id: string): string =>
        ({
          'alpha/1': 'RESPONSE-ONE',
          'alpha/2': 'RESPONSE-TWO',
          'alpha/3': 'RESPONSE-THREE',
          'beta/1': 'RESPONSE-FOUR',
          'beta/2': 'RESPONSE-FIVE',
          'beta/3': 'RESPONSE-SIX',
        })[id]!;
      expect(Object.fromEntries(Object.entries(blind).map(([id, row]) => [id, row.mark]))).toEqual(
        Object.fromEntries(Object.keys(blind).map((id) => [id, byResponse[responseOf(id)]])),
      );
      // marks.csv was not touched.
      expect(await readFile(join(run, 'marks.csv'), 'utf8')).toContain('alpha,1,pass,EARLIER-NOTE');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it.runIf(hasBrowser)(
    'blind: no fixture name in any case or encoding anywhere in the page, its HTML or the data it fetched',
    async () => {
      // Responses and errors that name their fixture as a careless SUT would: upper case, URL-encoded, as HTML
      // character references, with other separators, in the error message and the output tails.
      const run = await makeMarkRun({
        dir: join(folder, 'runs', 'places', 'blind-leak'),
        fixtures: [
          {
            name: 'xss-fixed',
            caseFile: '# Case xss-fixed\n',
            reps: [
              'ONE: XSS-FIXED on deck 2',
              'TWO: see /runs/xss%2Dfixed/x',
              { error: 'sut', message: 'xss-fixed died' },
            ],
          },
          {
            name: 'zebra-turn-7',
            caseFile: '# Case zebra-turn-7\n',
            reps: [
              'THREE: Zebra_Turn_7 and zebra&#45;turn&#x2d;7',
              'FOUR: zebra turn 7 / fixtures%2Fzebra-turn-7.json',
              'FIVE: plain',
            ],
          },
        ],
      });
      const errored = join(run, 'reps', 'xss-fixed', 'rep-03.json');
      const record = JSON.parse(await readFile(errored, 'utf8')) as RepRecord;
      record.stdoutTail = 'loading fixtures/xss-fixed.json\nXSS_FIXED ready';
      record.stderrTail = 'Error in xss&#45;fixed: boom';
      await writeFile(errored, `${JSON.stringify(record, null, 2)}\n`);
      await using server = await startViewServer({ runs: [run], cwd: folder, strict: true, blind: true, seed: 11 });
      const { page, problems } = await watchedPage(browser!.context);
      const sent: Promise<string>[] = [];
      page.on('response', (response) => {
        if (response.url().includes('/api/')) sent.push(response.text().catch(() => ''));
      });
      await page.goto(server.url);
      await page.waitForSelector('body[data-view=marker][data-ready=true]');
      await press(page, 'a');
      const texts: string[] = [];
      const panes: string[] = [];
      for (let i = 0; i < 6; i++) {
        for (const pane of ['1', '2']) {
          await press(page, pane);
          texts.push(await page.evaluate(() => document.body.innerText), await page.content());
          if (pane === '1') panes.push((await page.textContent('#pane-text'))!);
        }
        await press(page, 'l');
      }
      const bodies = await Promise.all(sent);
      // Every rep was seen (the errored one with its error), each naming its case instead.
      expect(panes.join('\n')).toMatch(/ONE: case \d on deck 2/);
      expect(panes.join('\n')).toMatch(/ERROR \(sut: exit\): case \d died/);
      expect(panes.join('\n')).toMatch(/THREE: case \d and case \d/);
      for (const word of ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE']) expect(panes.join('\n')).toContain(`${word}:`);
      const everything = [...texts, ...bodies].join('\n');
      expect(bodies.join('\n')).toContain('FIVE: plain');
      // Decoded every way a name was written, with separators dropped, no fixture name is left.
      const decoded = decodeAll(everything)
        .toLowerCase()
        .replace(/[-_\s+]/g, '');
      expect(decoded).not.toContain('xssfixed');
      expect(decoded).not.toContain('zebraturn7');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it.runIf(hasBrowser)("two runs side by side per fixture, with the comparison's deltas and Fisher p", async () => {
    const a = await makeReportRun(join(folder, 'runs', 'places', 'side-a'));
    const b = await makeReportRun(join(folder, 'runs', 'places', 'side-b'), {
      responses: { far: ['OTHER-RUN far', 'x', 'x', 'x', 'x', 'x'] },
    });
    await writeFile(
      join(b, 'marks.csv'),
      (await readFile(join(b, 'marks.csv'), 'utf8')).replace(/^far,2,fail,$/m, 'far,2,pass,'),
    );
    await using server = await startViewServer({ runs: [a, b], cwd: folder });
    const { page, problems } = await watchedPage(browser!.context);
    await page.goto(server.url);
    await page.waitForSelector('body[data-view=list][data-ready=true]');
    await page.check('input[data-run="0"]');
    await page.check('input[data-run="1"]');
    await page.click('#side-by-side');
    await page.waitForSelector('body[data-view=side][data-ready=true]');
    const comparison = compareReports(await buildReport(a), await buildReport(b));
    const far = comparison.fixtures.find((entry) => entry.fixture === 'far')!;
    expect(far.delta).not.toBe(0);
    expect(await page.textContent('[data-compare="far"] [data-k=delta]')).toBe(
      `${far.delta! > 0 ? '+' : '-'}${Math.abs(far.delta!).toFixed(2)}`,
    );
    expect(await page.textContent('[data-compare="far"] [data-k=p]')).toBe(
      far.p! < 0.001 ? '<0.001' : far.p!.toFixed(3),
    );
    const columns = page.locator('[data-fixture="far"] .column');
    expect(await columns.count()).toBe(2);
    expect(await columns.nth(0).locator('pre.response').first().textContent()).toBe('deck 2 far');
    expect(await columns.nth(1).locator('pre.response').first().textContent()).toBe('OTHER-RUN far');
    expect(await page.locator('[data-fixture="base"] .column').count()).toBe(2);
    await screenshot(page, shots, 'side-by-side');
    expect(problems).toEqual([]);
    await page.close();
  });

  it.runIf(hasBrowser)(
    'the page updates as a running turnkit run adds reps, and the new rep can be marked',
    async () => {
      const run = await makeMarkRun(standardRun(join(folder, 'runs', 'places', 'live')));
      await writeFile(join(run, 'marks.csv'), BLANK_MARKS);
      await using server = await startViewServer({ runs: [run], cwd: folder, strict: true });
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(`${server.url}#run=0`);
      await page.waitForSelector('body[data-view=run][data-ready=true]');
      expect(await page.textContent('[data-rep="beta/3"] h3')).toBe('beta rep 3 · not run');
      // What turnkit run writes when beta rep 3 finishes: its record.
      const record = JSON.parse(await readFile(join(run, 'reps', 'beta', 'rep-01.json'), 'utf8')) as RepRecord;
      await writeFile(
        join(run, 'reps', 'beta', 'rep-03.json'),
        JSON.stringify({ ...record, rep: 3, response: 'LATE-ARRIVAL deck 2' }),
      );
      await page.waitForFunction(
        () => document.querySelector('[data-rep="beta/3"] pre.response')?.textContent === 'LATE-ARRIVAL deck 2',
        undefined,
        { timeout: 60_000 },
      );
      await page.goto(`${server.url}#mark=0`);
      await page.waitForSelector('body[data-view=marker][data-ready=true]');
      for (let i = 0; i < 4; i++) await press(page, 'p');
      expect(await page.textContent('#rep-label')).toBe('beta rep 3 (6 of 6)');
      expect(await page.textContent('#pane-text')).toBe('LATE-ARRIVAL deck 2');
      await press(page, 'f');
      await allSaved(page);
      expect((await readMarks(join(run, 'marks.csv')))['beta/3']!.mark).toBe('fail');
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});

/** Undoes URL encoding (twice), HTML character references and JSON escapes, as a reader could. */
function decodeAll(text: string): string {
  let out = text.replace(/&amp;/g, '&');
  for (let i = 0; i < 2; i++)
    out = out.replace(/%([0-9a-f]{2})/gi, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)));
  return out
    .replace(/&#x([0-9a-f]+);?/gi, (_, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&#(\d+);?/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&(hyphen|dash);/g, '-')
    .replace(/\\u([0-9a-f]{4})/gi, (_, code: string) => String.fromCharCode(Number.parseInt(code, 16)));
}
