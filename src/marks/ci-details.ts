import { readManifest, repId } from '../run-dir/run-state.js';
import { readMarksFile, scopeOfRun } from '../run-dir/read-marks.js';
import { planReps } from '../run-dir/rep-order.js';
import type { Report } from './build-report.js';

/** A failing rep as a CI system shows it: its number and the grader's note. */
export interface FailedRep {
  rep: number;
  note: string;
}

/** What CI output says of a fixture beyond the report's numbers: its file and the notes of its failing reps. */
export interface CiFixtureDetail {
  /** The fixture file as the manifest records it (relative to the project). */
  file: string;
  failed: FailedRep[];
}

/** Reads, for every fixture of a report, its file and its failing reps' notes (from the report's marks file). */
export async function ciFixtureDetails(report: Report): Promise<Map<string, CiFixtureDetail>> {
  const manifest = await readManifest(report.dir);
  const marks = await readMarksFile(report.marksFile, scopeOfRun(manifest));
  const keys = planReps(
    manifest.fixtures.map((fixture) => fixture.name),
    manifest.question.reps,
    manifest.shard,
  );
  const details = new Map<string, CiFixtureDetail>();
  for (const entry of manifest.fixtures) details.set(entry.name, { file: entry.file.path, failed: [] });
  for (const key of keys) {
    const mark = marks.get(repId(key));
    if (mark?.mark === 'fail') details.get(key.fixture)?.failed.push({ rep: key.rep, note: mark.note });
  }
  return details;
}
