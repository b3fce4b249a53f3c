import type { Manifest } from '../run-dir/manifest.js';
import type { OpenedRun } from './opened-run.js';
import { runWriter } from '../run-dir/run-writer.js';
import { marksFor, previousMarks } from '../run-dir/run-marks.js';
import { readRunState, repId, type RunState } from '../run-dir/run-state.js';
import { runSpend } from './run-spend.js';
import { withSutModels } from './run-provenance.js';

/** How a run ended. */
export interface RunResult {
  dir: string;
  status: Manifest['status'];
  total: number;
  ran: number;
  errors: number;
  /** Reps still missing (an interrupted run): `--resume` runs them. */
  pending: number;
  /** What went wrong outside any rep (a rep file that could not be written): the run is incomplete. */
  failures: string[];
  /**
   * Reps whose scratch campaign could not be seeded (an unmigrated database, a shared row in conflict): the SUT was
   * never called, so they say nothing about it. The first one's message, to show.
   */
  seedErrors: { count: number; first?: string };
  /** The first errored rep in the run's order, as `FIXTURE rep N: stage: cause: message` (when any errored). */
  firstError?: string;
  /** What was said before the reps ran (a resume on another database server than the run started on). */
  warnings: string[];
  /**
   * With --max-cost: what this invocation's reps cost (the costs known), and whether the budget stopped the run:
   * spent, or `uncounted`, the first rep whose cost could not be counted (one line naming it and why).
   */
  budget?: { maxCost: number; spent: number; reached: boolean; uncounted?: string };
}

/**
 * Step 4 of a run, whatever the reps did: the final manifest (`complete`, or `interrupted` with reps missing) and
 * marks.csv (errored reps marked `error`, the rest blank, earlier marks kept).
 */
export async function finishRunDir(opened: OpenedRun): Promise<RunState> {
  const { dir, all } = opened;
  // Lean: at a run's end every record is read at once; only their outcome and spend are needed here.
  const state = await readRunState(dir, opened.manifest, undefined, { lean: true });
  const missing = all.filter((key) => !state.completed.has(repId(key)) && !state.errored.has(repId(key)));
  const spend = runSpend(all, state);
  const models = withSutModels(opened.manifest.models, all, state);
  opened.manifest = {
    ...opened.manifest,
    status: missing.length > 0 ? 'interrupted' : 'complete',
    finishedAt: new Date().toISOString(),
    ...(spend ? { spend } : {}),
    ...(models ? { models } : {}),
  };
  const write = runWriter(dir);
  await write.manifest(opened.manifest);
  await write.marks('marks.csv', marksFor(all, state, await previousMarks(dir, opened.manifest)).rows);
  // The state read here is the run's result too: every rep record is read once per run.
  return { ...state, manifest: opened.manifest };
}

/** What a finished run directory says about the run (its state as `finishRunDir` read it), as its result. */
export function runResult(
  opened: OpenedRun,
  state: RunState,
  ran: number,
  failures: string[],
  budget?: { maxCost: number; spent: number; uncounted?: string } | undefined,
): RunResult {
  const { dir, all, manifest } = opened;
  const missing = all.length - state.completed.size - state.errored.size;
  const seedFailed = all
    .map((key) => state.records.get(repId(key)))
    .filter((record) => record?.error?.stage === 'seed');
  const seedErrors = {
    count: seedFailed.length,
    ...(seedFailed[0]
      ? { first: `${seedFailed[0].fixture} rep ${seedFailed[0].rep}: ${seedFailed[0].error!.message}` }
      : {}),
  };
  const firstErrored = all.find((key) => state.errored.has(repId(key)));
  const firstError = firstErrored
    ? `${firstErrored.fixture} rep ${firstErrored.rep}: ${state.errored.get(repId(firstErrored))}`
    : undefined;
  return {
    dir,
    status: manifest.status,
    total: all.length,
    ran,
    errors: state.errored.size,
    pending: missing,
    failures,
    seedErrors,
    ...(firstError ? { firstError } : {}),
    warnings: opened.warnings,
    ...(budget
      ? {
          budget: {
            ...budget,
            reached: (budget.spent >= budget.maxCost || budget.uncounted !== undefined) && missing > 0,
          },
        }
      : {}),
  };
}
