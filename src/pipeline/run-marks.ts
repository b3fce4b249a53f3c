import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRunsOwnRow, parseMarks, type MarkRow } from './marks-file.js';
import { repId, type RepKey, type RunState } from './run-state.js';

/** The note of a rep an interrupted run did not run. */
export const NOT_RUN = 'not run yet (turnkit run --resume)';

/** marks.csv's rows for every rep: error with its cause, blank to mark, or not run yet; marks given survive. */
export function marksFor(all: readonly RepKey[], state: RunState, previous: Map<string, MarkRow>): MarkRow[] {
  return all.map((key) => {
    const id = repId(key);
    if (state.errored.has(id)) return { ...key, mark: 'error', note: state.errored.get(id)! };
    if (!state.completed.has(id)) return { ...key, mark: '', note: NOT_RUN };
    // A mark a grader already gave a completed rep survives a resume.
    const kept = previous.get(id);
    return kept && !isRunsOwnRow(kept) ? kept : { ...key, mark: '', note: '' };
  });
}

/** The marks already in a run's marks.csv, by rep (a grader may have marked before a resume). */
export async function previousMarks(dir: string): Promise<Map<string, MarkRow>> {
  const file = join(dir, 'marks.csv');
  if (!existsSync(file)) return new Map();
  return new Map(parseMarks(await readFile(file, 'utf8')).map((row) => [repId(row), row]));
}
