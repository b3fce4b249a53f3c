import type { StrategyChoice } from '../scratch/strategy-chooser.js';
import type { QuestionInput } from '../question/question-format.js';
import type { ShardSpec } from '../run-dir/rep-order.js';

/** What to run and how: the input of `run(project, input)`. */
export interface RunInput {
  /**
   * The question: a file (relative to the project folder), or an object whose SUT may be a function
   * `(request, { db, databaseUrl, signal }) => string | { response }`. Resuming, the run's own file when absent.
   */
  question?: string | QuestionInput | undefined;
  /** Reps per fixture (default: the question's). */
  reps?: number | undefined;
  /** SUT calls at a time (default 4 on either backend; on the embedded one seeds and teardowns take turns). */
  concurrency?: number | undefined;
  /**
   * Reps under way at once (default: the concurrency and half as many again, so that one rep's seed or teardown
   * overlaps another's SUT call). 1 runs each rep alone, as a benchmark measuring a rep's own time needs.
   */
  repsInFlight?: number | undefined;
  /** Continue this run directory (relative to the project folder): only missing or errored reps run, each fresh. */
  resume?: string | undefined;
  strategy?: StrategyChoice | undefined;
  /**
   * `recorded`: a rollout question's later turns play the inputs its fixtures recorded (`capture --ahead`) instead of
   * the question's players: the run to compare a simulated player with (`report RUN --compare RECORDED_RUN`).
   */
  players?: 'recorded' | undefined;
  /**
   * Fixtures behind the live schema are upgraded into `.turnkit/upgraded/` (keyed by their bytes and the migration
   * state) and the reps seed those copies; the files stay as they are and the manifest lists the copies. The scrub
   * key is read from `env` by the name the config gives, as `turnkit upgrade` reads it.
   */
  upgrade?: boolean | undefined;
  /** Run one deterministic slice of the reps (`--shard I/N`); `turnkit merge` combines the slices. */
  shard?: ShardSpec | undefined;
  /**
   * A shard's run directory is `NAME-shard-I-of-N` instead of `STAMP-shard-I-of-N`: the shards of one CI run (or
   * Kubernetes Job) share the name, and a folder holding them all is one run's.
   */
  runName?: string | undefined;
  /**
   * Stop launching reps once the SUT calls of this invocation have cost this much (an interrupted run, resumable),
   * or once a rep's cost cannot be counted (its SUT answered with tokens but no cost or price, or with neither). An
   * http SUT whose model has no price in the config's `prices` is refused before anything runs.
   */
  maxCost?: number | undefined;
  /** Aborting stops launching reps; running ones finish and tear down. */
  signal?: AbortSignal | undefined;
  /**
   * Aborting quits: no new reps, the command SUTs running now are killed with everything they started, their reps
   * are not recorded (so `--resume` runs them), their campaigns are torn down, and the manifest says `interrupted`
   * at once (before the teardowns, in case the process is stopped while they run). A second Ctrl-C.
   */
  quit?: AbortSignal | undefined;
  /**
   * The environment SUTs see: a command SUT inherits it, `${NAME}` in its `env` and an http SUT's `apiKeyEnv` are
   * read from it, and its secret-named values are kept out of what reps record. The command line passes the
   * process's; without one a command SUT gets only turnkit's variables (and no PATH to find its program on).
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  onProgress?: (progress: RunProgress) => void;
  /** Hears each warning as it arises, before the reps run (they are in the result too). */
  onWarning?: (message: string) => void;
}

/** Where a run stands, after each rep. */
export interface RunProgress {
  done: number;
  total: number;
  errors: number;
  elapsedMs: number;
  /** Estimated time left, from the mean time per finished rep and the concurrency. */
  etaMs: number | undefined;
  last: { fixture: string; rep: number; error?: string; ms: number };
}
