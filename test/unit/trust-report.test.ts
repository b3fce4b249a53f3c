import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build-report.js';
import { formatReport } from '../../src/report/format-report.js';
import { junitXml } from '../../src/report/junit-report.js';
import { formatMarks } from '../../src/run-dir/marks/format-marks.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import { report } from '../../src/report/report.js';
import { buildRunView } from '../../src/view/build-run-view.js';
import { makeReportRun } from '../helpers/report-run.js';

let root: string;
let run: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-trust-'));
  run = await makeReportRun(join(root, 'run'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('a judge calibrated on the same run', () => {
  it('counts the calibration from the reps both marked and corrects each fixture, tag and the question', async () => {
    const built = await buildReport(run, { marks: 'marks.checks.csv' });
    const correction = built.trust.correction!;
    // By hand from test/helpers/report-run.ts: person vs checks on reps both marked pass or fail.
    // base 1-4: F/F, F/F, P/P, F/P; base-fixed 1-6: P/P x5, F/F; far 1-4: P/P, F/F, P/P, P/F.
    expect(correction.calibration.counts).toEqual({ truePass: 8, falseFail: 1, falsePass: 1, trueFail: 4 });
    expect(correction.source).toBe('this run');
    expect(correction.refused).toBeNull();
    const byName = new Map(correction.estimates.map((entry) => [`${entry.scope}:${entry.name}`, entry]));
    // base-fixed: every judged rep has the person's mark, so no unlabeled rep: Rogan-Gladen,
    // (5/6 + 4/5 - 1) / (8/9 + 4/5 - 1).
    const fixed = byName.get('fixture:base-fixed')!;
    expect(fixed.method).toBe('rogan-gladen');
    expect(fixed.rate).toBeCloseTo((5 / 6 + 0.8 - 1) / (8 / 9 + 0.8 - 1), 12);
    // far: PPI, mean(judge on reps 5, 6) = 1 plus the rectifier mean (0 + 0 + 0 + 1) / 4, clipped to 1.
    const far = byName.get('fixture:far')!;
    expect(far.method).toBe('prediction-powered');
    expect(far.rate).toBe(1);
    // base: one unlabeled rep (6) is too few for PPI's variance: Rogan-Gladen, (2/5 + 4/5 - 1) / (8/9 + 4/5 - 1).
    expect(byName.get('fixture:base')!.method).toBe('rogan-gladen');
    expect(byName.get('fixture:base')!.rate).toBeCloseTo((0.4 + 0.8 - 1) / (8 / 9 + 0.8 - 1), 12);
    expect(byName.get('question:question')!.verdict).toMatch(/^(met|missed|uncertain)$/);
    // Byte-stable: the seeded bootstrap gives the same report twice.
    const again = await buildReport(run, { marks: 'marks.checks.csv' });
    expect(JSON.stringify(again.trust)).toBe(JSON.stringify(built.trust));
  });

  it('shows the corrected verdict in text, Markdown, JSON, JUnit and the HTML view', async () => {
    const built = await buildReport(run, { marks: 'marks.checks.csv' });
    const question = built.trust.correction!.estimates.find((entry) => entry.scope === 'question')!;
    const phrase = `question: ${question.rate!.toFixed(2)}`;
    const text = formatReport(built, 'text', undefined, { full: true }).join('\n');
    expect(text).toContain(`Corrected ${phrase}`);
    expect(text).toContain('Corrected rates of marks.checks.csv');
    // The checks are no judge and have no prompt: named for what they are.
    expect(text).toMatch(/^Deterministic checks \(rubric 1\) calibrated on this run's marks\.csv: /m);
    expect(text).not.toContain('prompt unknown');
    expect(formatReport(built, 'md', undefined, { full: true }).join('\n')).toContain(
      '## Corrected rates of marks.checks.csv',
    );
    expect(JSON.parse(JSON.stringify(built)).trust.correction.estimates.length).toBe(6);
    const xml = junitXml(built, new Map());
    expect(xml).toContain('name="correctedVerdict"');
    expect(xml).toContain(`corrected ${phrase}`);
    const view = await buildRunView({ cwd: process.cwd(), dir: run, marks: 'marks.checks.csv' });
    expect(view.trust.summary).toBe(`corrected ${phrase}${text.split(`Corrected ${phrase}`)[1]!.split('\n')[0]}`);
  });

  it('puts the checks beside the self-agreement ceiling', async () => {
    const built = await buildReport(run);
    expect(built.trust.correction).toBeNull();
    const [ceiling] = built.trust.ceilings;
    expect(ceiling!.file).toBe('marks.checks.csv');
    expect(ceiling!.selfFile).toBe('marks.blind.csv');
    expect(ceiling!.agreement).toMatchObject({ agreed: 12, matched: 14 });
    expect(ceiling!.standing).toBe('within');
    expect(built.trust.pooled.map((entry) => entry.scope)).toEqual(['dev', 'heldout', 'question']);
    expect(built.trust.mantelHaenszel!.strata).toBe(1);
  });
});

describe('refusals', () => {
  it('refuses a judge at chance and says its J', async () => {
    const human = parseMarks(await readFile(join(run, 'marks.csv'), 'utf8'));
    const flipped = human.map((row) => ({
      ...row,
      mark: row.mark === 'pass' ? ('fail' as const) : row.mark === 'fail' ? ('pass' as const) : row.mark,
    }));
    await writeFile(join(run, 'marks.judge-flip.csv'), formatMarks(flipped));
    const built = await buildReport(run, { marks: 'marks.judge-flip.csv' });
    expect(built.trust.correction!.refused).toMatch(/^Youden's J is -1\.000/);
    expect(built.trust.correction!.estimates).toEqual([]);
    expect(formatReport(built, 'text', undefined, { full: true }).join('\n')).toContain(
      "Refused to correct: Youden's J is -1.000",
    );
    await rm(join(run, 'marks.judge-flip.csv'));
  });

  it('saves a calibration file, reuses it, and refuses it for another rubric version', async () => {
    const file = join(root, 'places.calibration.json');
    await report({ paths: { baseDir: process.cwd() } }, { dir: run, marks: 'marks.checks.csv', saveCalibration: file });
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.counts).toEqual({ truePass: 8, falseFail: 1, falsePass: 1, trueFail: 4 });
    const reused = await buildReport(run, { marks: 'marks.checks.csv', calibration: file });
    expect(reused.trust.correction!.source).toBe(file);
    expect(reused.trust.correction!.estimates.every((entry) => entry.method !== 'prediction-powered')).toBe(true);
    await writeFile(file, JSON.stringify({ ...saved, judge: { ...saved.judge, rubricVersion: 'other' } }));
    await expect(buildReport(run, { marks: 'marks.checks.csv', calibration: file })).rejects.toThrow(
      /places\.calibration\.json: judge: refused, the run's judge differs: rubricVersion/,
    );
  });
});

describe('--compare paired by fixture', () => {
  it('gives the CMH test over fixtures, the pooled difference and Holm-adjusted p-values', async () => {
    const { compareReports } = await import('../../src/report/compare-runs.js');
    const { formatComparison } = await import('../../src/report/format-report.js');
    const here = await buildReport(run, { marks: 'marks.checks.csv' });
    const there = await buildReport(run);
    const comparison = compareReports(here, there);
    const paired = comparison.paired!;
    expect(paired.test.strata).toBe(3);
    // Pooled MH difference by hand (weights n1 n0 / N): base 2/5 vs 1/4 (w 20/9), base-fixed 5/6 vs 5/6 (w 3),
    // far 4/6 vs 3/4 (w 24/10).
    const parts = [
      [20 / 9, 2 / 5 - 1 / 4],
      [3, 0],
      [24 / 10, 4 / 6 - 3 / 4],
    ] as const;
    const pooled = parts.reduce((s, [w, d]) => s + w * d, 0) / parts.reduce((s, [w]) => s + w, 0);
    expect(paired.test.difference).toBeCloseTo(pooled, 12);
    comparison.fixtures.forEach((entry, i) => {
      if (entry.p !== null) expect(paired.holm[i]!).toBeGreaterThanOrEqual(entry.p);
    });
    expect(formatComparison(comparison, 'text').join('\n')).toContain('Paired by fixture over 3 fixture(s)');
  });
});
