import { inputDir, type FilesContext } from '../project/project-context.js';
import { applyRolloutScreens, skipped } from './rollout-checks.js';
import { join, resolve } from 'node:path';
import { shownPath, showingPathsFrom } from '../util/shown-path.js';
import { TurnkitError } from '../errors.js';
import type { Checks } from '../question/checks-format.js';
import type { Manifest } from '../run-dir/manifest.js';
import { readRun, type Run } from '../run-dir/read-run.js';
import { runWriter } from '../run-dir/run-writer.js';
import { repId } from '../run-dir/run-state.js';
import { CHECKS_SCREENS_FILE, formatScreens, type ScreenEntry, type ScreenRow } from '../run-dir/screens-file.js';
import { applyScreens } from '../checks/run-checks.js';
import { questionScreens } from '../checks/question-screens.js';
import { screenApplies } from '../question/check-screens.js';
import { gradeRun, questionOfRun, type Grader } from './grader.js';
import { hasScreens, repScreens, type ScreenChecks } from '../checks/rep-screens.js';
import type { HiddenValues } from '../checks/hidden-checks.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import type { ScreenResult } from '../question/screen-result.js';
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
  /** Each rep's result per screen (screens.checks.jsonl). */
  screensFile: string;
  pass: number;
  fail: number;
  /** Reps no screen applies to. */
  na: number;
  error: number;
  /** Reps the run has no record of (an interrupted run): left blank. */
  notRun: number;
}

/**
 * Marks every rep of a run with the question's deterministic checks, a reason per rep, in marks.checks.csv, and
 * each screen's result per rep (pass, fail, unscored, or error for an errored rep) in screens.checks.jsonl.
 * @example
 * const { pass, fail } = await judgeChecks(project, { dir: result.dir });
 */
export async function judgeChecks(project: FilesContext, options: JudgeChecksOptions): Promise<JudgeChecksResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const cwd = inputDir(project);
    const dir = resolve(cwd, options.dir);
    const run = await readRun(dir);
    const { checks, screens } = await checksFor(options, run, cwd);
    const hidden = screens.hidden ? await runHiddenValues(dir, run.manifest, cwd, screens.hidden) : undefined;
    const {
      file,
      rows: _rows,
      ...marks
    } = await gradeRun(run, checksGrader(dir, run.manifest, checks, screens, hidden));
    return { file, screensFile: join(dir, CHECKS_SCREENS_FILE), ...marks };
  });
}

/**
 * The deterministic checks as a grader: each rep's screens, combined into its mark (any fail fails, else a pass
 * passes, else `na`); `finish` writes every rep's screens to screens.checks.jsonl before the marks file.
 */
export function checksGrader(
  dir: string,
  manifest: Manifest,
  checks: Checks | undefined,
  others: ScreenChecks = {},
  hidden?: ReadonlyMap<string, readonly HiddenValues[]>,
): Grader {
  const { checks: screens, transcript } = questionScreens(checks, manifest.rollout?.transcriptChecks);
  // The tool rules' and hidden rows' names, in order, for the screens an errored rep would have had.
  const otherNames = repScreens(others, { response: '', toolCalls: [], effects: null }).map((result) => result.screen);
  const skips = new Map(manifest.fixtures.map((fixture) => [fixture.name, fixture.skip ?? []]));
  const rows = new Map<string, ScreenRow>();
  return {
    marksFile: CHECKS_MARKS_FILE,
    async grade(key, record) {
      const skip = skips.get(key.fixture) ?? [];
      const values = hidden?.get(key.fixture);
      const extra = (seen: RepRecord): ScreenResult[] => skipped(repScreens(others, seen, values), skip);
      // A rollout is judged turn by turn and as a transcript (the run's transcriptChecks).
      const verdict =
        record.turns || transcript.length > 0
          ? applyRolloutScreens(screens, transcript, record, skip, extra)
          : applyScreens(screens, record, skip, record.error ? [] : extra(record));
      const entries: ScreenEntry[] =
        verdict.mark === 'error'
          ? [
              ...otherNames.filter((name) => !skip.includes(name)),
              ...[...screens, ...transcript]
                .filter((screen) => screenApplies(screen, key.fixture, skip))
                .map((screen) => screen.name),
            ].map((screen) => ({ screen, mark: 'error' as const, reason: verdict.reason }))
          : verdict.screens;
      rows.set(repId(key), { ...key, mark: verdict.mark, screens: entries });
      return { mark: verdict.mark, note: verdict.reason };
    },
    async finish(marked) {
      const lines = marked.flatMap((row) => rows.get(repId(row)) ?? []);
      await runWriter(dir).file(CHECKS_SCREENS_FILE, formatScreens(lines));
    },
  };
}

async function checksFor(
  options: JudgeChecksOptions,
  run: Run,
  cwd: string,
): Promise<{ checks: Checks | undefined; screens: ScreenChecks }> {
  const { manifest, dir } = run;
  const recorded = manifest.checks;
  const screens = { tools: manifest.tools, hidden: manifest.hidden };
  if (options.question !== undefined) {
    const question = await questionOfRun(options.question, cwd, run);
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
