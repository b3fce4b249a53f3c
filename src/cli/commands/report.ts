import { Option, type Command } from 'commander';
import { TurnkitError } from '../../errors.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';
import { recordRunLook } from '../heldout-use.js';
import { formatHeldoutLooks, type HeldoutLooks } from '../../marks/heldout-ledger.js';
import type { Report } from '../../marks/build-report.js';
import type { ReportResult } from '../../marks/report.js';

/** Options of the report command as commander gives them. */
interface ReportFlags {
  marks?: string;
  compare?: string;
  compareMarks?: string;
  md?: boolean;
  json?: boolean;
  check?: boolean;
  html?: string | true;
  junit?: string;
  calibration?: string;
  saveCalibration?: string;
  format?: 'text' | 'md' | 'json' | 'github';
}

/**
 * `--format github`: workflow commands on stdout and, when the job has a step summary file (GITHUB_STEP_SUMMARY, read
 * here at the edge), the Markdown report appended to it.
 */
async function githubReport(result: ReportResult, output: Output, looks: HeldoutLooks | undefined): Promise<void> {
  const { appendStepSummary, githubReportLines } = await import('../../marks/github-annotations.js');
  for (const line of await githubReportLines(result.report)) output.out(line);
  const summary = process.env.GITHUB_STEP_SUMMARY;
  // The summary is what a reviewer of the job reads: the held-out set's looks belong under its numbers.
  if (summary)
    await appendStepSummary(summary, result.report, result.comparison, looks ? [formatHeldoutLooks(looks)] : []);
}

/** `--junit FILE`: the JUnit XML written beside whatever the command prints (CI reads the file, a person the log). */
async function junitReport(report: Report, file: string): Promise<void> {
  const { writeJunitReport } = await import('../../marks/write-junit-report.js');
  const { resolve } = await import('node:path');
  await writeJunitReport(report, resolve(file));
}

/** `--html [FILE]`: the page is written whatever the run's state; the exit code is then decided as for the text. */
async function htmlReport(dir: string, options: ReportFlags, output: Output): Promise<void> {
  if (options.json || options.md || options.format)
    throw new TurnkitError(
      'USAGE',
      `--html writes a page; use it without ${options.json ? '--json' : options.md ? '--md' : '--format'}`,
    );
  const { writeHtmlReport } = await import('../../view/write-html-report.js');
  const { outcomeError } = await import('../../marks/outcome.js');
  const { shownPath } = await import('../../util/shown-path.js');
  const file = options.html === true ? undefined : options.html;
  const looks = await recordRunLook('report', [dir]);
  const result = await writeHtmlReport({
    cwd: process.cwd(),
    dir,
    heldoutLooks: looks,
    file,
    marks: options.marks,
    compare: options.compare,
    compareMarks: options.compareMarks,
    calibration: options.calibration,
  });
  output.out(shownPath(result.file));
  if (looks) output.err(formatHeldoutLooks(looks));
  if (options.junit !== undefined) await junitReport(result.run.report, options.junit);
  const failure = outcomeError({ report: result.run.report, check: options.check });
  if (failure) throw failure;
}

/** `turnkit report RUN_DIR [--marks FILE] [--compare RUN_DIR] [--md] [--json] [--check] [--html [FILE]]`. */
export function registerReport(program: Command, output: Output): void {
  program
    .command('report')
    .description(
      'per fixture pass, fail, na, error, blank, rate against the target, Wilson interval, latency; per tag totals',
    )
    .argument('<run-dir>', 'a run directory (runs/QUESTION/STAMP)')
    .option(
      '--marks <file>',
      'the marks file to read (default marks.csv; a bare name is looked up in the run directory); a,b: by precedence',
    )
    .option('--compare <run-dir>', 'another run of the same question: per-fixture deltas with Fisher exact p-values')
    .option('--compare-marks <file>', "the other run's marks file (default: the same name as --marks, else marks.csv)")
    .option('--md', 'print Markdown')
    // One format at a time: --md --json printed JSON and quietly dropped the Markdown.
    .addOption(new Option('--json', 'print the report as JSON').conflicts('md'))
    .option('--check', 'exit 1 when a fixture has not met the target (missed, or reps not marked)')
    .option(
      '--html [file]',
      'write one self-contained HTML page (default: report.html in the run directory) and print its path',
    )
    .addOption(
      new Option('--format <format>', 'text, md, json, or github (workflow commands and the step summary)')
        .choices(['text', 'md', 'json', 'github'])
        .conflicts(['md', 'json']),
    )
    .option('--junit <file>', 'also write the report as JUnit XML (a test case per fixture, failed when missed)')
    .option(
      '--calibration <file>',
      "correct the judge's rates with a committed calibration file (refused when its judge, prompt or rubric differ)",
    )
    .option('--save-calibration <file>', "write the judge's calibration against this run's marks.csv to a file")
    .addHelpText(
      'after',
      examples(
        'turnkit report runs/places/STAMP',
        'turnkit report runs/places/STAMP --marks marks.checks.csv --md',
        'turnkit report runs/places/STAMP --html                 # runs/places/STAMP/report.html',
      ),
    )
    .action(async (dir: string, options) => {
      if (options.html !== undefined) return htmlReport(dir, options, output);
      const { formatReport } = await import('../../marks/format-report.js');
      const { report } = await import('../../marks/report.js');
      const { outcomeError } = await import('../../marks/outcome.js');
      // Recorded before the numbers are read: a look that then fails its --check was still a look.
      const looks = await recordRunLook('report', [dir]);
      const { filesContext } = await import('../../app/command-context.js');
      const result = await report(filesContext(), {
        dir,
        marks: options.marks,
        compare: options.compare,
        compareMarks: options.compareMarks,
        calibration: options.calibration,
        saveCalibration: options.saveCalibration,
      });
      if (options.junit !== undefined) await junitReport(result.report, options.junit);
      const format = options.format ?? (options.json ? 'json' : options.md ? 'md' : 'text');
      if (format === 'json') printJson(output, looks ? { ...result, heldoutLooks: looks } : result);
      else if (format === 'github') await githubReport(result, output, looks);
      else for (const line of formatReport(result.report, format, result.comparison)) output.out(line);
      // On stderr under --format github, where stdout is the workflow's commands.
      if (looks && format === 'github') output.err(formatHeldoutLooks(looks));
      else if (looks && format !== 'json') output.out(formatHeldoutLooks(looks));
      // The numbers are printed either way; an incomplete run or a missed target then decides the exit code.
      const failure = outcomeError({ report: result.report, check: options.check });
      if (failure) throw failure;
    });
}
