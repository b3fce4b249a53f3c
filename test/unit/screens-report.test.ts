import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build-report.js';
import { formatReport } from '../../src/report/format-report.js';
import { judgeChecks } from '../../src/judge/judge-checks.js';
import { checksSchema } from '../../src/question/checks-format.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import { parseScreens } from '../../src/run-dir/screens-file.js';
import { makeScreensRun, type ScreensRep } from '../helpers/screens-run.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-screens-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const project = () => ({ cwd: root, paths: { baseDir: root } });

// Seed 000's shape: 5 fixtures x 6 reps = 30 completed conversations. The required-action screen (a notes row
// inserted) applies to f1..f4 (24 reps), the answer-term screen ("Go") to f1..f3 (f4 and f5 skip it: 18 reps).
// Rep r inserts a note when r <= ACTION[f] and answers with the term when r <= TERM[f].
const ACTION = [3, 2, 1, 1, 0];
const TERM = [2, 1, 1, 6, 6];
const seedChecks = checksSchema.parse({
  mustContain: { name: 'answer-term', terms: ['Go'] },
  effects: { inserted: [{ table: 'notes', name: 'required-action', applies: ['f1', 'f2', 'f3', 'f4'] }] },
});

function seedReps(fixture: number): ScreensRep[] {
  return Array.from({ length: 6 }, (_, i) => ({
    response: i + 1 <= TERM[fixture]! ? 'Use Go for it.' : 'I cannot say.',
    notes: i + 1 <= ACTION[fixture]!,
  }));
}

describe('screens with their own denominators (seed 000 shape)', () => {
  it('reports completed 30/30, required-action 7/24 and answer-term 4/18, unscored never counted', async () => {
    const dir = await makeScreensRun({
      dir: join(root, 'seed'),
      checks: seedChecks,
      fixtures: [0, 1, 2, 3, 4].map((i) => ({
        name: `f${i + 1}`,
        reps: seedReps(i),
        ...(i >= 3 ? { skip: ['answer-term'] } : {}),
      })),
    });
    const judged = await judgeChecks(project(), { dir });
    // Hand count of the combined marks: a rep passes when every screen that applies passes.
    // f1: reps 1-2 pass both; f2, f3: rep 1; f4: rep 1 (its only screen); f5: no screen applies (na).
    expect(judged).toMatchObject({ pass: 5, fail: 19, na: 6, error: 0, notRun: 0 });
    const marks = parseMarks(await readFile(join(dir, 'marks.checks.csv'), 'utf8'));
    expect(marks.filter((row) => row.fixture === 'f5').map((row) => row.mark)).toEqual(Array(6).fill('na'));

    const lines = await parseScreens(await readFile(join(dir, 'screens.checks.jsonl'), 'utf8'), 'screens');
    expect(lines).toHaveLength(30);
    const f4rep2 = lines.find((row) => row.fixture === 'f4' && row.rep === 2)!;
    expect(f4rep2).toEqual({
      fixture: 'f4',
      rep: 2,
      mark: 'fail',
      screens: [
        { screen: 'answer-term', mark: 'unscored', reason: 'the question skips it for f4' },
        { screen: 'required-action', mark: 'fail', reason: 'inserted no notes row' },
      ],
    });

    const report = await buildReport(dir, { marks: 'marks.checks.csv' });
    const total = report.screens!.tags[0]!;
    expect(total.completed).toEqual({ completed: 30, reps: 30 });
    const byName = Object.fromEntries(total.screens.map((counts) => [counts.screen, counts]));
    expect(byName['required-action']).toMatchObject({ pass: 7, fail: 17, unscored: 6, error: 0, denominator: 24 });
    expect(byName['answer-term']).toMatchObject({ pass: 4, fail: 14, unscored: 12, error: 0, denominator: 18 });
    expect(byName['answer-term']!.rate).toBeCloseTo(4 / 18, 10);
    const f1 = report.screens!.fixtures[0]!;
    expect(f1.screens.map((counts) => `${counts.screen} ${counts.pass}/${counts.denominator}`)).toEqual([
      'answer-term 2/6',
      'required-action 3/6',
    ]);
    // The combined rate leaves the na reps of f5 out: 5 of 24.
    expect(report.tags[0]).toMatchObject({ pass: 5, fail: 19, na: 6 });
    expect(report.screens!.neverFailed).toEqual([]);
    expect(report.screens!.allPassed).toEqual([]);

    const text = formatReport(report, 'text', undefined, { full: true });
    const totalLine = text.find((line) => line.startsWith('total (5 fixtures)') && line.includes('30/30'));
    expect(totalLine).toContain('4/18 = 0.22 (12 unscored)');
    expect(totalLine).toContain('7/24 = 0.29 (6 unscored)');
    const md = formatReport(report, 'md', undefined, { full: true });
    expect(md).toContain('## Screens');
    expect(md).toContain('| fixture | completed | answer-term | required-action |');
  });

  it('hints at a screen no rep failed and a fixture whose every screen passed every rep', async () => {
    const dir = await makeScreensRun({
      dir: join(root, 'easy'),
      checks: checksSchema.parse({ mustContain: ['deck'], mustNotContain: { name: 'no-swearing', terms: ['damn'] } }),
      fixtures: [
        { name: 'easy', tag: 'dev', reps: [{ response: 'deck 2' }, { response: 'deck 2' }] },
        { name: 'hard', tag: 'heldout', reps: [{ response: 'deck 2' }, { response: 'no idea' }] },
      ],
    });
    await judgeChecks(project(), { dir });
    const report = await buildReport(dir, { marks: 'marks.checks.csv' });
    expect(report.screens!.screens).toEqual(['must-contain', 'no-swearing']);
    expect(report.screens!.neverFailed).toEqual(['no-swearing']);
    expect(report.screens!.allPassed).toEqual(['easy']);
    // Each tag is its own table with its own total: dev and heldout are never pooled.
    expect(
      report.screens!.tags.map((group) => [group.tag, group.screens.map((c) => `${c.pass}/${c.denominator}`)]),
    ).toEqual([
      ['dev', ['2/2', '2/2']],
      ['heldout', ['1/2', '2/2']],
    ]);
    const text = formatReport(report, 'text', undefined, { full: true }).join('\n');
    expect(text).toContain('Hint: no rep of the run failed no-swearing');
    expect(text).toContain('Hint: every screen passed every rep of easy');
  });
});

describe('errors: exclude and errors: fail on one run', () => {
  // 10 reps: 6 pass, 2 fail, 2 errored. Excluded: 6/8 = 0.75 (meets 0.7: ceil(5.6) = 6 passes needed);
  // as fails: 6/10 = 0.60 (misses 0.7: 7 needed).
  const reps: ScreensRep[] = [
    ...Array.from({ length: 6 }, () => ({ response: 'deck 2' })),
    { response: 'deck 5' },
    { error: true },
    { response: 'deck 5' },
    { error: true },
  ];
  const checks = checksSchema.parse({ mustContain: { name: 'deck-2', terms: ['deck 2'] } });

  for (const [errors, rate, n, verdict] of [
    ['exclude', 0.75, 8, 'met'],
    ['fail', 0.6, 10, 'missed'],
  ] as const) {
    it(`errors: ${errors} gives ${rate} (6/${n}), and the JSON carries both readings`, async () => {
      const dir = await makeScreensRun({
        dir: join(root, `errors-${errors}`),
        checks,
        errors,
        target: 0.7,
        fixtures: [{ name: 'a', reps }],
      });
      const judged = await judgeChecks(project(), { dir });
      expect(judged).toMatchObject({ pass: 6, fail: 2, error: 2 });
      const report = await buildReport(dir, { marks: 'marks.checks.csv' });
      expect(report.errors).toBe(errors);
      const fixture = report.fixtures[0]!;
      expect(fixture).toMatchObject({ pass: 6, fail: 2, error: 2, n, verdict, rates: { exclude: 0.75, fail: 0.6 } });
      expect(fixture.rate).toBeCloseTo(rate, 10);
      expect(report.tags[0]!.rate).toBeCloseTo(rate, 10);
      const screen = report.screens!.fixtures[0]!.screens[0]!;
      expect(screen).toMatchObject({ pass: 6, fail: 2, error: 2, denominator: n, rates: { exclude: 0.75, fail: 0.6 } });
      expect(report.screens!.fixtures[0]!.completed).toEqual({ completed: 8, reps: 10 });
      const text = formatReport(report, 'text', undefined, { full: true }).join('\n');
      const words = errors === 'fail' ? 'errors as fails' : 'errors excluded';
      expect(text).toContain(`rate (${words})`);
      expect(text).toContain(`${rate.toFixed(2)} (6/${n})`);
      expect(text).toContain(`(${words}; unscored reps`);
      const json = JSON.parse(JSON.stringify(report)) as typeof report;
      expect(json.fixtures[0]).toMatchObject({ pass: 6, fail: 2, error: 2 });
    });
  }
});

describe('the tool rules as screens of the framework', () => {
  it('writes the allowed-tools screen beside the checks, unscored where a fixture skips it, error on an errored rep', async () => {
    const { checksGrader } = await import('../../src/judge/judge-checks.js');
    const { gradeRun } = await import('../../src/judge/grader.js');
    const { readRun } = await import('../../src/run-dir/read-run.js');
    const { repId } = await import('../../src/run-dir/run-state.js');
    const { toolsSchema } = await import('../../src/question/tools-format.js');
    const dir = await makeScreensRun({
      dir: join(root, 'tools'),
      checks: checksSchema.parse({ mustContain: ['deck'] }),
      fixtures: [
        { name: 'gm', reps: [{ response: 'deck 2' }, { error: true }] },
        { name: 'quiet', skip: ['allowed-tools'], reps: [{ response: 'deck 2' }, { response: 'deck 2' }] },
      ],
    });
    const run = await readRun(dir);
    // The first rep called a tool the question does not allow (the run keeps the records it read, changed here).
    const { records } = await run.reps();
    records.get(repId({ fixture: 'gm', rep: 1 }))!.toolCalls = [{ name: 'delete_world', arguments: {} }];
    const tools = toolsSchema.parse({ allowed: ['route'] });
    await gradeRun(run, checksGrader(dir, run.manifest, run.manifest.checks, { tools }));
    const rows = await parseScreens(await readFile(join(dir, 'screens.checks.jsonl'), 'utf8'), 'screens');
    const marks = (fixture: string, rep: number) =>
      rows
        .find((row) => row.fixture === fixture && row.rep === rep)!
        .screens.map((entry) => `${entry.screen} ${entry.mark}`);
    expect(marks('gm', 1)).toEqual(['allowed-tools fail', 'must-contain pass']);
    expect(marks('gm', 2)).toEqual(['allowed-tools error', 'must-contain error']);
    expect(marks('quiet', 1)).toEqual(['allowed-tools unscored', 'must-contain pass']);
    const report = await buildReport(dir, { marks: 'marks.checks.csv' });
    const allowed = report.screens!.tags[0]!.screens.find((counts) => counts.screen === 'allowed-tools')!;
    expect(allowed).toMatchObject({ pass: 0, fail: 1, unscored: 2, error: 1, denominator: 1 });
  });
});
