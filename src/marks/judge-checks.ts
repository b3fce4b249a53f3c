import { inputDir, type FilesContext } from '../project/project-context.js';
import { applyRolloutChecks } from './rollout-checks.js';
import { resolve } from 'node:path';
import { shownPath, showingPathsFrom } from '../util/shown-path.js';
import { TurnkitError } from '../errors.js';
import type { Checks } from '../question/checks-format.js';
import type { Manifest } from '../run-dir/manifest.js';
import { loadQuestion } from '../question/load-question.js';
import { formatMarks, type MarkRow } from '../run-dir/marks-file.js';
import { writeRunFile } from '../run-dir/run-layout.js';
import { planReps } from '../run-dir/rep-order.js';
import { readRunState, repId } from '../run-dir/run-state.js';
import { applyChecks } from '../pipeline/run-checks.js';
import { hasScreens, repScreens, type ScreenChecks } from '../pipeline/rep-screens.js';
import { runHiddenValues } from './run-hidden-values.js';

/** The marks file `judge --checks` writes; marks.csv, the human's, is never touched. */
export const CHECKS_MARKS_FILE = 'marks.checks.csv';

/** Options of `turnkit judge RUN_DIR --checks`. */
export interface JudgeChecksOptions {
  dir: string;
  /** Take the checks from this question file instead of the ones the run recorded when it started. */
  question?: string | undefined;
}

/** What `judge --checks` wrote. */
export interface JudgeChecksResult {
  file: string;
  pass: number;
  fail: number;
  error: number;
  /** Reps the run has no record of (an interrupted run): left blank. */
  notRun: number;
}

/**
 * Marks every rep of a run with the question's deterministic checks, a reason per rep, in marks.checks.csv.
 * @example
 * const { pass, fail } = await judgeChecks(project, { dir: result.dir });
 */
export async function judgeChecks(project: FilesContext, options: JudgeChecksOptions): Promise<JudgeChecksResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const cwd = inputDir(project);
    const dir = resolve(cwd, options.dir);
    const state = await readRunState(dir);
    const { checks, screens } = await checksFor(options, state.manifest, dir, cwd);
    const hidden = screens.hidden ? await runHiddenValues(dir, state.manifest, cwd, screens.hidden) : undefined;
    const names = state.manifest.fixtures.map((fixture) => fixture.name);
    const result: JudgeChecksResult = { file: resolve(dir, CHECKS_MARKS_FILE), pass: 0, fail: 0, error: 0, notRun: 0 };
    const rows: MarkRow[] = planReps(names, state.manifest.question.reps, state.manifest.shard).map((key) => {
      const record = state.records.get(repId(key));
      if (!record) {
        result.notRun++;
        return { ...key, mark: '', note: 'not run' };
      }
      // A rollout is judged turn by turn and as a transcript (the run's transcriptChecks).
      const values = hidden?.get(record.fixture);
      const verdict =
        record.turns || (!checks && !hasScreens(screens))
          ? applyRolloutChecks(checks, state.manifest.rollout?.transcriptChecks, record, { screens, hidden: values })
          : applyChecks(checks, record, repScreens(screens, record, values));
      result[verdict.mark]++;
      return { ...key, mark: verdict.mark, note: verdict.reason };
    });
    await writeRunFile(dir, CHECKS_MARKS_FILE, formatMarks(rows));
    return result;
  });
}

async function checksFor(
  options: JudgeChecksOptions,
  manifest: Manifest,
  dir: string,
  cwd: string,
): Promise<{ checks: Checks | undefined; screens: ScreenChecks }> {
  const recorded = manifest.checks;
  const screens = { tools: manifest.tools, hidden: manifest.hidden };
  if (options.question !== undefined) {
    const question = await loadQuestion(resolve(cwd, options.question));
    if (question.question.id !== manifest.question.id) {
      throw new TurnkitError(
        'BAD_INPUT',
        `${question.shown}: question "${question.question.id}", but ${shownPath(dir)} is a run of "${manifest.question.id}"`,
      );
    }
    const given = { tools: question.question.tools, hidden: question.question.hidden };
    if (!question.question.checks && !manifest.rollout?.transcriptChecks && !hasScreens(given))
      throw new TurnkitError('BAD_INPUT', `${question.shown}: declares no checks (add a checks: section)`);
    return { checks: question.question.checks, screens: given };
  }
  // A rollout may be checked by its transcript alone; any run by its tool rules or hidden rows alone.
  if (!recorded && (manifest.rollout?.transcriptChecks || hasScreens(screens))) return { checks: undefined, screens };
  if (!recorded) {
    throw new TurnkitError(
      'BAD_INPUT',
      `${shownPath(resolve(dir, 'manifest.json'))}: the run's question declared no checks; add a checks: section to the question and pass --question FILE`,
    );
  }
  return { checks: recorded, screens };
}
