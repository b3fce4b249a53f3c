import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli-in-process.js';
import { makeJudgeRun } from '../helpers/judge-run.js';

const FIXTURES = ['f1', 'f2', 'f3', 'f4', 'f5'];
const REPS = 14;

let project: string;

/** Notes of the three reps the graders disagree on (f4 reps 2 to 4), as [A's note, B's note]. */
const DISAGREEMENT_NOTES: Record<number, [string, string]> = {
  2: ['names deck 2', 'says deck 3'],
  3: ['route given', 'no route'],
  4: ['wrong deck', 'Deck 2.'],
};

/**
 * A human's and a judge's marks over 5 fixtures × 14 reps. Reps 1..13 of each fixture (65 reps, taken in fixture
 * order as k = 0..64) are graded by both: k < 40 pass/pass, k = 40, 41 pass/fail, k = 42 fail/pass, k > 42
 * fail/fail, so the confusion matrix is [[40, 2], [1, 22]]. Rep 14: f1..f3 na (A) vs pass (B), f4 blank (A) vs fail
 * (B): 4 unmatched; f5 na in both: not counted.
 */
function marksFiles(): { human: string; judge: string } {
  const human = ['fixture,rep,mark,note'];
  const judge = ['fixture,rep,mark,note,grader,marked_at,rubric_version'];
  const stamp = ',judge-gpt-test,2026-01-02T00:00:00.000Z,1';
  FIXTURES.forEach((fixture, f) => {
    for (let rep = 1; rep <= 13; rep++) {
      const k = f * 13 + rep - 1;
      const [a, b] =
        k < 40 ? ['pass', 'pass'] : k < 42 ? ['pass', 'fail'] : k === 42 ? ['fail', 'pass'] : ['fail', 'fail'];
      const [noteA, noteB] =
        DISAGREEMENT_NOTES[rep] !== undefined && fixture === 'f4' ? DISAGREEMENT_NOTES[rep]! : ['', ''];
      human.push(`${fixture},${rep},${a},${noteA}`);
      judge.push(`${fixture},${rep},${b},${noteB}${stamp}`);
    }
    const [a14, b14] = f < 3 ? ['na', 'pass'] : f === 3 ? ['', 'fail'] : ['na', 'na'];
    human.push(`${fixture},14,${a14},`);
    judge.push(`${fixture},14,${b14},${stamp}`);
  });
  return { human: `${human.join('\n')}\n`, judge: `${judge.join('\n')}\n` };
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'turnkit-agree-'));
  const reps = Array.from({ length: REPS }, (_, i) => `response ${i + 1}`);
  for (const [name, startedAt] of [
    ['run', '2026-01-01T00:00:00.000Z'],
    ['run2', '2026-02-01T00:00:00.000Z'],
  ] as const) {
    await makeJudgeRun({
      dir: join(project, name),
      startedAt,
      fixtures: FIXTURES.map((fixture) => ({ name: fixture, reps })),
    });
    const { human, judge } = marksFiles();
    await writeFile(join(project, name, 'marks.csv'), human);
    await writeFile(join(project, name, 'marks.judge-gpt-test.csv'), judge);
  }
});
afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('turnkit agree', () => {
  it('prints the agreement 62/65, kappa, the confusion matrix, marginals, unmatched count and every disagreement', async () => {
    const result = await runInProcess(['agree', 'run/marks.csv', 'run/marks.judge-gpt-test.csv'], { cwd: project });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // po = 62/65 = 0.954; pA = 42/65 = 0.646, pB = 41/65 = 0.631; kappa = 1756/1951 = 0.900 (see test/unit/agreement.test.ts).
    expect(result.stdout.split('\n')).toEqual([
      'A: run/marks.csv',
      'B: run/marks.judge-gpt-test.csv',
      '',
      "agreement 62/65 = 0.954; Cohen's kappa 0.900",
      '',
      '        B pass  B fail',
      'A pass      40       2',
      'A fail       1      22',
      '',
      'pass rate over these 65 reps: A 0.646, B 0.631',
      '4 rep(s) marked pass or fail in one file only (na, error or blank in the other): not counted',
      '',
      '3 disagreement(s):',
      'fixture  rep  A     B     A note        B note',
      'f4         2  pass  fail  names deck 2  says deck 3',
      'f4         3  pass  fail  route given   no route',
      'f4         4  fail  pass  wrong deck    Deck 2.',
      '',
    ]);
  });

  it('--json gives the same numbers as values', async () => {
    const result = await runInProcess(['agree', 'run/marks.csv', 'run/marks.judge-gpt-test.csv', '--json'], {
      cwd: project,
    });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      a: 'run/marks.csv',
      b: 'run/marks.judge-gpt-test.csv',
      run: 'run',
      matched: 65,
      agreed: 62,
      unmatched: 4,
      confusion: { passPass: 40, passFail: 2, failPass: 1, failFail: 22 },
    });
    expect(json.ratio).toBeCloseTo(62 / 65, 12);
    expect(json.kappa).toBeCloseTo(1756 / 1951, 12);
    expect(json.passRateA).toBeCloseTo(42 / 65, 12);
    expect(json.passRateB).toBeCloseTo(41 / 65, 12);
    expect(json.disagreements).toEqual([
      { fixture: 'f4', rep: 2, a: 'pass', b: 'fail', noteA: 'names deck 2', noteB: 'says deck 3' },
      { fixture: 'f4', rep: 3, a: 'pass', b: 'fail', noteA: 'route given', noteB: 'no route' },
      { fixture: 'f4', rep: 4, a: 'fail', b: 'pass', noteA: 'wrong deck', noteB: 'Deck 2.' },
    ]);
  });

  it('refuses marks files of two different runs with one line naming both', async () => {
    const result = await runInProcess(['agree', 'run/marks.csv', 'run2/marks.judge-gpt-test.csv'], { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('run2/marks.judge-gpt-test.csv: marks of another run (run2) than run/marks.csv (run)\n');
  });

  it('refuses a marks file naming a rep the run does not have, with file:line', async () => {
    await writeFile(
      join(project, 'run', 'marks.other.csv'),
      'fixture,rep,mark,note\nf1,1,pass,\nf1,15,fail,\nf9,1,pass,\n',
    );
    const result = await runInProcess(['agree', 'run/marks.csv', 'run/marks.other.csv'], { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    // Every problem, one line each, the first first.
    expect(result.stderr).toBe(
      `run/marks.other.csv:3: f1 rep 15 is not a rep of this run (${REPS} reps per fixture)\nrun/marks.other.csv:4: no fixture "f9" in this run (it has f1, f2, f3, f4, f5)\n`,
    );
  });

  it('checks a file outside the run against the run of the other file', async () => {
    await mkdir(join(project, 'loose'), { recursive: true });
    await writeFile(join(project, 'loose', 'remark.csv'), 'fixture,rep,mark,note\nf1,1,pass,\nf1,99,pass,\n');
    const result = await runInProcess(['agree', 'run/marks.csv', 'loose/remark.csv'], { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`loose/remark.csv:3: f1 rep 99 is not a rep of this run (${REPS} reps per fixture)\n`);
  });

  it('compares two files outside any run directory without run checks', async () => {
    await mkdir(join(project, 'loose'), { recursive: true });
    // Reps no run has (any fixture, rep 500): fine without a run. Matched: x 500 pass/pass, x 501 fail/pass, y 1 fail/fail.
    // [[1, 0], [1, 1]]: po = 2/3, pA = 1/3, pB = 2/3, pe = 4/9, kappa = (2/3 − 4/9)/(5/9) = 0.4.
    await writeFile(
      join(project, 'loose', 'a.csv'),
      'fixture,rep,mark,note\nx,500,pass,\nx,501,fail,too vague\ny,1,fail,\ny,2,na,\n',
    );
    await writeFile(
      join(project, 'loose', 'b.csv'),
      'fixture,rep,mark,note\nx,500,pass,\nx,501,pass,fine\ny,1,fail,\ny,2,pass,\n',
    );
    const text = await runInProcess(['agree', 'loose/a.csv', 'loose/b.csv'], { cwd: project });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("agreement 2/3 = 0.667; Cohen's kappa 0.400\n");
    expect(text.stdout).toContain('x        501  fail  pass  too vague  fine\n');
    const json = await runInProcess(['agree', 'loose/a.csv', 'loose/b.csv', '--json'], { cwd: project });
    const parsed = JSON.parse(json.stdout);
    expect(parsed).toMatchObject({ run: null, matched: 3, agreed: 2, unmatched: 1 });
    expect(parsed.kappa).toBeCloseTo(0.4, 12);
  });

  it('says kappa is null when no rep is marked pass or fail in both files', async () => {
    await mkdir(join(project, 'loose'), { recursive: true });
    await writeFile(join(project, 'loose', 'none-a.csv'), 'fixture,rep,mark,note\nx,1,na,\nx,2,,\n');
    await writeFile(join(project, 'loose', 'none-b.csv'), 'fixture,rep,mark,note\nx,1,pass,\nx,2,fail,\n');
    const result = await runInProcess(['agree', 'loose/none-a.csv', 'loose/none-b.csv'], { cwd: project });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'A: loose/none-a.csv\nB: loose/none-b.csv\n\nno rep is marked pass or fail in both files: nothing to compare (kappa: null)\n',
    );
    const json = JSON.parse(
      (await runInProcess(['agree', 'loose/none-a.csv', 'loose/none-b.csv', '--json'], { cwd: project })).stdout,
    );
    expect(json).toMatchObject({
      matched: 0,
      ratio: null,
      kappa: null,
      passRateA: null,
      passRateB: null,
      unmatched: 2,
    });
  });

  it('leaves both files as they were', async () => {
    const before = [
      await readFile(join(project, 'run', 'marks.csv'), 'utf8'),
      await readFile(join(project, 'run', 'marks.judge-gpt-test.csv'), 'utf8'),
    ];
    await runInProcess(['agree', 'run/marks.csv', 'run/marks.judge-gpt-test.csv'], { cwd: project });
    expect([
      await readFile(join(project, 'run', 'marks.csv'), 'utf8'),
      await readFile(join(project, 'run', 'marks.judge-gpt-test.csv'), 'utf8'),
    ]).toEqual(before);
    expect(before).toEqual([marksFiles().human, marksFiles().judge]);
  });
});
