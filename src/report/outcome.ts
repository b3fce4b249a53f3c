import { TurnkitError } from '../errors.js';
import { runFailure } from '../pipeline/run-outcome.js';
import type { RunResult } from '../pipeline/finish-run.js';
import { shownPath } from '../util/shown-path.js';
import type { Report } from './build-report.js';
import { passesNeeded } from '../stats/stats.js';

/** What finished, to be judged a success or a failure: a run, a report (with `--check` or not), or a judge's work. */
export type Outcome =
  | {
      run: RunResult;
      /** The question file as the user named it (undefined for `run --resume DIR`), for the resume command. */
      question?: string | undefined;
    }
  | { report: Report; check?: boolean | undefined }
  | { judge: { judgeErrors: number; file: string } };

/**
 * The one outcome policy every caller applies (the CLI exits 1 with it): undefined when the work succeeded, else the
 * error that says why not. A run fails when it is incomplete (`INCOMPLETE_RUN`: reps not run, a rep file not
 * written), when reps could not be seeded (`SEED_FAILED`) or when every rep errored (`SUT_FAILED`). A report fails
 * when its run is incomplete, and under `check` when a fixture has not met the target (`TARGET_MISSED`). A judge
 * fails when reps could not be judged (`JUDGE_FAILED`).
 * @example
 * const failure = outcomeError({ report: (await report(project, { dir })).report, check: true });
 * if (failure) throw failure;
 */
export function outcomeError(outcome: Outcome): TurnkitError | undefined {
  if ('run' in outcome) return runFailure(outcome.run, outcome.question);
  if ('judge' in outcome) {
    const { judgeErrors, file } = outcome.judge;
    if (judgeErrors === 0) return undefined;
    // Failing closed goes as far as the exit code: a script must not go on to report as if every rep were judged.
    return new TurnkitError(
      'JUDGE_FAILED',
      `${judgeErrors} rep(s) could not be judged (marked error in ${shownPath(file)}): run the judge again to retry them; verdicts received are cached`,
    );
  }
  const { report } = outcome;
  // The numbers are printed either way; an incomplete run or a missed target then decides the exit code.
  const incomplete = incompleteRun(report);
  if (incomplete) return incomplete;
  if (!outcome.check) return undefined;
  const problems = targetProblems(report);
  if (problems.length === 0) return undefined;
  const summary = `--check: ${problems.length} of ${report.fixtures.length} fixture(s) did not meet the target`;
  return new TurnkitError('TARGET_MISSED', `${summary}: ${problems[0]}`, [summary, ...problems]);
}

/** Why a run is not complete, as an error to exit 1 with; undefined when every rep has its record. */
export function incompleteRun(report: Report): TurnkitError | undefined {
  if (report.complete) return undefined;
  const missing = report.fixtures.reduce((sum, fixture) => sum + fixture.notRun, 0);
  const dir = shownPath(report.dir);
  return new TurnkitError(
    'INCOMPLETE_RUN',
    `${dir}: the run is ${report.status} with ${missing} rep(s) not run; finish it with: turnkit run --resume ${dir}`,
  );
}

/** `--check`: every fixture that has not met its target (missed, or pending with reps unmarked), one line each. */
export function targetProblems(report: Report): string[] {
  return report.fixtures.flatMap((fixture) => {
    if (fixture.verdict === 'met') return [];
    // The verdict's own denominator: under `errors: fail` an errored rep is a failed one.
    const n = fixture.n ?? fixture.pass + fixture.fail;
    const reason =
      fixture.verdict === 'pending'
        ? `pending: ${fixture.blank} rep(s) not marked`
        : fixture.verdict === 'none'
          ? `no verdict: no rep qualified (${fixture.na} na, ${fixture.error} error)`
          : `missed: ${fixture.pass}/${n} passed, ${passesNeeded(report.target, n)} needed`;
    return [`${fixture.fixture}${fixture.tag ? ` (${fixture.tag})` : ''}: ${reason} for target ${report.target}`];
  });
}
