import { appendFile } from 'node:fs/promises';
import { TurnkitError } from '../errors.js';
import { describeWriteError, shownPath } from '../util/shown-path.js';
import type { FixtureReport, Report } from './build-report.js';
import { ciFixtureDetails, failedNote, type CiFixtureDetail } from './ci-details.js';
import type { Comparison } from './compare-runs.js';
import { formatReport } from './format-report.js';
import { countsLine } from './junit-report.js';

/** How many failing reps' notes an annotation quotes (the rest are counted). */
const NOTES_SHOWN = 3;

/**
 * A workflow command's message, escaped as the runner unescapes it: `%`, CR and LF. Notes are untrusted text, and
 * an unescaped line feed in one would start a workflow command of its own (`::add-mask::`, `::error::`).
 */
export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: the message's escapes and also `:` and `,`, which end a property. */
export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The report as GitHub Actions workflow commands: an `::error` naming the fixture file for each missed fixture (its
 * counts and the first failing reps' notes), a `::warning` for each uncertain verdict (the interval holds the target),
 * then a one-line summary.
 */
export function githubAnnotations(report: Report, details: ReadonlyMap<string, CiFixtureDetail>): string[] {
  const lines: string[] = [];
  for (const fixture of report.fixtures) {
    const detail = details.get(fixture.fixture);
    const file = detail ? `file=${escapeCommandProperty(detail.file)},` : '';
    if (fixture.verdict === 'missed') {
      const title = escapeCommandProperty(`${report.question.id}: ${fixture.fixture} missed the target`);
      lines.push(`::error ${file}title=${title}::${escapeCommandData(missedMessage(fixture, report, detail))}`);
    }
    if (fixture.verdict === 'none') {
      const title = escapeCommandProperty(`${report.question.id}: ${fixture.fixture} has no verdict`);
      const message = `no rep qualified for a rate (${fixture.na} na, ${fixture.error} error): nothing to compare with the target ${report.target}`;
      lines.push(`::error ${file}title=${title}::${escapeCommandData(message)}`);
    }
    if (fixture.uncertain) {
      const title = escapeCommandProperty(`${report.question.id}: ${fixture.fixture} ${fixture.verdict}, uncertain`);
      const message = `${fixture.verdict}, but the 95% interval holds the target ${report.target}: more reps would tell. ${countsLine(fixture, report.target, report.errors)}`;
      lines.push(`::warning ${file}title=${title}::${escapeCommandData(message)}`);
    }
  }
  const count = (verdict: FixtureReport['verdict']): number =>
    report.fixtures.filter((fixture) => fixture.verdict === verdict).length;
  lines.push(
    `${report.question.id}: ${count('met')} met, ${count('missed')} missed, ${count('pending')} pending${count('none') > 0 ? `, ${count('none')} no verdict` : ''} of ${report.fixtures.length} fixture(s); target ${report.target}`,
  );
  return lines;
}

/** `githubAnnotations` with the failing reps' notes read from the report's run directory (what `--format github` prints). */
export async function githubReportLines(report: Report): Promise<string[]> {
  return githubAnnotations(report, await ciFixtureDetails(report));
}

function missedMessage(fixture: FixtureReport, report: Report, detail: CiFixtureDetail | undefined): string {
  const failed = detail?.failed ?? [];
  const notes = failed.slice(0, NOTES_SHOWN).map(failedNote);
  if (failed.length > NOTES_SHOWN) notes.push(`and ${failed.length - NOTES_SHOWN} more failing rep(s)`);
  return [countsLine(fixture, report.target, report.errors), ...notes].join('\n');
}

/**
 * Appends the Markdown report, then each of `notes` (the held-out set's looks) as a paragraph, to a job's step
 * summary file (the file GitHub names in GITHUB_STEP_SUMMARY, which steps append to: not replaced).
 */
export async function appendStepSummary(
  path: string,
  report: Report,
  comparison?: Comparison,
  notes: readonly string[] = [],
): Promise<void> {
  // The step summary is read on a page, not a screen: every section.
  const markdown = `${[...formatReport(report, 'md', comparison, { full: true }), ...notes.flatMap((note) => ['', note])].join('\n')}\n\n`;
  try {
    await appendFile(path, markdown);
  } catch (error) {
    throw new TurnkitError(
      'BAD_INPUT',
      `${shownPath(path)} (GITHUB_STEP_SUMMARY): cannot append the step summary: ${describeWriteError(error as NodeJS.ErrnoException)}`,
    );
  }
}
