import type { CommonOptions } from '../config/common-options.js';
import type { RunResult } from '../pipeline/finish-run.js';
import type { RunInput } from '../pipeline/run-input.js';
import { checkRepsOption } from '../question/rep-limits.js';
import { workersFor } from '../pipeline/run-reps.js';
import { defaultConcurrency, run } from '../pipeline/run.js';
import { commandContext, commandEnv } from './command-context.js';

export type { RunResult } from '../pipeline/finish-run.js';
export type { RunProgress } from '../pipeline/run-input.js';
export { defaultConcurrency } from '../pipeline/run.js';

/** Options of `turnkit run`: a run's input, with paths relative to `cwd` and the config and database to load. */
export interface RunOptions extends CommonOptions, Omit<RunInput, 'question'> {
  /** The question file (resuming, the run's own when absent). */
  question?: string | undefined;
}

/**
 * `turnkit run` as the command line calls it: loads the config, makes the run plan (so that a bad question is said
 * before a database starts), opens the database with a connection per running rep, and runs (see `run`).
 */
export async function runQuestion(options: RunOptions): Promise<RunResult> {
  checkRepsOption(options.reps);
  // A connection per running rep and one for the run itself, so that reps never queue for the pool.
  const poolSize = workersFor(options.concurrency ?? defaultConcurrency()) + 1;
  const context = await commandContext({ ...options, poolSize });
  return run(context, { ...options, env: commandEnv(options) });
}
