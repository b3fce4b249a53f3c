import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expectInert, hasBrowser, launchBrowser, watchedPage } from '../helpers/browser.js';
import { makeMarkRun } from '../helpers/mark-run.js';
import { writeHtmlReport } from '../../src/view/write-html-report.js';
import { startViewServer } from '../../src/view/server/view-server.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import type { ToolCall } from '../../src/sut/tool-call.js';

// Markup in what the SUT sent through its tools: it must show as the characters it is, and run nothing.
const MARKUP = "<img src=x onerror=\"window.__pwned = 'tool'; alert('tool')\">";
const CALLS: ToolCall[] = [
  { name: 'search_manual', arguments: { query: MARKUP }, result: { hits: 1 } },
  { name: 'create_job', arguments: { pump: 'P-7' }, error: `denied ${MARKUP}` },
];
const LINES = [
  `search_manual {"query":"${MARKUP.replaceAll('"', '\\"')}"} \u2192 {"hits":1}`,
  `create_job {"pump":"P-7"} \u2192 error: denied ${MARKUP}`,
];

describe('tool calls in the HTML report and the viewer', () => {
  let folder: string;
  let run: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-browser-tools-'));
    run = await makeMarkRun({ dir: join(folder, 'run'), fixtures: [{ name: 'alpha', reps: ['Job proposed.'] }] });
    const file = join(run, 'reps/alpha/rep-01.json');
    const record = JSON.parse(await readFile(file, 'utf8')) as RepRecord;
    await writeFile(file, `${JSON.stringify({ ...record, toolCalls: CALLS }, null, 2)}\n`);
    await writeFile(join(run, 'marks.csv'), 'fixture,rep,mark,note\nalpha,1,,\n');
    if (hasBrowser) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("embeds the rep's calls in the page's data", async () => {
    const { file } = await writeHtmlReport({ dir: run, cwd: folder });
    const json = /<script type="application\/json" id="turnkit-data">([^<]*)<\/script>/.exec(
      await readFile(file, 'utf8'),
    )?.[1];
    expect(JSON.parse(json!).runs[0].reps[0].toolCalls).toEqual(CALLS);
  });

  it.runIf(hasBrowser)('the report lists the calls in order as text, and the marker below the response', async () => {
    const { file } = await writeHtmlReport({ dir: run, cwd: folder, file: join(folder, 'tools.html') });
    const { page, problems } = await watchedPage(browser!.context);
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('body[data-ready=true]');
    expect(await page.locator('.tool-calls h4').first().textContent()).toBe('Tool calls (2)');
    expect(await page.locator('.tool-calls .tool-call code').allTextContents()).toEqual(LINES);
    expect(await page.locator('.tool-call.failed').count()).toBe(1);
    await expectInert(page, problems);
    await page.close();
    await using server = await startViewServer({ runs: [run], cwd: folder, strict: true });
    const marker = await watchedPage(browser!.context);
    await marker.page.goto(`${server.url}#mark=0`);
    await marker.page.waitForSelector('body[data-view=marker][data-ready=true]');
    expect(await marker.page.textContent('#pane-text')).toBe(
      `Job proposed.\n\nTool calls (2):\n  1. ${LINES[0]}\n  2. ${LINES[1]}`,
    );
    await expectInert(marker.page, marker.problems);
    await marker.page.close();
  });
});
