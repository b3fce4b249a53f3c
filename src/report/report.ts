import { inputDir, type FilesContext } from '../project/project-context.js';
import { resolve } from 'node:path';
import { shownPath, showingPathsFrom } from '../util/shown-path.js';
import { TurnkitError } from '../errors.js';
import { buildReport, type Report } from './build-report.js';
import { compareReports, type Comparison } from './compare-runs.js';
import type { Run } from '../run-dir/read-run.js';

/** Options of `turnkit report`. */
export interface ReportCommandOptions {
  /** The run directory. */
  dir: string;
  /** A marks file (default: the run's marks.csv); a bare name is looked up in the run directory. */
  marks?: string | undefined;
  /** Another run of the same question to compare with: its marks file of the same name as `marks` when that is a
   * bare name, else its marks.csv, or `compareMarks`. */
  compare?: string | undefined;
  compareMarks?: string | undefined;
  /** A committed calibration file to correct the judge's rates with (refused when its judge differs). */
  calibration?: string | undefined;
  /** Write this run's calibration of the judge (against its marks.csv) to this file, for later runs to reuse. */
  saveCalibration?: string | undefined;
  /** This run, when the caller has opened it already (its files are then read once for both). */
  run?: Run | undefined;
}

/** A report and, when asked for, its comparison with another run. */
export interface ReportResult {
  report: Report;
  comparison?: Comparison | undefined;
}

/**
 * Reads a run (and another to compare with) into a report.
 * @example
 * const { report: numbers } = await report(project, { dir: result.dir });
 */
export async function report(project: FilesContext, options: ReportCommandOptions): Promise<ReportResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const cwd = inputDir(project);
    const here = await buildReport(resolve(cwd, options.dir), {
      marks: options.marks,
      cwd,
      run: options.run,
      calibration: options.calibration === undefined ? undefined : resolve(cwd, options.calibration),
    });
    if (options.saveCalibration !== undefined) await saveCalibration(here, resolve(cwd, options.saveCalibration));
    if (options.compare === undefined) return { report: here };
    // Like is compared with like: `--marks marks.checks.csv` reads the other run's marks.checks.csv too.
    const bareName = options.marks !== undefined && !/[\\/]/.test(options.marks) ? options.marks : undefined;
    const there = await buildReport(resolve(cwd, options.compare), { marks: options.compareMarks ?? bareName, cwd });
    return { report: here, comparison: compareReports(here, there) };
  });
}

/** Writes the report's judge calibration as a calibration file; an error when the report has none to write. */
async function saveCalibration(report: Report, file: string): Promise<void> {
  const correction = report.trust.correction;
  if (correction?.source !== 'this run')
    throw new TurnkitError(
      'BAD_INPUT',
      `${shownPath(report.dir)}: no calibration to save: read a judge's marks (--marks marks.judge-MODEL.csv) of a run whose marks.csv marks some of the same reps pass or fail`,
    );
  const { writeCalibrationFile } = await import('./calibration-file.js');
  await writeCalibrationFile(file, {
    question: report.question.id,
    judge: correction.judge,
    counts: correction.calibration.counts,
    runs: [shownPath(report.dir)],
  });
}
