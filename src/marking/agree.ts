import { inputDir, type FilesContext } from '../project/project-context.js';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { shownPath, showingPathsFrom } from '../util/shown-path.js';
import { TurnkitError } from '../errors.js';
import type { Manifest } from '../run-dir/manifest.js';
import { readLooseMarks, readRun, type Run } from '../run-dir/read-run.js';
import { agreement, type Agreement } from '../stats/agreement.js';

/** Options of `turnkit agree MARKS_A MARKS_B`. */
export interface AgreeOptions {
  a: string;
  b: string;
}

/** The agreement of two marks files, and where they are. */
export interface AgreeResult extends Agreement {
  a: string;
  b: string;
  /** The run directory both files belong to, when they sit in one. */
  run: string | null;
}

/**
 * Reads two marks files and measures how far they agree. Files in a run directory are checked against that run (a
 * rep it does not have is an error), and two files of different runs are refused: their reps are not the same reps.
 * @example
 * const { kappa } = await agree(project, { a: 'runs/q/1/marks.csv', b: 'runs/q/1/marks.checks.csv' });
 */
export async function agree(project: FilesContext, options: AgreeOptions): Promise<AgreeResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const cwd = inputDir(project);
    const a = resolve(cwd, options.a);
    const b = resolve(cwd, options.b);
    const runA = await runOf(a);
    const runB = await runOf(b);
    if (runA && runB && !sameRun(runA.manifest, runB.manifest)) {
      throw new TurnkitError(
        'BAD_INPUT',
        `${shownPath(b)}: marks of another run (${shownPath(runB.dir)}) than ${shownPath(a)} (${shownPath(runA.dir)})`,
      );
    }
    const run = runA ?? runB;
    // Through the run when there is one (each file checked against its reps), else as loose files.
    const marksA = run ? await run.marks(a) : await readLooseMarks(a);
    const marksB = run ? await run.marks(b) : await readLooseMarks(b);
    return { ...agreement(marksA, marksB), a, b, run: run?.dir ?? null };
  });
}

async function runOf(file: string): Promise<Run | undefined> {
  const dir = dirname(file);
  if (!existsSync(join(dir, 'manifest.json'))) return undefined;
  return readRun(dir);
}

// A merged run's reps are its shards' reps: the question and the start of the run identify it.
function sameRun(x: Manifest, y: Manifest): boolean {
  return (
    x.question.id === y.question.id && x.question.file.sha256 === y.question.file.sha256 && x.startedAt === y.startedAt
  );
}
