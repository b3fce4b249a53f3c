import type { Manifest } from '../run-dir/manifest.js';
import type { OpenedRun } from './opened-run.js';
import { runWriter } from '../run-dir/run-writer.js';
import { marksFor, previousMarks } from '../run-dir/marks/run-marks.js';
import { forEachRepRecord } from '../run-dir/rep-records-in-order.js';
import { repId } from '../run-dir/run-state.js';
import { RepTally } from './rep-tally.js';

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
 * marks.csv (errored reps marked `error`, the rest blank, earlier marks kept). The records are read one at a time
 * and tallied (RepTally), so that a run's end takes the same memory at 200 reps as at 10,000.
 */
export async function finishRunDir(opened: OpenedRun): Promise<RepTally> {
  const { dir, all } = opened;
  const tally = new RepTally(opened.manifest.models?.sut);
  await forEachRepRecord(dir, all, (key, record) => tally.add(key, record));
  const spend = tally.spend();
  const sut = tally.sutModels();
  const models = { ...opened.manifest.models, ...(sut.length > 0 ? { sut } : {}) };
  opened.manifest = {
    ...opened.manifest,
    status: tally.notRun.size > 0 ? 'interrupted' : 'complete',
    finishedAt: new Date().toISOString(),
    ...(spend ? { spend } : {}),
    ...(Object.keys(models).length > 0 ? { models } : {}),
  };
  const write = runWriter(dir);
  await write.manifest(opened.manifest);
  await write.marks('marks.csv', marksFor(all, tally, await previousMarks(dir, opened.manifest)).rows);
  // The tally is the run's result too: every rep record is read once per run.
  return tally;
}

/** What a finished run directory says about the run (as `finishRunDir` tallied it), as its result. */
export function runResult(
  opened: OpenedRun,
  tally: RepTally,
  ran: number,
  failures: string[],
  budget?: { maxCost: number; spent: number; uncounted?: string } | undefined,
): RunResult {
  const { dir, all, manifest } = opened;
  const missing = tally.notRun.size;
  const seedErrors = {
    count: tally.seedFailed,
    ...(tally.firstSeedFailure !== undefined ? { first: tally.firstSeedFailure } : {}),
  };
  const firstErrored = tally.firstErrored;
  const firstError = firstErrored
    ? `${firstErrored.fixture} rep ${firstErrored.rep}: ${tally.errored.get(repId(firstErrored))}`
    : undefined;
  return {
    dir,
    status: manifest.status,
    total: all.length,
    ran,
    errors: tally.errored.size,
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
