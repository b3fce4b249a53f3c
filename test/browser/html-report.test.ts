import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { runInProcess } from '../helpers/cli-in-process.js';
import {
  hasBrowser,
  launchBrowser,
  requireBrowser,
  screenshot,
  screenshotDir,
  watchedPage,
} from '../helpers/browser.js';
import { makeReportRun } from '../helpers/report-run.js';
import { makeMarkRun } from '../helpers/mark-run.js';
import { copySampleFiles } from '../helpers/sample-project.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { symlink } from 'node:fs/promises';
import type { Report } from '../../src/report/build-report.js';

// page.evaluate and waitForFunction run these callbacks in the page, where document is the page's.
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): Iterable<{
    getAttribute(name: string): string | null;
    querySelectorAll(
      selector: string,
    ): Iterable<{ getAttribute(name: string): string | null; textContent: string | null }>;
  }>;
};

const REPO = fileURLToPath(new URL('../..', import.meta.url));

// The report's number formats, written out here again: the page must show what the JSON holds.
const rate = (m: { pass: number; fail: number; rate: number | null }): string =>
  m.rate === null ? '-' : `${m.rate.toFixed(2)} (${m.pass}/${m.pass + m.fail})`;
const interval = (m: { wilson: { low: number; high: number } | null }): string =>
  m.wilson ? `[${m.wilson.low.toFixed(2)}, ${m.wilson.high.toFixed(2)}]` : '-';
const signed = (d: number | null): string =>
  d === null ? '-' : `${d > 0 ? '+' : d < 0 ? '-' : '±'}${Math.abs(d).toFixed(2)}`;
const pValue = (p: number | null): string => (p === null ? '-' : p < 0.001 ? '<0.001' : p.toFixed(3));

/** Every row of the page's fixture tables by fixture (or `total:TAG`), cell by cell. */
async function fixtureRows(page: Page): Promise<Record<string, Record<string, string>>> {
  return page.evaluate(() => {
    const out: Record<string, Record<string, string>> = {};
    for (const row of document.querySelectorAll('table.fixtures tbody tr')) {
      const name = row.getAttribute('data-fixture') ?? `total:${row.getAttribute('data-total')}`;
      out[name] = Object.fromEntries(
        [...row.querySelectorAll('[data-k]')].map((cell) => [cell.getAttribute('data-k')!, cell.textContent!]),
      );
    }
    return out;
  });
}

function expectedRows(report: Report): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const f of report.fixtures) {
    out[f.fixture] = {
      pass: String(f.pass),
      fail: String(f.fail),
      na: String(f.na),
      error: String(f.error),
      blank: String(f.blank),
      rate: rate(f),
      interval: interval(f),
      verdict: `${f.verdict}${f.uncertain ? ' (uncertain)' : ''}`,
      needed: `${f.passesNeeded}/${f.failsTolerated}`,
      latency: f.latency.median === null ? '-' : `${Math.round(f.latency.median)}/${Math.round(f.latency.p95!)}`,
    };
  }
  for (const t of report.tags) {
    out[`total:${t.tag}`] = {
      pass: String(t.pass),
      fail: String(t.fail),
      na: String(t.na),
      error: String(t.error),
      blank: String(t.blank),
      rate: rate(t),
      interval: interval(t),
      verdict: [`${t.met} met`, `${t.missed} missed`, ...(t.pending > 0 ? [`${t.pending} pending`] : [])].join(', '),
    };
  }
  return out;
}

describe('report --html in a real browser', () => {
  let folder: string;
  let shots: string;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-browser-report-'));
    shots = await screenshotDir('report');
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
    'shows the numbers report --json prints: fixtures, totals per tag, pairs, demands, agreements with their matrices',
    async () => {
      const run = await makeReportRun(join(folder, 'runs', 'places', 'r1'));
      const written = await runInProcess(['report', 'runs/places/r1', '--html'], { cwd: folder });
      expect(written, written.stderr).toMatchObject({ code: 0, stdout: 'runs/places/r1/report.html\n' });
      const json = await runInProcess(['report', 'runs/places/r1', '--json'], { cwd: folder });
      const report = (JSON.parse(json.stdout) as { report: Report }).report;
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(pathToFileURL(join(run, 'report.html')).href);
      await page.waitForSelector('body[data-ready=true]');

      expect(await fixtureRows(page)).toEqual(expectedRows(report));
      // dev and held-out apart: each its own table and chart, never one pooled number.
      expect(await page.$$eval('section.tag', (sections) => sections.map((s) => s.getAttribute('data-tag')))).toEqual(
        report.tags.map((t) => t.tag),
      );
      expect(await page.$$eval('section.tag svg > title', (titles) => titles.map((t) => t.textContent))).toEqual(
        report.tags.map(() => `Pass rate per fixture with its Wilson 95% interval; target ${report.target}`),
      );
      const pair = report.pairs[0]!;
      expect(pair).toMatchObject({ constructed: 'base-fixed', base: 'base' });
      expect(await page.textContent('[data-pair="base-fixed"] [data-k=delta]')).toBe(signed(pair.delta));
      expect(await page.textContent('[data-pair="base-fixed"] [data-k=p]')).toBe(pValue(pair.p));
      const demands = await page.$$eval('#demands tr', (rows) =>
        rows.map((row) => [...row.children].map((cell) => cell.textContent)),
      );
      expect(demands).toEqual([
        ['reps lost to na or error', ...report.demands.map((d) => String(d.lost))],
        ['qualified reps', ...report.demands.map((d) => String(d.n))],
        ['passes needed', ...report.demands.map((d) => String(d.passesNeeded))],
        ['fails tolerated', ...report.demands.map((d) => String(d.failsTolerated))],
      ]);
      // Consistency: pass^k as --json gives it (k = 1, 2, 3, 5, 6 of 6 reps), "undefined" where k > qualified reps.
      const consistency = await page.$$eval('#consistency tr[data-consistency]', (rows) =>
        rows.map((row) => [...row.children].map((cell) => cell.textContent)),
      );
      expect(consistency).toEqual(
        report.fixtures.map((f) => [
          f.fixture,
          ...[1, 2, 3, 5, 6].map((k) => (f.passK[k - 1] === null ? 'undefined' : f.passK[k - 1]!.toFixed(3))),
        ]),
      );
      expect(consistency.flat()).toContain('undefined');
      expect(await page.textContent('[data-consistency-tag="dev"]')).toBe(
        `dev: ${report.tags[0]!.consistency.allPassed} of ${report.tags[0]!.consistency.of} fixture(s) with qualified reps passed every one (${report.tags[0]!.consistency.share!.toFixed(2)})`,
      );
      expect(report.agreements.map((a) => a.file)).toEqual(['marks.blind.csv', 'marks.checks.csv']);
      for (const entry of report.agreements) {
        expect(await page.textContent(`[data-agreement="${entry.file}"] [data-k=ratio]`)).toBe(
          `${entry.agreed}/${entry.matched} = ${(entry.agreed / entry.matched).toFixed(3)}`,
        );
        expect(await page.textContent(`[data-agreement="${entry.file}"] [data-k=kappa]`)).toBe(
          entry.kappa === null ? 'null' : entry.kappa.toFixed(3),
        );
        // The confusion matrix is `turnkit agree`'s.
        const agreed = JSON.parse(
          (
            await runInProcess(['agree', `runs/places/r1/${entry.against}`, `runs/places/r1/${entry.file}`, '--json'], {
              cwd: folder,
            })
          ).stdout,
        );
        const cells = await page.$$eval(`[data-confusion="${entry.file}"] [data-k]`, (all) =>
          Object.fromEntries(all.map((c) => [c.getAttribute('data-k'), Number(c.textContent)])),
        );
        expect(cells).toEqual({
          pp: agreed.confusion.passPass,
          pf: agreed.confusion.passFail,
          fp: agreed.confusion.failPass,
          ff: agreed.confusion.failFail,
        });
      }
      // The checks disagree with the human on base rep 4: listed with both notes.
      expect(await page.textContent('#agreements')).toContain('contains deck 2?');
      expect(problems).toEqual([]);
      await screenshot(page, shots, 'report');
      await page.close();
    },
  );

  it.runIf(hasBrowser)(
    "the demo ends with a page whose numbers are report --json's, and the constructed fixture's diff readable without color",
    async () => {
      const demo = await runInProcess(['demo', '--dir', 'D', '--reps', '4'], { cwd: folder });
      expect(demo.code, demo.stderr).toBe(0);
      const html = /^The report as a page \(open it in a browser\): (\S+)$/m.exec(demo.stdout)?.[1];
      expect(html, demo.stdout).toMatch(/^D\/runs\/places\/[^/]+\/report\.html$/);
      const runDir = html!.replace(/\/report\.html$/, '');
      expect(demo.stdout).toContain(`Read and mark the reps in a browser: turnkit view ${runDir}`);
      const report = (
        JSON.parse(
          (await runInProcess(['report', runDir, '--marks', 'marks.checks.csv', '--json'], { cwd: folder })).stdout,
        ) as { report: Report }
      ).report;
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(pathToFileURL(join(folder, html!)).href);
      await page.waitForSelector('body[data-ready=true]');
      expect(await fixtureRows(page)).toEqual(expectedRows(report));
      expect(await page.textContent('[data-pair="meridian-turn-23-deck-fixed"] [data-k=delta]')).toBe(
        signed(report.pairs[0]!.delta),
      );
      // The editor's word diff: the removed words struck and in [-...-], the added ones in {+...+}.
      const diff = page.locator('[data-diff="meridian-turn-23-deck-fixed"]');
      expect(await diff.locator('.path').first().textContent()).toBe('~ turns[id=19].narration');
      const removed = await diff.locator('del').allTextContents();
      const added = await diff.locator('ins').allTextContents();
      expect(removed.length).toBeGreaterThan(0);
      expect(removed.every((text) => text.startsWith('[-') && text.endsWith('-]'))).toBe(true);
      expect(added.every((text) => text.startsWith('{+') && text.endsWith('+}'))).toBe(true);
      expect(added.join('')).toContain('lift');
      expect(problems).toEqual([]);
      await screenshot(page, shots, 'demo-report');
      // The README's picture (the top of the demo's page) is refreshed on request only: a test leaves the repository as it was.
      if (process.env.TURNKIT_UPDATE_DOCS_IMAGES === '1') {
        await mkdir(join(REPO, 'docs', 'images'), { recursive: true });
        await page.setViewportSize({ width: 1100, height: 1000 });
        await page.screenshot({ path: join(REPO, 'docs', 'images', 'report.png') });
      }
      await page.close();
    },
  );

  it.runIf(hasBrowser)(
    '10,000 reps: the list holds one page of rows, and a filter finds the one rep by its text, fixture and mark',
    async () => {
      const responses = Array.from({ length: 5000 }, (_, i) => `response number ${i + 1} of the lift`);
      const run = await makeMarkRun({
        dir: join(folder, 'runs', 'places', 'big'),
        fixtures: [
          { name: 'one', reps: responses },
          { name: 'two', reps: responses.map((text, i) => (i === 4321 ? 'NEEDLE in the haystack' : text)) },
        ],
      });
      const rows = [
        'fixture,rep,mark,note',
        ...['one', 'two'].flatMap((f) => responses.map((_, i) => `${f},${i + 1},${i % 2 === 0 ? 'pass' : 'fail'},`)),
      ];
      await writeFile(join(run, 'marks.csv'), `${rows.join('\n')}\n`);
      const written = await runInProcess(['report', 'runs/places/big', '--html', 'big.html'], { cwd: folder });
      expect(written, written.stderr).toMatchObject({ code: 0, stdout: 'big.html\n' });
      const { page, problems } = await watchedPage(browser!.context);
      await page.goto(pathToFileURL(join(folder, 'big.html')).href);
      await page.waitForSelector('body[data-ready=true]');
      expect(await page.locator('#rep-list article').count()).toBe(25);
      expect(await page.textContent('#rep-count')).toBe('reps 1-25 of 10000');
      await page.click('#page-next');
      expect(await page.textContent('#rep-count')).toBe('reps 26-50 of 10000');
      expect(await page.locator('#rep-list article').count()).toBe(25);
      await page.fill('#filter-text', 'needle');
      await page.waitForFunction(
        () => document.querySelector('#rep-count')!.textContent === 'reps 1-1 of 1 matching (10000 in all)',
      );
      expect(await page.locator('#rep-list article').getAttribute('data-rep')).toBe('two/4322');
      await page.fill('#filter-text', '');
      await page.selectOption('#filter-fixture', { label: 'two' });
      await page.selectOption('#filter-mark', 'fail');
      await page.waitForFunction(
        () => document.querySelector('#rep-count')!.textContent === 'reps 1-25 of 2500 matching (10000 in all)',
      );
      expect(await page.locator('#rep-list article').first().getAttribute('data-rep')).toBe('two/2');
      expect(await page.locator('#rep-list article').count()).toBe(25);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});

// A run made on each backend (the sample question over the committed fixtures, marked by its checks), read as a page.
describe.each(BACKENDS)('report --html of a run on %s', (backend) => {
  let t: TestDb;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    await copySampleFiles(t.dir);
    // The sample SUT imports pg.
    await symlink(join(REPO, 'node_modules'), join(t.dir, 'node_modules'), 'dir');
    await createSampleCampaign(t.db, { turns: 30 });
    if (hasBrowser) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.cleanup();
  });

  it.runIf(hasBrowser)('shows the numbers report --json prints', async () => {
    const db = t.databaseUrl ? ['--database-url', t.databaseUrl] : [];
    const ran = await runInProcess(['run', 'questions/places.yaml', '--reps', '3', '--json', ...db], { cwd: t.dir });
    expect(ran.code, ran.stderr).toBe(0);
    const runDir = (JSON.parse(ran.stdout) as { dir: string }).dir;
    expect((await runInProcess(['judge', runDir, '--checks'], { cwd: t.dir })).code).toBe(0);
    const written = await runInProcess(['report', runDir, '--marks', 'marks.checks.csv', '--html'], { cwd: t.dir });
    expect(written, written.stderr).toMatchObject({ code: 0, stdout: `${runDir}/report.html\n` });
    const json = await runInProcess(['report', runDir, '--marks', 'marks.checks.csv', '--json'], { cwd: t.dir });
    const report = (JSON.parse(json.stdout) as { report: Report }).report;
    expect(report.fixtures.map((f) => f.pass + f.fail)).toEqual([3, 3]);
    const { page, problems } = await watchedPage(browser!.context);
    await page.goto(pathToFileURL(join(t.dir, runDir, 'report.html')).href);
    await page.waitForSelector('body[data-ready=true]');
    expect(await fixtureRows(page)).toEqual(expectedRows(report));
    expect(await page.textContent('[data-pair="meridian-turn-23-deck-fixed"] [data-k=delta]')).toBe(
      signed(report.pairs[0]!.delta),
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});
