import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeMarkRun, readMarks, type MarkRepSpec } from '../helpers/mark-run.js';
import { makeRolloutRun } from '../helpers/rollout-run.js';
import { hasBrowser, launchBrowser, requireBrowser, watchedPage } from '../helpers/browser.js';
import { startViewServer, type ViewServer } from '../../src/view/server/view-server.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import type { MarkerPage, MarkerSummary, MarkerView, PackedMarkerSummary, RunView } from '../../src/view/view-data.js';

declare const document: { querySelector(selector: string): { textContent: string | null } | null };

type Whole = { run: RunView | null; marker: MarkerView; version: string };
type Summary = { marker: PackedMarkerSummary; version: string };
type Paged = { page: MarkerPage; version: string };

async function get<T>(server: ViewServer, path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}&token=${server.token}`);
  return { status: res.status, body: (await res.json()) as T };
}

/** Every page of the marker's reps, 50 at a time, as the page asks for them. */
async function allPages(server: ViewServer, run: number, total: number): Promise<Paged[]> {
  const pages: Paged[] = [];
  for (let from = 0; from < total; from += 50)
    pages.push((await get<Paged>(server, `/api/marker-reps?run=${run}&from=${from}&to=${from + 50}`)).body);
  return pages;
}

/** The whole payload's marker without the reps: what the summary is to be. */
function summaryOfWhole(marker: MarkerView): MarkerSummary {
  const { order: _order, blindReps: _reps, blindCaseFiles: _files, blindCaseFileDocs: _docs, ...rest } = marker;
  return rest;
}

/** A packed summary read as view-data.ts describes it: one letter per mark, notes and turn marks by position. */
function unpack(packed: PackedMarkerSummary): MarkerSummary {
  const { marks, notes, turnMarks, skipped, ...rest } = packed;
  const names: Record<string, string> = { p: 'pass', f: 'fail', n: 'na', e: 'error', '-': '' };
  expect(marks).toMatch(/^[pfne-]*$/);
  return {
    ...rest,
    marks: [...marks].map((letter, i): [string, string] => [names[letter]!, notes[i] ?? '']),
    turnMarks: [...marks].map((_, i) => turnMarks[i] ?? []),
    skipped: [...marks].map((_, i) => skipped.includes(i)),
  };
}

/** Every object key and every string anywhere in a JSON value. */
function keysAndStrings(value: unknown, keys = new Set<string>(), strings = new Set<string>()) {
  if (typeof value === 'string') strings.add(value);
  else if (Array.isArray(value)) for (const inner of value) keysAndStrings(inner, keys, strings);
  else if (typeof value === 'object' && value !== null)
    for (const [key, inner] of Object.entries(value)) {
      keys.add(key);
      keysAndStrings(inner, keys, strings);
    }
  return { keys, strings };
}

// The marker's summary and its pages of reps, against the whole payload it asked for before it paged.
describe('turnkit view: the marker in pages', () => {
  let folder: string;
  let run: string;
  let server: ViewServer;
  // 2 fixtures x 130 reps, interleaved in the marking order: 260 positions, some errored, one never run.
  const spec = (fixture: string): MarkRepSpec[] =>
    Array.from({ length: 130 }, (_, i): MarkRepSpec => {
      if (i === 4) return { error: 'sut', message: `BOOM-${fixture}-5` };
      if (fixture === 'beta' && i === 129) return { notRun: true };
      return `RESP-${fixture}-${i + 1} deck ${i % 7}`;
    });

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-view-marker-pages-'));
    run = await makeMarkRun({
      dir: join(folder, 'run'),
      fixtures: [
        { name: 'alpha', caseFile: '# Case alpha\n\nCASE-ALPHA\n', reps: spec('alpha') },
        { name: 'beta', caseFile: '# Case beta\n\nCASE-BETA\n', reps: spec('beta') },
      ],
    });
    // The first 110 positions (alpha 1-55 and beta 1-55) marked, one with a note.
    const rows = ['fixture,rep,mark,note'];
    for (let rep = 1; rep <= 55; rep++)
      for (const fixture of ['alpha', 'beta']) rows.push(`${fixture},${rep},${rep === 5 ? 'error' : 'pass'},`);
    rows[2] = 'beta,1,fail,NOTE-BETA-1';
    await writeFile(join(run, 'marks.csv'), `${rows.join('\n')}\n`);
    server = await startViewServer({ runs: [run], cwd: folder, strict: true });
  });
  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("gives the whole payload's marker without the reps, and pages that add up to its reps in marking order", async () => {
    const whole = (await get<Whole>(server, '/api/run?run=0')).body;
    const summary = await get<Summary>(server, '/api/marker?run=0');
    expect(summary.status).toBe(200);
    const marker = unpack(summary.body.marker);
    expect({ ...summary.body, marker }).toEqual({ marker: summaryOfWhole(whole.marker), version: whole.version });
    expect(marker.marks).toHaveLength(260);
    expect(marker.marks[1]).toEqual(['fail', 'NOTE-BETA-1']);
    // Packed: one letter a position, and only the notes there are (the one by hand and the unrun rep's).
    expect(summary.body.marker.marks.slice(0, 10)).toBe('pfppppppee');
    expect(Object.keys(summary.body.marker.notes).map(Number)).toEqual([1, 259]);
    expect(summary.body.marker.skipped).toEqual([8, 9, 259]);
    expect(summary.body.marker.turnMarks).toEqual({});
    const pages = await allPages(server, 0, 260);
    expect(pages.map((paged) => [paged.page.from, paged.page.reps!.length, paged.version])).toEqual(
      [0, 50, 100, 150, 200, 250].map((from) => [from, from === 250 ? 10 : 50, whole.version]),
    );
    // Each position's rep is the whole payload's rep at that place of the order, without any marks file's say.
    const expected = whole.marker.order.map((index) => {
      const { marks: _marks, turnMarks: _turnMarks, ...rep } = whole.run!.reps[index]!;
      return rep;
    });
    expect(pages.flatMap((paged) => paged.page.reps!)).toEqual(expected);
    expect(expected[1]).toMatchObject({ f: 1, rep: 1, response: 'RESP-beta-1 deck 0' });
    expect(expected[8]).toMatchObject({ f: 0, rep: 5, status: 'error' });
    expect(expected[259]).toMatchObject({ f: 1, rep: 130, status: 'not run' });
    // The fixtures a page's reps name, each as the whole payload has it.
    for (const paged of pages) {
      expect(Object.keys(paged.page.fixtures!).sort()).toEqual(['0', '1']);
      for (const [f, fixture] of Object.entries(paged.page.fixtures!))
        expect(fixture).toEqual({
          name: whole.run!.fixtures[Number(f)]!.name,
          caseFileDoc: whole.run!.fixtures[Number(f)]!.caseFileDoc,
        });
    }
  });

  it('stops a page at the end of the order, gives none past it, and takes any page within it', async () => {
    const page = async (from: number, to: number) =>
      (await get<Paged>(server, `/api/marker-reps?run=0&from=${from}&to=${to}`)).body.page;
    expect((await page(255, 1000)).reps!.map((rep) => `${rep.f}/${rep.rep}`)).toEqual([
      '1/128',
      '0/129',
      '1/129',
      '0/130',
      '1/130',
    ]);
    expect(await page(260, 300)).toEqual({ from: 260, reps: [], fixtures: {} });
    expect(await page(7, 7)).toEqual({ from: 7, reps: [], fixtures: {} });
    expect((await page(7, 9)).reps!.map((rep) => `${rep.f}/${rep.rep}`)).toEqual(['1/4', '0/5']);
    expect((await page(0, 1000)).reps).toHaveLength(260);
  });

  it('with size, the summary brings the page holding the first rep to mark (or at) in the same answer', async () => {
    const alone = (await get<Paged>(server, '/api/marker-reps?run=0&from=100&to=150')).body;
    const first = (await get<Summary & { page: MarkerPage }>(server, '/api/marker?run=0&size=50')).body;
    expect(first.page).toEqual(alone.page);
    expect(first.marker).toEqual((await get<Summary>(server, '/api/marker?run=0')).body.marker);
    const at = (await get<Summary & { page: MarkerPage }>(server, '/api/marker?run=0&size=20&at=45')).body;
    expect(at.page.from).toBe(40);
    expect(at.page.reps!.map((rep) => `${rep.f}/${rep.rep}`).slice(0, 2)).toEqual(['0/21', '1/21']);
  });

  it('refuses a bad page with 400 and a one-line message, an unknown run with 404, no token with 403', async () => {
    const cases: [string, number, string][] = [
      ['/api/marker-reps?run=0', 400, 'bad page of reps: from and to are both needed'],
      ['/api/marker-reps?run=0&from=3', 400, 'bad page of reps: from and to must both be whole numbers'],
      ['/api/marker-reps?run=0&from=-1&to=3', 400, 'bad page of reps: from and to must both be whole numbers'],
      ['/api/marker-reps?run=0&from=1.5&to=3', 400, 'bad page of reps: from and to must both be whole numbers'],
      ['/api/marker-reps?run=0&from=x&to=3', 400, 'bad page of reps: from and to must both be whole numbers'],
      ['/api/marker-reps?run=0&from=1&to=9999999999', 400, 'bad page of reps: from and to must both be whole numbers'],
      ['/api/marker-reps?run=0&from=10&to=5', 400, 'bad page of reps: to (5) is before from (10)'],
      ['/api/marker-reps?run=0&from=0&to=1001', 400, 'bad page of reps: at most 1000 reps a page'],
      ['/api/marker-reps?run=3&from=0&to=1', 404, 'no run 3'],
      ['/api/marker?run=x', 404, 'no run x'],
      ['/api/marker?run=0&size=0', 400, 'bad page of reps: size must be at least 1'],
      ['/api/marker?run=0&size=x', 400, 'bad page of reps: size must be a whole number'],
      ['/api/marker?run=0&size=1001', 400, 'bad page of reps: at most 1000 reps a page'],
      ['/api/marker?run=0&at=3', 400, 'bad page of reps: at needs size'],
      ['/api/marker?run=0&size=5&at=-1', 400, 'bad page of reps: at must be a whole number'],
    ];
    for (const [path, status, error] of cases) {
      const answer = await get<{ error: string }>(server, path);
      expect([path, answer.status, answer.body]).toEqual([path, status, { error }]);
      expect(answer.body.error).not.toContain('\n');
    }
    for (const path of ['/api/marker?run=0', '/api/marker-reps?run=0&from=0&to=1'])
      expect((await fetch(`http://127.0.0.1:${server.port}${path}`)).status).toBe(403);
  });

  it('reads the session again once the run has a new rep: its page shows it, with the new version', async () => {
    const before = (await get<Paged>(server, '/api/marker-reps?run=0&from=259&to=260')).body;
    expect(before.page.reps![0]).toMatchObject({ f: 1, rep: 130, status: 'not run' });
    // What turnkit run writes when beta rep 130 finishes: its record.
    const record = JSON.parse(await readFile(join(run, 'reps', 'beta', 'rep-01.json'), 'utf8')) as RepRecord;
    const late = join(run, 'reps', 'beta', 'rep-130.json');
    await writeFile(late, JSON.stringify({ ...record, rep: 130, response: 'LATE-BETA-130' }));
    try {
      const after = (await get<Paged>(server, '/api/marker-reps?run=0&from=259&to=260')).body;
      expect(after.page.reps![0]).toMatchObject({ f: 1, rep: 130, status: 'ok', response: 'LATE-BETA-130' });
      expect(after.version).not.toBe(before.version);
      expect((await get<Summary>(server, '/api/marker?run=0')).body.marker.skipped).not.toContain(259);
    } finally {
      await rm(late);
    }
    expect((await get<Summary>(server, '/api/marker?run=0')).body.marker.skipped).toContain(259);
  });

  it.runIf(hasBrowser || requireBrowser)(
    'the browser opens on the first rep to mark (a later page) and marks reps across a page edge',
    async () => {
      const browser = await launchBrowser();
      try {
        const { page, problems } = await watchedPage(browser.context);
        const asked: string[] = [];
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (url.pathname.startsWith('/api/')) asked.push(`${url.pathname}${url.search.replace(/&token=.*/, '')}`);
        });
        const replies: Promise<string>[] = [];
        page.on('response', (response) => {
          if (new URL(response.url()).pathname === '/api/mark') replies.push(response.text());
        });
        await page.goto(`${server.url}#mark=0`);
        await page.waitForSelector('body[data-view=marker][data-ready=true]');
        // Positions 1-110 are marked: the marker opens on 111 (alpha 56), from the page of positions 101-150.
        expect(await page.textContent('#rep-label')).toBe('alpha rep 56 (111 of 260)');
        expect(await page.textContent('#pane-text')).toBe('RESP-alpha-56 deck 6');
        expect(await page.textContent('#progress')).toMatch(/^marked 108\/257 in marks\.csv · grader \S+$/);
        // One request for the first screen: the summary with the page of positions 101-150.
        expect(asked[0]).toBe('/api/marker?run=0&size=50');
        expect(asked.some((path) => path.startsWith('/api/run') || path.startsWith('/api/reps'))).toBe(false);
        // Mark 44 reps, p and f by turns: past position 150 into the next page, each shown before it is marked.
        const labels: string[] = [];
        for (let i = 0; i < 44; i++) {
          await page.waitForSelector('body[data-rep-shown=true]');
          labels.push((await page.textContent('#rep-label'))!);
          await page.keyboard.press(i % 2 === 0 ? 'p' : 'f');
        }
        await page.waitForFunction(
          () => document.querySelector('#save-status')?.textContent === 'every mark saved',
          undefined,
          { timeout: 60_000 },
        );
        // Each mark answers its own position's mark and the counts, not the 260 positions' marks.
        const answers = (await Promise.all(replies)).map((text) => JSON.parse(text));
        expect(answers).toHaveLength(44);
        expect(answers.map((answer) => Object.keys(answer).sort().join())).toEqual(
          answers.map(() => 'mark,merged,ok,position,progress,turnMarks'),
        );
        expect(answers.map((answer) => answer.position)).toEqual(Array.from({ length: 44 }, (_, i) => 110 + i));
        expect(answers.map((answer) => answer.mark[0])).toEqual(answers.map((_, i) => (i % 2 === 0 ? 'pass' : 'fail')));
        expect(answers.at(-1)!.progress).toEqual({ marked: 152, total: 257 });
        expect(await page.textContent('#progress')).toMatch(/^marked 152\/257 in marks\.csv/);
        expect(labels[0]).toBe('alpha rep 56 (111 of 260)');
        expect(labels[43]).toBe('beta rep 77 (154 of 260)');
        expect(asked).toContain('/api/marker-reps?run=0&from=150&to=200');
        await page.waitForSelector('body[data-rep-shown=true]');
        expect(await page.textContent('#rep-label')).toBe('alpha rep 78 (155 of 260)');
        expect(await page.textContent('#pane-text')).toBe('RESP-alpha-78 deck 0');
        // The case file of a rep on the later page.
        await page.keyboard.press('2');
        expect(await page.textContent('#pane-text .markdown h1')).toBe('Case alpha');
        const marks = await readMarks(join(run, 'marks.csv'), { fixtures: ['alpha', 'beta'], reps: 130 });
        for (let i = 0; i < 44; i++) {
          const [fixture, rep] = /^(\w+) rep (\d+)/.exec(labels[i]!)!.slice(1);
          expect([labels[i], marks[`${fixture}/${rep}`]?.mark]).toEqual([labels[i], i % 2 === 0 ? 'pass' : 'fail']);
        }
        expect(marks['alpha/78']?.mark ?? '').toBe('');
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});

describe('turnkit view: a blind re-mark in pages leaks nothing the whole payload did not', () => {
  let folder: string;
  let server: ViewServer;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-view-marker-pages-blind-'));
    // Responses, errors and tails that name their fixture, as a careless SUT's would; other marks with notes.
    const names = ['xss-fixed', 'zebra-turn-7'];
    const one = await makeMarkRun({
      dir: join(folder, 'one'),
      fixtures: names.map((name) => ({
        name,
        caseFile: `# Case ${name}\n\nabout ${name}\n`,
        reps: Array.from(
          { length: 70 },
          (_, i): MarkRepSpec =>
            i === 3 ? { error: 'sut', message: `${name} died` } : `REPLY-${i + 1} from ${name.toUpperCase()} deck 2`,
        ),
      })),
    });
    const errored = join(one, 'reps', 'xss-fixed', 'rep-04.json');
    const record = JSON.parse(await readFile(errored, 'utf8')) as RepRecord;
    record.stdoutTail = 'loading fixtures/xss-fixed.json';
    record.stderrTail = 'Error in xss_fixed: boom';
    await writeFile(errored, JSON.stringify(record));
    await writeFile(join(one, 'marks.csv'), 'fixture,rep,mark,note\nxss-fixed,1,pass,EARLIER-NOTE\n');
    const said = (name: string) => ({ response: `Welcome aboard the ${name}.`, input: `${name} deck?` });
    const rollout = await makeRolloutRun(
      join(folder, 'rollout'),
      2,
      names.map((name) => ({
        name,
        reps: Array.from({ length: 30 }, () => ({ turns: [said(name), said(name)] })),
      })),
    );
    server = await startViewServer({ runs: [one, rollout], cwd: folder, strict: true, blind: true, seed: 5 });
  });
  afterAll(async () => {
    await server?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  for (const [id, total] of [
    [0, 140],
    [1, 60],
  ] as const)
    it(`run ${id}: the summary and the pages hold the whole blind payload's marker and nothing else`, async () => {
      const whole = (await get<Whole>(server, `/api/run?run=${id}`)).body;
      expect(whole.run).toBeNull();
      const packed = (await get<Summary>(server, `/api/marker?run=${id}`)).body;
      const summary = { ...packed, marker: unpack(packed.marker) };
      expect(summary).toEqual({ marker: summaryOfWhole(whole.marker), version: whole.version });
      // The packed form holds what the unpacked one does and nothing else: its notes are the whole's notes.
      expect(Object.keys(packed.marker).sort()).toEqual([...Object.keys(summary.marker), 'notes'].sort());
      expect(Object.values(packed.marker.notes).sort()).toEqual(
        summary.marker.marks
          .map(([, note]) => note)
          .filter((note) => note !== '')
          .sort(),
      );
      const pages = await allPages(server, id, total);
      // The pages add up to the whole's blind reps, each with the rendered case files its reps name and no other.
      expect(pages.flatMap((paged) => paged.page.blindReps!)).toEqual(whole.marker.blindReps);
      for (const paged of pages) {
        expect(paged.version).toBe(whole.version);
        expect(Object.keys(paged.page).sort()).toEqual(['blindCaseFileDocs', 'blindReps', 'from']);
        const named = [...new Set(paged.page.blindReps!.map((rep) => rep.caseFile))].sort();
        expect(Object.keys(paged.page.blindCaseFileDocs!).map(Number).sort()).toEqual(named);
        for (const index of named)
          expect(paged.page.blindCaseFileDocs![index]).toEqual(whole.marker.blindCaseFileDocs![index]);
      }
      // Every key and every string of the paged answers is one the whole payload held.
      const before = keysAndStrings(whole);
      // (The pages' own envelope aside: a position and the case files' indexes, which the whole's order gave.)
      const after = keysAndStrings([summary, ...pages]);
      const envelope = ['page', 'from'];
      expect([...after.keys].filter((key) => !before.keys.has(key) && !/^\d+$/.test(key))).toEqual(envelope);
      expect([...after.strings].filter((text) => !before.strings.has(text))).toEqual([]);
      const text = JSON.stringify([packed, summary, pages])
        .toLowerCase()
        .replace(/[-_\s]/g, '');
      for (const word of ['xssfixed', 'zebraturn7', 'earliernote']) expect(text).not.toContain(word);
      expect(JSON.stringify(pages)).toMatch(/case \d/);
    });

  it.runIf(hasBrowser || requireBrowser)(
    'blind in the browser: marks 60 reps, past the first page, and no page or answer names a fixture',
    async () => {
      const browser = await launchBrowser();
      try {
        const { page, problems } = await watchedPage(browser.context);
        const sent: Promise<string>[] = [];
        page.on('response', (response) => {
          if (response.url().includes('/api/')) sent.push(response.text().catch(() => ''));
        });
        await page.goto(`${server.url.replace(/#.*$/, '')}#mark=0`);
        await page.waitForSelector('body[data-view=marker][data-ready=true]');
        const texts: string[] = [];
        for (let i = 0; i < 60; i++) {
          await page.waitForSelector('body[data-rep-shown=true]');
          texts.push((await page.textContent('main'))!);
          await page.keyboard.press('p');
        }
        await page.waitForFunction(
          () => document.querySelector('#save-status')?.textContent === 'every mark saved',
          undefined,
          { timeout: 60_000 },
        );
        const positions = Number(/item (\d+) of 140/.exec(texts.at(-1)!)![1]);
        expect(positions).toBeGreaterThan(60);
        const rows = Object.values(
          await readMarks(join(folder, 'one', 'marks.blind.csv'), {
            fixtures: ['xss-fixed', 'zebra-turn-7'],
            reps: 70,
          }),
        );
        expect(rows.filter((row) => row.mark === 'pass')).toHaveLength(60);
        const everything = [...texts, ...(await Promise.all(sent))]
          .join('\n')
          .toLowerCase()
          .replace(/[-_\s]/g, '');
        expect(everything).toContain('reply');
        for (const word of ['xssfixed', 'zebraturn7', 'earliernote']) expect(everything).not.toContain(word);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
