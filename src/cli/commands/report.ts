import { Option, type Command } from 'commander';
import { TurnkitError } from '../../errors.js';
import type { Output } from '../output.js';
import { examples } from '../help-examples.js';
import { recordRunLook } from '../heldout-use.js';
import type { ReportFormatName, ReportJob } from '../../app/report-formats.js';
import type { ReportResult } from '../../report/report.js';

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
  full?: boolean;
}

/** The format the flags ask for: --html, else --format, else --json or --md, else text. */
function formatOf(options: ReportFlags): ReportFormatName {
  if (options.html !== undefined) {
    if (options.json || options.md || options.format)
      throw new TurnkitError(
        'USAGE',
        `--html writes a page; use it without ${options.json ? '--json' : options.md ? '--md' : '--format'}`,
      );
    return 'html';
  }
  return options.format ?? (options.json ? 'json' : options.md ? 'md' : 'text');
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
    .option(
      '--full',
      'print every section (marks by source, screens, what the target demands, consistency, cost, the question as a whole, agreement); without it the report fits a screen',
    )
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
    .action(async (dir: string, options: ReportFlags) => {
      const format = formatOf(options);
      const { REPORT_FORMATS, resultOf } = await import('../../app/report-formats.js');
      const { filesContext } = await import('../../app/files-context.js');
      const { outcomeError } = await import('../../report/outcome.js');
      // Recorded before the numbers are read: a look that then fails its --check was still a look.
      const looks = await recordRunLook('report', [dir]);
      const job: ReportJob = {
        project: filesContext(),
        options: {
          dir,
          marks: options.marks,
          compare: options.compare,
          compareMarks: options.compareMarks,
          calibration: options.calibration,
          // The page reads its own report; saving a calibration goes with the printed ones.
          ...(format === 'html' ? {} : { saveCalibration: options.saveCalibration }),
        },
        file: options.html === true ? undefined : options.html,
        looks,
        full: options.full,
        // GitHub's step summary file, read here at the edge.
        stepSummary: process.env.GITHUB_STEP_SUMMARY,
      };
      // `--junit FILE` is written beside whatever the command prints (CI reads the file, a person the log): before
      // the printed report, after the page (which reads its own).
      const junit = async (result: ReportResult): Promise<void> => {
        if (options.junit !== undefined)
          await REPORT_FORMATS.junit.emit({ ...job, file: options.junit, result }, output);
      };
      const printed = format === 'html' ? undefined : await resultOf(job);
      if (printed) await junit(printed);
      const report = await REPORT_FORMATS[format].emit({ ...job, result: printed }, output);
      if (!printed) await junit({ report });
      // The numbers are printed either way; an incomplete run or a missed target then decides the exit code.
      const failure = outcomeError({ report, check: options.check });
      if (failure) throw failure;
    });
}
