import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectInert, hasBrowser, launchBrowser, requireBrowser, watchedPage } from '../helpers/browser.js';
import { makeMarkRun } from '../helpers/mark-run.js';
import { makeRolloutRun } from '../helpers/rollout-run.js';
import { writeHtmlReport } from '../../src/view/write-html-report.js';
import { startViewServer } from '../../src/view/server/view-server.js';

// Each part would run script if the page took text as markup: a script element, an event handler, a javascript:
// link, an end of the JSON element followed by a script, an SVG onload. Every one sets the flag or opens a dialog.
const PAYLOAD = [
  '<script>window.__pwned = "script"; alert("script")</script>',
  "<img src=x onerror=\"window.__pwned = 'img'; alert('img')\">",
  '<a id="evil" href="javascript:window.__pwned=\'link\';alert(\'link\')">click me</a>',
  '</script><script>window.__pwned = "breakout"</script>',
  '<!-- <svg onload="window.__pwned = \'svg\'"></svg>',
].join('\n');
// A Markdown link to script, in the rubric and case files the page renders as Markdown: it must stay text.
const MD_LINK = "[md link](javascript:window.__pwned='md';alert('md'))";

/** A rendered rubric or case file: its elements' tags (none may be a link, script or image) and its text. */
async function rendered(page: import('playwright-core').Page, selector: string) {
  const block = page.locator(selector).first();
  return {
    tags: [
      ...new Set(
        await block
          .locator('*')
          .evaluateAll((nodes) => nodes.map((node) => (node as unknown as { tagName: string }).tagName.toLowerCase())),
      ),
    ],
    heading: await block.locator('h1').first().textContent(),
    text: await block.textContent(),
  };
}

describe('untrusted text stays text', () => {
  let folder: string;
  let run: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-browser-xss-'));
    run = await makeMarkRun({
      dir: join(folder, 'run'),
      questionText: `Question ${PAYLOAD}`,
      rubric: `# Rubric\n${PAYLOAD}\n\n${MD_LINK}\n`,
      fixtures: [
        {
          name: 'alpha',
          caseFile: `# Case\n${PAYLOAD}\n\n${MD_LINK}\n`,
          reps: [PAYLOAD, { error: 'sut', message: PAYLOAD }],
        },
      ],
    });
    await writeFile(
      join(run, 'marks.csv'),
      `fixture,rep,mark,note\nalpha,1,pass,"${PAYLOAD.replaceAll('"', '""')}"\nalpha,2,error,sut: exit\n`,
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

  it('writes the data once, with no "<" inside its JSON element, under a policy that allows no inline script but its own', async () => {
    const { file } = await writeHtmlReport({ dir: run, cwd: folder });
    const html = await readFile(file, 'utf8');
    const json = /<script type="application\/json" id="turnkit-data">([^<]*)<\/script>/.exec(html)?.[1];
    expect(json).toBeDefined();
    expect(JSON.parse(json!).runs[0].reps[0].response).toBe(PAYLOAD);
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+';/);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("connect-src 'none'");
  });

  it.runIf(hasBrowser)(
    'the HTML report shows the response, error, note, case file, rubric and question as text and runs none of them',
    async () => {
      const { file } = await writeHtmlReport({ dir: run, cwd: folder, file: join(folder, 'xss.html') });
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('body[data-ready=true]');
      expect(await page.locator('pre.response').first().textContent()).toBe(PAYLOAD);
      expect(await page.locator('.rep .note').first().textContent()).toBe(` — ${PAYLOAD}`);
      expect(await page.locator('.rep.error .error p').first().textContent()).toBe(`ERROR (sut: exit): ${PAYLOAD}`);
      expect(await page.locator('header h1').textContent()).toBe(`places: Question ${PAYLOAD}`);
      await page.locator('details.case summary').first().click();
      // The case file is rendered from its Markdown (a heading), its HTML and links kept as text.
      const caseFile = await rendered(page, 'details.case .markdown');
      expect(caseFile.heading).toBe('Case');
      expect(caseFile.tags.filter((tag) => !['h1', 'p'].includes(tag))).toEqual([]);
      for (const line of [...PAYLOAD.split('\n'), MD_LINK]) expect(caseFile.text).toContain(line);
      // So is the rubric.
      await page.locator('#report-rubric summary').click();
      const rubric = await rendered(page, '#report-rubric .markdown');
      expect(rubric.heading).toBe('Rubric');
      expect(rubric.tags.filter((tag) => !['h1', 'p'].includes(tag))).toEqual([]);
      for (const line of [...PAYLOAD.split('\n'), MD_LINK]) expect(rubric.text).toContain(line);
      await page.getByText('click me').first().click();
      await page.getByText('md link').first().click();
      await page.locator('#report-rubric').getByText('md link').click();
      await expectInert(page, problems);
      await page.close();
    },
  );

  it.runIf(hasBrowser)(
    'the viewer and its marker show the same text as text, and a note typed with markup is saved and shown as typed',
    async () => {
      await using server = await startViewServer({ runs: [run], cwd: folder, strict: true });
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(`${server.url}#run=0`);
      await page.waitForSelector('body[data-view=run][data-ready=true]');
      expect(await page.locator('pre.response').first().textContent()).toBe(PAYLOAD);
      await expectInert(page, problems);
      await page.goto(`${server.url}#mark=0`);
      await page.waitForSelector('body[data-view=marker][data-ready=true]');
      expect(await page.textContent('#pane-text')).toBe(PAYLOAD);
      const rubric = await rendered(page, '#rubric');
      expect(rubric.heading).toBe('Rubric');
      expect(rubric.tags.filter((tag) => !['h1', 'p'].includes(tag))).toEqual([]);
      for (const line of [...PAYLOAD.split('\n'), MD_LINK]) expect(rubric.text).toContain(line);
      await page.locator('#rubric').getByText('md link').click();
      await page.keyboard.press('2');
      const caseFile = await rendered(page, '#pane-text .markdown');
      expect(caseFile.heading).toBe('Case');
      expect(caseFile.tags.filter((tag) => !['h1', 'p'].includes(tag))).toEqual([]);
      for (const line of [...PAYLOAD.split('\n'), MD_LINK]) expect(caseFile.text).toContain(line);
      await page.locator('#pane-text').getByText('md link').click();
      await page.locator('#pane-text').focus();
      await page.keyboard.press('e');
      // The note line opens on the rep's note (the payload): replace it.
      await page.keyboard.press('Control+A');
      await page.keyboard.type('<img src=x onerror="window.__pwned=1">');
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () =>
          (
            globalThis as unknown as { document: { querySelector(s: string): { textContent: string } } }
          ).document.querySelector('#save-status').textContent === 'every mark saved',
      );
      expect(await page.textContent('#markbar')).toBe('mark: pass · note: <img src=x onerror="window.__pwned=1">');
      expect(await readFile(join(run, 'marks.csv'), 'utf8')).toContain('"<img src=x onerror=""window.__pwned=1"">"');
      await expectInert(page, problems);
      await page.close();
    },
  );

  it.runIf(hasBrowser)(
    "a rollout turn's input, response, check reason and error stay text in the report, the viewer and its marker",
    async () => {
      const turns = await makeRolloutRun(join(folder, 'rollout'), 2, [
        {
          name: 'alpha',
          reps: [
            { turns: [{ input: PAYLOAD, response: PAYLOAD, check: { mark: 'fail', reason: PAYLOAD } }, {}] },
            { turns: [{ response: null, error: { cause: 'exit', message: PAYLOAD } }], stopped: 'error' },
          ],
        },
      ]);
      await writeFile(join(turns, 'marks.csv'), 'fixture,rep,mark,note\nalpha,1,,\nalpha,2,error,sut: exit\n');
      const { file } = await writeHtmlReport({ dir: turns, cwd: folder, file: join(folder, 'turns.html') });
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('body[data-ready=true]');
      const first = page.locator('[data-rep="alpha/1"] li.turn[data-turn="23"]');
      expect(await first.locator('.turn-input .text').textContent()).toBe(PAYLOAD);
      expect(await first.locator('pre.turn-response').textContent()).toBe(PAYLOAD);
      expect(await first.locator('.turn-check').textContent()).toBe(`checks: fail (${PAYLOAD})`);
      expect(await page.textContent('[data-rep="alpha/2"] li.turn .turn-error')).toBe(`ERROR (exit): ${PAYLOAD}`);
      await page.getByText('click me').first().click();
      await expectInert(page, problems);
      await using server = await startViewServer({ runs: [turns], cwd: folder, strict: true });
      await page.goto(`${server.url}#run=0`);
      await page.waitForSelector('body[data-view=run][data-ready=true]');
      expect(await first.locator('pre.turn-response').textContent()).toBe(PAYLOAD);
      await expectInert(page, problems);
      await page.goto(`${server.url}#mark=0`);
      await page.waitForSelector('body[data-view=marker][data-ready=true]');
      const pane = (await page.textContent('#pane-text'))!;
      expect(pane).toContain(`  player_input: ${PAYLOAD}\n\nResponse:\n${PAYLOAD}\n`);
      expect(pane).toContain(`checks: fail (${PAYLOAD})`);
      await expectInert(page, problems);
      await page.close();
    },
  );
});
