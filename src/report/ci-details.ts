import { repId } from '../run-dir/run-state.js';
import { readRun, type Run } from '../run-dir/read-run.js';
import { planReps } from '../run-dir/rep-order.js';
import type { Report } from './build-report.js';

/** A failing rep as a CI system shows it: its number and the grader's note. */
export interface FailedRep {
  rep: number;
  note: string;
}

/** A failing rep's line in CI output: its number and note. */
export function failedNote(failed: FailedRep): string {
  return `rep ${failed.rep}: ${failed.note === '' ? '(no note)' : failed.note}`;
}

/** What CI output says of a fixture beyond the report's numbers: its file and the notes of its failing reps. */
export interface CiFixtureDetail {
  /** The fixture file as the manifest records it (relative to the project). */
  file: string;
  failed: FailedRep[];
}

/**
 * Reads, for every fixture of a report, its file and its failing reps' notes (from the report's marks file); `run`
 * when the caller has it open (no rep record is read here either way).
 */
export async function ciFixtureDetails(report: Report, run?: Run): Promise<Map<string, CiFixtureDetail>> {
  run ??= await readRun(report.dir);
  const { manifest } = run;
  const marks = await run.marks(report.marksFile);
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
