import { showingPathsFrom } from '../util/shown-path.js';
import { existsSync } from 'node:fs';
import { inputDir, inputPath, withProjectDb, type ProjectContext } from '../project/project-context.js';
import { collectGarbage } from '../scratch/gc.js';
import { checkFactQueries } from '../scratch/read-facts.js';
import { finishRunDir, runResult, type RunResult } from './finish-run.js';
import type { OpenedRun, RunSetting } from './opened-run.js';
import { prepareRun, type RunPlan } from './prepare-run.js';
import { resumeRunDir } from './resume-run.js';
import { acquireRunLock } from '../run-dir/run-lock.js';
import type { RunInput } from './run-input.js';
import { runReps, type RepsRun } from './run-reps.js';
import { discardUnbegunRun, startRunDir } from './start-run-dir.js';

/**
 * Runs a question as ev2 does: for each fixture its case file; for each rep a scratch campaign seeded, the SUT
 * called, the response and the SUT's effects recorded, the campaign torn down. Writes `runs/QUESTION/STAMP/`:
 * manifest.json first, then case files, reps and marks.csv (errored reps marked `error`, the rest blank).
 * The steps, in order: prepare the run plan, open (or resume) the run directory, run the reps, finish.
 * @example
 * await using project = await openProject({ cwd: 'my-game', databaseUrl: 'postgres://localhost/game' });
 * const result = await run(project, { question: { ...question, sut: async (request) => 'I look around.' } });
 */
export async function run(project: ProjectContext, input: RunInput): Promise<RunResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    // The plan is made before the database is reached: a bad question is said without starting one.
    const plan = await prepareRun(project, input);
    return withProjectDb(project, (db) => runPlanned({ ...project, db }, plan, input));
  });
}

/** A run whose plan is made (`prepareRun`): steps 2 to 4, on the project's database. */
async function runPlanned(
  project: ProjectContext & { db: NonNullable<ProjectContext['db']> },
  plan: RunPlan,
  input: RunInput,
): Promise<RunResult> {
  const { db } = project;
  const concurrency = input.concurrency ?? defaultConcurrency();
  // A resumed directory is held before anything of it is read or a campaign of it collected: a second resume of it
  // is refused here, naming the first, rather than running the same reps again beside it.
  const resumeDir = input.resume !== undefined ? inputPath(project, input.resume) : undefined;
  await using _resumeLock =
    resumeDir !== undefined && existsSync(resumeDir) ? await acquireRunLock(resumeDir, 'turnkit run --resume') : null;
  // Orphans of a killed run go before this one starts, so that nothing of theirs is mistaken for this run's.
  await collectGarbage(db);
  // A fact whose SQL cannot run would be every rep's error: said once, at its place in the question.
  if (plan.facts) await checkFactQueries(db.pool, plan.facts, (name) => plan.question.at(['facts', name]));
  const serverVersion =
    (await db.pool.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]?.v ?? '';
  const setting: RunSetting = {
    backend: db.backend,
    serverVersion,
    now: new Date(),
    concurrency,
    projectDir: project.paths.baseDir,
  };
  const opened: OpenedRun =
    resumeDir !== undefined
      ? await resumeRunDir(resumeDir, plan, input, setting, input.onWarning)
      : await startRunDir(project, plan, input, setting);
  await using _newLock = resumeDir === undefined ? await acquireRunLock(opened.dir, 'turnkit run') : null;
  let reps: RepsRun;
  try {
    reps = await runReps(project, plan, opened, input, concurrency);
  } catch (error) {
    // Failed before any rep began: a new run goes whole, as one that cannot write its first files does. A failure
    // of that clean-up must not hide the error that stopped the run: that one is what the user has to act on.
    try {
      if (!(await discardUnbegunRun(opened))) await finishRunDir(opened);
    } catch {
      // The run folder stays as it was; the error below is the one to say.
    }
    throw error;
  }
  const state = await finishRunDir(opened);
  return runResult(
    opened,
    state,
    reps.ran,
    reps.failures,
    input.maxCost !== undefined
      ? {
          maxCost: input.maxCost,
          spent: reps.spent,
          ...(reps.uncounted !== undefined ? { uncounted: reps.uncounted } : {}),
        }
      : undefined,
  );
}

/**
 * SUT calls at a time when `--concurrency` is not given: a real SUT waits seconds for a model, and its calls overlap
 * while turnkit's own database work (seeds, teardowns) costs a rep tens of milliseconds.
 */
export function defaultConcurrency(): number {
  return 4;
}
