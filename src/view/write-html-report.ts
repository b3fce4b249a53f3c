import { resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { describeWriteError, shownPath } from '../util/shown-path.js';
import { buildRunView, type RunViewOptions } from './build-run-view.js';
import { renderPage } from './html-page.js';
import type { RunView } from './view-data.js';

/** Options of `turnkit report RUN_DIR --html [FILE]`. */
export interface HtmlReportOptions extends RunViewOptions {
  /** Where the page goes (default: report.html in the run directory). */
  file?: string | undefined;
}

/** The page written, and the run it shows (whose report decides the exit code, as for the text report). */
export interface HtmlReportResult {
  file: string;
  bytes: number;
  run: RunView;
}

/**
 * Writes a run's report as one self-contained HTML file (no network: its script, style and data inline), atomically:
 * a reader sees the earlier file or the whole new one, and a failed write leaves the earlier one in place.
 */
export async function writeHtmlReport(options: HtmlReportOptions): Promise<HtmlReportResult> {
  const cwd = options.cwd;
  const run = await buildRunView({ ...options, cwd });
  const file = resolve(cwd, options.file ?? resolve(cwd, options.dir, 'report.html'));
  const html = renderPage({ mode: 'static', runs: [run] }, `${run.report.question.id}: report of ${run.dir}`);
  try {
    await writeFileAtomic(file, html, { mode: 0o600 });
  } catch (error) {
    throw new TurnkitError(
      'BAD_INPUT',
      `${shownPath(file)}: cannot write the HTML report: ${describeWriteError(error as NodeJS.ErrnoException)}`,
    );
  }
  return { file, bytes: Buffer.byteLength(html), run };
}
