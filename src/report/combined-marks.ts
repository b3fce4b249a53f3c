import { basename } from 'node:path';
import type { ReadMark } from '../run-dir/marks/read-marks.js';
import type { Run } from '../run-dir/read-run.js';

/** Marks read from several files by precedence, and which file each rep's mark came from. */
export interface CombinedMarks {
  marks: Map<string, ReadMark>;
  /** Rep id to the file (its base name) whose mark is used. */
  sourceOf: Map<string, string>;
}

/**
 * Reads marks files in order of precedence (`--marks marks.csv,marks.checks.csv`): for each rep, the first file that
 * marks it (pass, fail, na or error; a blank says nothing) gives its mark, so a person's marks stand where there
 * are any and the checks' fill in elsewhere. Every file is checked against the run as a single one would be.
 */
export async function readCombinedMarks(run: Run, files: readonly string[]): Promise<CombinedMarks> {
  const marks = new Map<string, ReadMark>();
  const sourceOf = new Map<string, string>();
  for (const file of files) {
    for (const [id, mark] of await run.marks(file)) {
      if (marks.has(id) && marks.get(id)!.mark !== '') continue;
      marks.set(id, mark);
      if (mark.mark !== '') sourceOf.set(id, basename(file));
    }
  }
  return { marks, sourceOf };
}

/** How many of the given reps' marks came from each file, in the files' order (files with none are left out). */
export function countSources(
  ids: readonly string[],
  sourceOf: ReadonlyMap<string, string>,
  files: readonly string[],
): { file: string; marks: number }[] {
  return files.flatMap((path) => {
    const file = basename(path);
    const marks = ids.filter((id) => sourceOf.get(id) === file).length;
    return marks > 0 ? [{ file, marks }] : [];
  });
}
