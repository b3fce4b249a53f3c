import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { shownPath } from '../../util/shown-path.js';
import type { Manifest } from '../manifest.js';
import { isRunsOwnRow, type MarkRow } from './marks-file.js';
import { parseMarksText, scopeOfRun } from './read-marks.js';
import { repId, type RepKey, type RunState } from '../run-state.js';

/**
 * Which reps completed and which errored (with their cause): a run's state, or a run's end's tally of it (whose
 * `completed` answers without a set of every rep).
 */
export type RepOutcomes = Pick<RunState, 'errored'> & { completed: { has(id: string): boolean } };

/** The note of a rep an interrupted run did not run. */
const NOT_RUN = 'not run yet (turnkit run --resume)';

/**
 * marks.csv's rows for every rep: error with its cause, blank to mark, or not run yet. A mark a person gave survives,
 * unless its rep runs again (`rerun`, the reps a resume is about to run): the response it judged will not be the
 * rep's, so the row starts over and the mark is returned in `replaced` for the history file.
 */
export function marksFor(
  all: readonly RepKey[],
  state: RepOutcomes,
  previous: Map<string, MarkRow>,
  rerun: ReadonlySet<string> = new Set(),
): { rows: MarkRow[]; replaced: { before: MarkRow; after: MarkRow }[] } {
  const replaced: { before: MarkRow; after: MarkRow }[] = [];
  const rows = all.map((key): MarkRow => {
    const id = repId(key);
    const fresh: MarkRow = state.errored.has(id)
      ? { ...key, mark: 'error', note: state.errored.get(id)! }
      : !state.completed.has(id)
        ? { ...key, mark: '', note: NOT_RUN }
        : { ...key, mark: '', note: '' };
    const kept = previous.get(id);
    if (!kept || isRunsOwnRow(kept)) return fresh;
    if (rerun.has(id)) {
      replaced.push({ before: kept, after: fresh });
      return fresh;
    }
    // A mark a person gave (an error they judged, a pass, a note) stays while its rep's response is the same one.
    return kept;
  });
  return { rows, replaced };
}

/**
 * The marks already in a run's marks.csv, by rep (a grader may have marked before a resume). A file that does not
 * read as this run's marks is an error naming it and the line, so that a resume stops before its first rep.
 */
export async function previousMarks(dir: string, manifest: Manifest): Promise<Map<string, MarkRow>> {
  const file = join(dir, 'marks.csv');
  if (!existsSync(file)) return new Map();
  // One reader: the file is checked as this run's marks as it is read.
  const checked = parseMarksText(await readFile(file, 'utf8'), shownPath(file), scopeOfRun(manifest));
  return new Map([...checked].map(([id, { line: _line, ...row }]) => [id, row]));
}
