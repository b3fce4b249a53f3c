import { mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildReport } from '../../src/report/build-report.js';
import { ciFixtureDetails } from '../../src/report/ci-details.js';
import { MarkingSession } from '../../src/marking/marking-session.js';
import { report } from '../../src/report/report.js';
import { readRun } from '../../src/run-dir/read-run.js';
import { readRunText } from '../../src/run-dir/run-file.js';
import { writeHtmlReport } from '../../src/view/write-html-report.js';
import { makeReportRun } from '../helpers/report-run.js';

// Every read of a file through node:fs/promises' readFile, by path: what a whole command read, and how often.
const reads = vi.hoisted(() => new Map<string, number>());
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const readFile = (async (path: Parameters<typeof actual.readFile>[0], ...rest: unknown[]) => {
    const key = String(path);
    reads.set(key, (reads.get(key) ?? 0) + 1);
    return (actual.readFile as (...args: unknown[]) => Promise<unknown>)(path, ...rest);
  }) as typeof actual.readFile;
  return { ...actual, readFile, default: { ...actual, readFile } };
});

let root: string;
let dir: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-read-run-'));
  dir = await makeReportRun(join(root, 'run'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => reads.clear());

/** The reads of the run's files, by path inside the run, counted. */
function runReads(): Map<string, number> {
  return new Map([...reads].filter(([path]) => path.startsWith(dir)).map(([path, n]) => [relative(dir, path), n]));
}

const REP_FILE = /^reps\/[^/]+\/rep-\d+\.json$/;

describe('readRun: one reader of a run directory', () => {
  it('reads each rep record, marks file and verdict file once however many parts of a report ask', async () => {
    const counted = new Map<string, number>();
    const run = await readRun(dir, {
      readText: (runDir, path) => {
        counted.set(path, (counted.get(path) ?? 0) + 1);
        return readRunText(runDir, path);
      },
    });
    const built = await buildReport(dir, { run, marks: 'marks.checks.csv' });
    await ciFixtureDetails(built, run);
    const again = await run.reps();
    // 18 reps of 3 fixtures, every one read, and once.
    const repReads = [...counted].filter(([path]) => REP_FILE.test(path));
    expect(repReads).toHaveLength(18);
    expect(repReads.every(([, n]) => n === 1)).toBe(true);
    expect(again.records.size).toBe(18);
    expect(built.fixtures.map((fixture) => fixture.reps)).toEqual([6, 6, 6]);
    // The marks files are read once each too (the report's own, the agreements', the calibration's).
    const marksReads = [...reads].filter(([path]) => path.startsWith(dir) && /marks[^/]*\.csv$/.test(path));
    expect(marksReads.length).toBeGreaterThanOrEqual(3);
    expect(marksReads.every(([, n]) => n === 1)).toBe(true);
  });

  it('caches a missing file as missing and a marks file by its absolute path', async () => {
    const run = await readRun(dir);
    await expect(run.text('nothing-here.txt')).rejects.toMatchObject({ code: 'ENOENT' });
    const first = await run.marks('marks.csv');
    expect(await run.marks(join(dir, 'marks.csv'))).toBe(first);
    expect(await run.marksFileNames()).toEqual(['marks.blind.csv', 'marks.checks.csv', 'marks.csv']);
    expect(await run.caseFile('no-such-fixture')).toBe('(no case file in the run directory)');
  });

  it('gives the real path of a file inside the run for streaming it, and none for anything outside it', async () => {
    const run = await readRun(dir);
    expect(await run.pathOf('manifest.json')).toBe(await realpath(join(dir, 'manifest.json')));
    await symlink('/etc/hostname', join(dir, 'link-out.txt'));
    try {
      for (const outside of ['../run/../../x', '/etc/hostname', 'link-out.txt', 'nothing-here.txt', 'reps'])
        expect(await run.pathOf(outside), outside).toBeUndefined();
    } finally {
      await rm(join(dir, 'link-out.txt'));
    }
  });
});

describe('a command reads every rep file once', () => {
  it('turnkit report (with --compare of the same run): each rep record of each run once', async () => {
    await report({ paths: { baseDir: root } }, { dir: 'run', compare: 'run' });
    const repReads = [...runReads()].filter(([path]) => REP_FILE.test(path));
    // The run is read as "here" and as "there": two commands' worth in one, each reading every record once.
    expect(repReads).toHaveLength(18);
    expect(repReads.every(([, n]) => n === 2)).toBe(true);
  });

  it('turnkit report --html: the page and its report share one reading', async () => {
    const result = await writeHtmlReport({ cwd: root, dir: 'run', file: join(root, 'page.html') });
    expect(result.run.reps).toHaveLength(18);
    const counts = runReads();
    const repReads = [...counts].filter(([path]) => REP_FILE.test(path));
    expect(repReads).toHaveLength(18);
    expect(repReads.every(([, n]) => n === 1)).toBe(true);
    expect(counts.get('marks.csv')).toBe(1);
    expect(counts.get('marks.checks.csv')).toBe(1);
    expect(counts.get('rubric.md')).toBe(1);
  });

  it('turnkit mark: opening a run for marking reads each record once', async () => {
    const session = await MarkingSession.open({ dir, who: 'tester' });
    expect(session.reps).toHaveLength(18);
    const repReads = [...runReads()].filter(([path]) => REP_FILE.test(path));
    expect(repReads).toHaveLength(18);
    expect(repReads.every(([, n]) => n === 1)).toBe(true);
    expect(runReads().get('marks.csv')).toBe(1);
  });
});
