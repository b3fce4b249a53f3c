import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMarkRun } from '../helpers/mark-run.js';
import { startViewServer, type ViewServer } from '../../src/view/server/view-server.js';
import type { RepView } from '../../src/view/view-data.js';
import { hasBrowser, launchBrowser, requireBrowser, watchedPage } from '../helpers/browser.js';

declare const window: { __pwned?: unknown };
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

// A run's reps in pages, and the page data cached while the run's files are unchanged.
describe('turnkit view: a run of many reps in pages, cached', () => {
  let folder: string;
  let run: string;
  let server: ViewServer;
  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}&token=${server.token}`);
    return { status: res.status, body: (await res.json()) as T };
  };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-view-pages-'));
    // A response that would run script if the page took it as markup, on a rep of a later page.
    const responses = Array.from({ length: 150 }, (_, i) =>
      i === 140 ? '<img src=x onerror="window.__pwned = 1">late' : `answer <b>${i + 1}</b>`,
    );
    run = await makeMarkRun({
      dir: join(folder, 'run'),
      fixtures: [
        { name: 'alpha', reps: responses },
        { name: 'beta', reps: responses },
      ],
    });
    await writeFile(join(run, 'marks.csv'), 'fixture,rep,mark,note\nalpha,1,pass,\n');
    server = await startViewServer({ runs: [run], cwd: folder, strict: true });
  });
  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('gives the first page with the total, and the pages after it add up to every rep in order', async () => {
    const whole = await get<{ run: { reps: RepView[]; report: unknown } }>('/api/run?run=0');
    expect(whole.body.run.reps).toHaveLength(300);
    const first = await get<{
      run: { reps: RepView[]; report: unknown };
      repsTotal: number;
      version: string;
      markerFile: string;
    }>('/api/run?run=0&from=0&to=100');
    expect(first.body.run.reps).toHaveLength(100);
    expect(first.body.repsTotal).toBe(300);
    expect(first.body).toMatchObject({ markerFile: 'marks.csv' });
    expect(first.body).not.toHaveProperty('marker');
    expect(first.body.run.report).toEqual(whole.body.run.report);
    const pages: RepView[] = [...first.body.run.reps];
    for (let from = 100; from < 300; from += 120) {
      const page = await get<{ reps: RepView[]; version: string }>(`/api/reps?run=0&from=${from}&to=${from + 120}`);
      expect(page.body.version).toBe(first.body.version);
      pages.push(...page.body.reps);
    }
    expect(pages).toEqual(whole.body.run.reps);
    expect(pages[0]!.response).toBe('answer <b>1</b>');
    expect(pages[0]!.marks[0]).toEqual(['pass', '']);
    expect(pages.at(-1)).toMatchObject({ f: 1, rep: 150 });
  });

  it('refuses a page that is not two whole numbers', async () => {
    const bad = await get<{ error: string }>('/api/reps?run=0&from=-1&to=x');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('bad page of reps: from and to must both be whole numbers');
    expect((await get<{ error: string }>('/api/run?run=0&from=3')).status).toBe(400);
  });

  it('reads the run again only when one of its files changed: a marks file edited shows at the next request', async () => {
    const viewRun = server.runs[0]!;
    const once = await viewRun.runView();
    expect(await viewRun.runView()).toBe(once);
    await writeFile(join(run, 'marks.csv'), 'fixture,rep,mark,note\nalpha,1,fail,changed by hand\n');
    const again = await viewRun.runView();
    expect(again).not.toBe(once);
    expect(again.reps[0]!.marks[0]).toEqual(['fail', 'changed by hand']);
    const page = await get<{ reps: RepView[] }>('/api/reps?run=0&from=0&to=1');
    expect(page.body.reps[0]!.marks[0]).toEqual(['fail', 'changed by hand']);
  });

  it('reads a rep rewritten in place again: same name, same size, the same number of rep files', async () => {
    const viewRun = server.runs[0]!;
    const once = await viewRun.runView();
    const version = await viewRun.version();
    const file = join(run, 'reps', 'beta', 'rep-07.json');
    const text = await readFile(file, 'utf8');
    const rewritten = text.replace('answer <b>7</b>', 'ANSWER <B>7</B>');
    expect(rewritten).not.toBe(text);
    expect(rewritten.length).toBe(text.length);
    const inode = (await stat(file)).ino;
    await writeFile(file, rewritten);
    // In place: the same file, so the folder itself did not change.
    expect((await stat(file)).ino).toBe(inode);
    expect(await viewRun.version()).not.toBe(version);
    expect(await viewRun.runView()).not.toBe(once);
    const page = await get<{ reps: RepView[] }>('/api/reps?run=0&from=0&to=300');
    expect(page.body.reps.find((rep) => rep.f === 1 && rep.rep === 7)!.response).toBe('ANSWER <B>7</B>');
    // The marker's pages are read from a session opened again as well (position 13 is beta rep 7).
    const marker = await get<{ page: { reps: RepView[] } }>('/api/marker-reps?run=0&from=13&to=14');
    expect(marker.body.page.reps[0]).toMatchObject({ f: 1, rep: 7, response: 'ANSWER <B>7</B>' });
    // Unchanged since: cached again.
    const cached = await viewRun.runView();
    expect(await viewRun.runView()).toBe(cached);
  });

  it.runIf(hasBrowser || requireBrowser)(
    'the page draws its first screen from the first page, then every rep: the filters find one of a later page',
    async () => {
      const browser = await launchBrowser();
      try {
        const { page, problems } = await watchedPage(browser.context);
        await page.goto(`${server.url}#run=0`);
        await page.waitForSelector('body[data-first-screen=true]');
        await page.waitForSelector('body[data-view=run][data-ready=true]');
        expect(await page.locator('#reps h2').textContent()).toBe('Reps (300)');
        await page.fill('#filter-text', 'late');
        await page.waitForFunction(
          () => document.querySelector('#rep-count')?.textContent === 'reps 1-2 of 2 matching (300 in all)',
        );
        const card = page.locator('#rep-list article').first();
        expect(await card.getAttribute('data-rep')).toBe('alpha/141');
        expect(await card.locator('pre.response').textContent()).toBe('<img src=x onerror="window.__pwned = 1">late');
        expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
