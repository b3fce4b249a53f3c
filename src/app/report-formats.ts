import { resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import type { FilesContext } from '../project/project-context.js';
import { inputDir } from '../project/project-context.js';
import { formatHeldoutLooks, type HeldoutLooks } from '../report/heldout-ledger.js';
import { report, type ReportCommandOptions, type ReportResult } from '../report/report.js';
import type { Report } from '../report/build-report.js';
import { shownPath } from '../util/shown-path.js';

/** A report format's name: `--format`'s choices, and the page and the CI file. */
export type ReportFormatName = 'text' | 'md' | 'json' | 'github' | 'html' | 'junit';

/** Where a report format prints: stdout's lines and stderr's, as the command line gives them. */
interface ReportSink {
  out(line: string): void;
  err(line: string): void;
}

/** What a format is asked to make: the run's report as `turnkit report` reads it, and where a file format writes. */
export interface ReportJob {
  project: FilesContext;
  options: ReportCommandOptions;
  /** The file a file format writes (`--html FILE`, `--junit FILE`); the format's default when absent. */
  file?: string | undefined;
  /** The held-out fixtures' looks recorded for this report (printed where the format has room for them). */
  looks?: HeldoutLooks | undefined;
  /** GitHub's step summary file, when the job has one (the command line reads GITHUB_STEP_SUMMARY). */
  stepSummary?: string | undefined;
  /** The report, when an earlier format of the same command read it already (`--junit` beside the text). */
  result?: ReportResult | undefined;
  /** Text and Markdown: every section, not the screen-sized report (`--full`). */
  full?: boolean | undefined;
}

/**
 * One report format: it reads the report (or takes the one read already), prints or writes it, and gives the report
 * back, for the exit code that `--check` and an incomplete run decide.
 */
export interface ReportFormat {
  /** What `--format`'s help says of it. */
  description: string;
  emit(job: ReportJob, sink: ReportSink): Promise<Report>;
}

/** The report of a job: the one read already, else read now. */
export async function resultOf(job: ReportJob): Promise<ReportResult> {
  return job.result ?? report(job.project, job.options);
}

/** Text or Markdown lines, then the held-out looks. */
function linesFormat(style: 'text' | 'md', description: string): ReportFormat {
  return {
    description,
    async emit(job, sink) {
      const result = await resultOf(job);
      const { formatReport } = await import('../report/format-report.js');
      for (const line of formatReport(result.report, style, result.comparison, { full: job.full })) sink.out(line);
      if (job.looks) sink.out(formatHeldoutLooks(job.looks));
      return result.report;
    },
  };
}

/**
 * Every report format of `turnkit report`, by name, as vitest's reporters are: the command line looks the format up
 * here, and a new format is one entry.
 */
export const REPORT_FORMATS: Record<ReportFormatName, ReportFormat> = {
  text: linesFormat('text', 'plain text tables for a terminal'),
  md: linesFormat('md', 'Markdown, for a pull request or a notebook'),
  json: {
    description: 'the report as JSON',
    async emit(job, sink) {
      const result = await resultOf(job);
      // The looks go inside the JSON: stdout stays one document.
      sink.out(JSON.stringify(job.looks ? { ...result, heldoutLooks: job.looks } : result, null, 2));
      return result.report;
    },
  },
  github: {
    description: 'GitHub workflow commands, and the Markdown report appended to the step summary',
    async emit(job, sink) {
      const result = await resultOf(job);
      const { appendStepSummary, githubReportLines } = await import('../report/github-annotations.js');
      for (const line of await githubReportLines(result.report)) sink.out(line);
      // The summary is what a reviewer of the job reads: the held-out set's looks belong under its numbers.
      if (job.stepSummary)
        await appendStepSummary(
          job.stepSummary,
          result.report,
          result.comparison,
          job.looks ? [formatHeldoutLooks(job.looks)] : [],
        );
      // On stderr, where stdout is the workflow's commands.
      if (job.looks) sink.err(formatHeldoutLooks(job.looks));
      return result.report;
    },
  },
  html: {
    description: 'one self-contained HTML page (default: report.html in the run directory); its path printed',
    async emit(job, sink) {
      const { writeHtmlReport } = await import('../view/write-html-report.js');
      const { options } = job;
      const written = await writeHtmlReport({
        cwd: inputDir(job.project),
        dir: options.dir,
        heldoutLooks: job.looks,
        file: job.file,
        marks: options.marks,
        compare: options.compare,
        compareMarks: options.compareMarks,
        calibration: options.calibration,
      });
      sink.out(shownPath(written.file));
      if (job.looks) sink.err(formatHeldoutLooks(job.looks));
      return written.run.report;
    },
  },
  junit: {
    description: 'JUnit XML written to a file (a test case per fixture, failed when missed)',
    async emit(job) {
      if (job.file === undefined) throw new TurnkitError('USAGE', 'the JUnit report is a file: name it (--junit FILE)');
      const result = await resultOf(job);
      const { writeJunitReport } = await import('../report/junit-report.js');
      await writeJunitReport(result.report, resolve(inputDir(job.project), job.file));
      return result.report;
    },
  },
};
