import { TurnkitError } from '../errors.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { describeWriteError, shownPath } from '../util/shown-path.js';
import type { Report } from './build-report.js';
import { ciFixtureDetails } from './ci-details.js';
import { junitXml } from './junit-report.js';

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
