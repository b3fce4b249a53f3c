import type { Backend } from '../db/connect.js';
import type { Manifest } from '../run-dir/manifest.js';
import type { RepKey } from '../run-dir/run-state.js';

/** A run directory ready for its reps: new, or resumed. */
export interface OpenedRun {
  dir: string;
  /** The manifest as written; reps append to its `order` as they begin. */
  manifest: Manifest;
  /** Every rep of the run (of its shard). */
  all: RepKey[];
  /** The reps this invocation runs. */
  pending: RepKey[];
  /** This invocation's attempt number (1 for a new run). */
  attempt: number;
  /** What was said before the reps ran (a resume on another database server than the run started on). */
  warnings: string[];
}

/** What the database and the moment say about a run about to open its directory. */
export interface RunSetting {
  backend: Backend;
  serverVersion: string;
  now: Date;
  concurrency: number;
  /** The project's folder: the manifest's paths (a SUT's files) are relative to it. */
  projectDir: string;
}
