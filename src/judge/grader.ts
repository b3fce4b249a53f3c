import { join, resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import { loadQuestion, type LoadedQuestion } from '../question/load-question.js';
import { shownPath } from '../util/shown-path.js';
import type { Mark, MarkRow } from '../run-dir/marks/marks-file.js';
import type { Run } from '../run-dir/read-run.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import { planReps } from '../run-dir/rep-order.js';
import { runWriter } from '../run-dir/run-writer.js';
import { repId, type RepKey } from '../run-dir/run-state.js';

/** A grader's mark of one rep and its note; a blank mark leaves the rep ungraded (a judge stopped before it). */
export interface Grade {
  mark: Mark;
  note: string;
}

/**
 * A way of marking a run's reps into a marks file of its own: the deterministic checks (`marks.checks.csv`) and the
 * LLM judges (`marks.judge-MODEL.csv`) are graders; `gradeRun` is the one loop that writes their files.
 */
export interface Grader {
  /** The marks file's name in the run directory. */
  readonly marksFile: string;
  /** Fields every row it grades carries (who, when, under which rubric); a rep not run carries none. */
  readonly stamp?: Pick<MarkRow, 'grader' | 'markedAt' | 'rubricVersion'> | undefined;
  /** Marks one rep that has a record (an errored rep included: the grader says what that means). */
  grade(key: RepKey, record: RepRecord): Promise<Grade>;
  /**
   * After every rep is graded and before the marks file is written: the grader's own files (its verdicts, its
   * screens). Throwing here writes no marks file.
   */
  finish?(rows: readonly MarkRow[]): Promise<void>;
}

/** What a grader made of a run: its rows as written, and their counts. */
export interface GradedRun {
  file: string;
  rows: MarkRow[];
  pass: number;
  fail: number;
  na: number;
  error: number;
  /** Reps the run has no record of (an interrupted run): left blank as `not run`. */
  notRun: number;
}

/** A grader's `--question FILE` (relative to `cwd`): the question file, refused when it is another question's. */
export async function questionOfRun(file: string, cwd: string, run: Run): Promise<LoadedQuestion> {
  const question = await loadQuestion(resolve(cwd, file));
  const expected = run.manifest.question.id;
  if (question.question.id !== expected)
    throw new TurnkitError(
      'BAD_INPUT',
      `${question.shown}: question "${question.question.id}", but ${shownPath(run.dir)} is a run of "${expected}"`,
    );
  return question;
}

/**
 * Grades every rep the run planned (its shard's) with one grader, in plan order, and writes the grader's marks file
 * atomically, after the grader's own files: a rep with no record is left blank (`not run`).
 * @example
 * const graded = await gradeRun(await readRun(dir), checksGrader(dir, manifest, checks));
 */
export async function gradeRun(run: Run, grader: Grader): Promise<GradedRun> {
  const { dir, manifest } = run;
  const { records } = await run.reps();
  const keys = planReps(
    manifest.fixtures.map((fixture) => fixture.name),
    manifest.question.reps,
    manifest.shard,
  );
  const result: GradedRun = {
    file: join(dir, grader.marksFile),
    rows: [],
    pass: 0,
    fail: 0,
    na: 0,
    error: 0,
    notRun: 0,
  };
  result.rows = await Promise.all(
    keys.map(async (key): Promise<MarkRow> => {
      const record = records.get(repId(key));
      if (!record) {
        result.notRun++;
        return { ...key, mark: '', note: 'not run' };
      }
      const grade = await grader.grade(key, record);
      if (grade.mark !== '') result[grade.mark]++;
      return { ...key, mark: grade.mark, note: grade.note, ...(grader.stamp ?? {}) };
    }),
  );
  await grader.finish?.(result.rows);
  await runWriter(dir).marks(grader.marksFile, result.rows);
  return result;
}
