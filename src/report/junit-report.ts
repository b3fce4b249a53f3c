import { create } from 'xmlbuilder2';
import { TurnkitError } from '../errors.js';
import { passesNeeded } from '../stats/stats.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { describeWriteError, shownPath } from '../util/shown-path.js';
import type { FixtureReport, Report } from './build-report.js';
import { ciFixtureDetails, failedNote, type CiFixtureDetail } from './ci-details.js';
import { policyWords } from './report-text.js';
import { correctedSummary, estimateLine } from './format-trust.js';
import { span } from './report-text.js';
import type { ErrorsPolicy } from './screen-report.js';

/** An element being built. */
type XMLBuilder = ReturnType<typeof create>;

/** Writes a report as JUnit XML to `file` (an absolute path), atomically; returns the bytes written. */
export async function writeJunitReport(report: Report, file: string): Promise<number> {
  const xml = junitXml(report, await ciFixtureDetails(report));
  try {
    await writeFileAtomic(file, xml);
  } catch (error) {
    throw new TurnkitError(
      'BAD_INPUT',
      `${shownPath(file)}: cannot write the JUnit report: ${describeWriteError(error as NodeJS.ErrnoException)}`,
    );
  }
  return Buffer.byteLength(xml);
}

/**
 * The report as JUnit XML, the format every CI system reads: one test suite per tag (tags are never pooled), one
 * test case per fixture, failed when the fixture missed its target, skipped while reps are unmarked. The failure
 * message carries the counts, rate and interval; its body the failing reps' notes. Notes are untrusted text: the
 * XML builder escapes them, and characters XML 1.0 cannot hold are dropped.
 */
export function junitXml(report: Report, details: ReadonlyMap<string, CiFixtureDetail>): string {
  const count = (verdict: FixtureReport['verdict']): number =>
    report.fixtures.filter((fixture) => fixture.verdict === verdict).length;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', {
    name: cleanAttribute(report.question.id),
    tests: String(report.fixtures.length),
    failures: String(count('missed')),
    errors: String(count('none')),
    skipped: String(count('pending')),
  });
  for (const totals of report.tags) {
    const members = report.fixtures.filter((fixture) => (fixture.tag ?? 'untagged') === totals.tag);
    const suite = root.ele('testsuite', {
      name: cleanAttribute(`${report.question.id} (${totals.tag})`),
      tests: String(members.length),
      failures: String(totals.missed),
      errors: String(members.filter((fixture) => fixture.verdict === 'none').length),
      skipped: String(totals.pending),
    });
    const properties = suite.ele('properties');
    const property = (name: string, value: string): void => {
      properties.ele('property', { name, value: cleanAttribute(value) });
    };
    property('question', report.question.text);
    property('target', String(report.target));
    property('reps', String(report.reps));
    property('rubricVersion', report.rubricVersion);
    property('marksFile', report.marksFile);
    // The judge's rate corrected by its calibration: the verdict a person can decide from (additive properties).
    const summary = report.trust ? correctedSummary(report.trust, report.target) : undefined;
    if (summary) property('correctedVerdict', summary);
    const tagEstimate = report.trust?.correction?.estimates.find((e) => e.scope === 'tag' && e.name === totals.tag);
    if (tagEstimate) property('correctedTag', estimateLine(tagEstimate, report.target));
    for (const fixture of members) testCase(suite, report, fixture, details.get(fixture.fixture));
  }
  return root.end({ prettyPrint: true });
}

function testCase(
  suite: XMLBuilder,
  report: Report,
  fixture: FixtureReport,
  detail: CiFixtureDetail | undefined,
): void {
  const element = suite.ele('testcase', {
    name: cleanAttribute(fixture.fixture),
    classname: cleanAttribute(`turnkit.${report.question.id}.${fixture.tag ?? 'untagged'}`),
    ...(detail ? { file: cleanAttribute(detail.file) } : {}),
  });
  const summary = countsLine(fixture, report.target, report.errors);
  if (fixture.verdict === 'missed') {
    const notes = (detail?.failed ?? []).map(failedNote);
    element
      .ele('failure', { type: 'missed', message: cleanAttribute(`missed: ${summary}`) })
      .txt(clean(notes.join('\n')));
  } else if (fixture.verdict === 'pending') {
    element.ele('skipped', { message: cleanAttribute(`pending: ${fixture.blank} rep(s) not marked; ${summary}`) });
  } else if (fixture.verdict === 'none') {
    // Nothing to compare with the target: an error of the run (every rep errored), not a pass or a failure.
    element.ele('error', {
      type: 'no-verdict',
      message: cleanAttribute(`no verdict: no rep qualified (${fixture.na} na, ${fixture.error} error)`),
    });
  }
  const corrected = report.trust?.correction?.estimates.find(
    (entry) => entry.scope === 'fixture' && entry.name === fixture.fixture,
  );
  const correctedText = corrected ? `\ncorrected ${estimateLine(corrected, report.target)}` : '';
  element
    .ele('system-out')
    .txt(clean(`${fixture.verdict}${fixture.uncertain ? ' (uncertain)' : ''}: ${summary}${correctedText}`));
}

/** Counts, rate, interval and what the target demands, on one line. */
export function countsLine(fixture: FixtureReport, target: number, errors?: ErrorsPolicy): string {
  const qualified = fixture.n ?? fixture.pass + fixture.fail;
  // The policy is said beside the rate: it decides the denominator.
  const rate =
    fixture.rate === null
      ? 'no rate'
      : `rate ${fixture.rate.toFixed(2)} (${fixture.pass}/${qualified}, ${policyWords(errors)})`;
  const interval = fixture.wilson ? `, 95% interval ${span(fixture.wilson)}` : '';
  const needed = qualified > 0 ? `, ${passesNeeded(target, qualified)} passes needed` : '';
  return `${fixture.pass} pass, ${fixture.fail} fail, ${fixture.na} na, ${fixture.error} error, ${fixture.blank} blank; ${rate}${interval}${needed} for target ${target}`;
}

// XML 1.0 has no way to write most control characters or lone surrogates, escaped or not.
const UNWRITABLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// xmlbuilder2 leaves what looks like an entity (`&foo;`, `&#10;`) unescaped, so that untrusted text could name an
// undefined entity: every & is escaped here first, and a carriage return as a character reference (a parser would
// turn a bare one into a line feed). Its own escaping then does the rest and leaves these references alone.
function clean(text: string): string {
  return text.replace(UNWRITABLE, '').replace(/&/g, '&amp;').replace(/\r/g, '&#13;');
}

// In an attribute a parser turns line feeds and tabs into spaces unless they are references.
function cleanAttribute(text: string): string {
  return clean(text).replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}
