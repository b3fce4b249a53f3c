import { Option, type Command } from 'commander';
import { TurnkitError } from '../../errors.js';
import { printJson, type Output } from '../output.js';

/** Options of the report command as commander gives them. */
interface ReportFlags {
  marks?: string;
  compare?: string;
  compareMarks?: string;
  md?: boolean;
  json?: boolean;
  check?: boolean;
  html?: string | true;
}

/** `--html [FILE]`: the page is written whatever the run's state; the exit code is then decided as for the text. */
async function htmlReport(dir: string, options: ReportFlags, output: Output): Promise<void> {
  if (options.json || options.md)
    throw new TurnkitError('USAGE', `--html writes a page; use it without ${options.json ? '--json' : '--md'}`);
  const { writeHtmlReport } = await import('../../view/write-html-report.js');
  const { outcomeError } = await import('../../marks/outcome.js');
  const { shownPath } = await import('../../util/shown-path.js');
  const file = options.html === true ? undefined : options.html;
  const result = await writeHtmlReport({
    dir,
    file,
    marks: options.marks,
    compare: options.compare,
    compareMarks: options.compareMarks,
  });
  output.out(shownPath(result.file));
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
      'the marks file to read (default marks.csv; a bare name is looked up in the run directory)',
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
    .action(async (dir: string, options) => {
      if (options.html !== undefined) return htmlReport(dir, options, output);
      const { formatReport } = await import('../../marks/format-report.js');
      const { report } = await import('../../marks/report-command.js');
      const { outcomeError } = await import('../../marks/outcome.js');
      const result = await report({
        dir,
        marks: options.marks,
        compare: options.compare,
        compareMarks: options.compareMarks,
      });
      if (options.json) printJson(output, result);
      else
        for (const line of formatReport(result.report, options.md ? 'md' : 'text', result.comparison)) output.out(line);
      // The numbers are printed either way; an incomplete run or a missed target then decides the exit code.
      const failure = outcomeError({ report: result.report, check: options.check });
      if (failure) throw failure;
    });
}
