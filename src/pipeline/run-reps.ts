import { relative } from 'node:path';
import { databaseGone } from '../db/database-gone.js';
import type { Db } from '../db/connect.js';
import type { ProjectContext } from '../project/project-context.js';
import { ScratchSession } from '../scratch/scratch-session.js';
import pLimit from 'p-limit';
import type { OpenedRun } from './opened-run.js';
import type { RunPlan } from './prepare-run.js';
import { runWriter } from '../run-dir/run-writer.js';
import type { RepKey } from '../run-dir/run-state.js';
import { TurnkitError } from '../errors.js';
import { repFileBase } from '../run-dir/run-layout.js';
import type { RunInput } from './run-input.js';
import { runRep } from './run-rep.js';
import { RepBudget } from './rep-budget.js';
import { RepProgress } from './rep-progress.js';
import { sutPrice } from './run-limits.js';
import type { SutCaller } from '../sut/call-sut.js';

/** What the rep loop did. */
export interface RepsRun {
  /** Reps run and recorded by this invocation. */
  ran: number;
  /** What went wrong outside any rep (a rep file that could not be written, the database gone). */
  failures: string[];
  /** What the SUT calls of this invocation's reps cost (0 when none reported a cost). */
  spent: number;
  /** With --max-cost: the first rep whose cost could not be counted, which stopped the run (one line). */
  uncounted?: string;
}

/**
 * Step 3 of a run: runs the pending reps, `concurrency` SUT calls at a time, each rep in a fresh scratch campaign,
 * recording each as it ends. Stops launching reps on `input.signal`; on `input.quit` marks the manifest interrupted
 * at once. Every rep settles and the scratch session closes before this returns.
 */
export async function runReps(
  project: ProjectContext & { db: Db },
  plan: RunPlan,
  opened: OpenedRun,
  input: RunInput,
  concurrency: number,
): Promise<RepsRun> {
  const { db, config } = project;
  const { dir, manifest, pending, attempt } = opened;
  const q = plan.question.question;
  const session = new ScratchSession(db, {
    game: config.game,
    configFile: config.file,
    strategy: input.strategy,
    runId: `${q.id}/${relative(project.paths.runs, dir)}`,
  });
  // A rollout's game (the columns turnkit writes turns into) is checked once, before the first rep.
  if (plan.rollout)
    await plan.rollout.prepare(session).catch(async (error: unknown) => {
      await session.close();
      throw error;
    });
  const byName = new Map(plan.fixtures.map((entry) => [entry.loaded.fixture.name, entry]));
  const failures: string[] = [];
  // Set when a rep found the database gone: no rep starts after it, and the run fails.
  let lost: string | undefined;
  let next = 0;
  const workers = Math.max(1, Math.min(input.repsInFlight ?? workersFor(concurrency), pending.length));
  const slots = pLimit(concurrency);
  const sutSlot = <T>(call: () => Promise<T>): Promise<T> => slots(call);
  // --max-cost stops launching reps as a signal does: the reps running finish, the run is interrupted and resumable.
  const budget = new RepBudget(input.maxCost, q.sut);
  const progress = new RepProgress(pending.length, input.onProgress);
  const stopped = (): boolean => input.signal?.aborted === true || input.quit?.aborted === true || budget.over;
  const price = sutPrice(config.prices, q.sut);
  const quit = interruptOnQuit(dir, manifest, input.quit);
  const write = runWriter(dir);
  const callSut: SutCaller = plan.callSut;
  const worker = async (): Promise<void> => {
    while (next < pending.length && !stopped() && lost === undefined) {
      const key = pending[next++]!;
      const fixture = byName.get(key.fixture)!;
      const begun = { fixture: key.fixture, rep: key.rep, attempt };
      manifest.order.push(begun);
      // On disk as it starts: a run killed outright still shows what it had begun.
      await write.order(begun);
      await write.keepEarlierAttempt(key);
      const record = await runRep(session, callSut, {
        fixture: fixture.loaded.fixture,
        fixtureFile: fixture.loaded.shown,
        caseFile: plan.caseFiles.get(key.fixture)!,
        rep: key.rep,
        attempt,
        concurrent: workers > 1,
        sutSlot,
        secrets: plan.secrets,
        price,
        ...(plan.facts ? { facts: plan.facts } : {}),
        ...(plan.rollout ? { rollout: await plan.rollout.spec(session, fixture.loaded.fixture, key.rep) } : {}),
      });
      budget.add(record);
      // A SUT killed because the user quit says nothing about the SUT: the rep stays not run, for --resume.
      if (input.quit?.aborted) continue;
      // A rep that failed because the database went away (its SUT refused a connection, its teardown too) is not a
      // SUT error: it is not recorded (--resume runs it again), its scratch campaign is left to gc, the run fails.
      const gone = record.error ? await databaseGone(db, Date.now() - Date.parse(record.startedAt)) : undefined;
      if (gone !== undefined) {
        lost ??= `${repFileBase(key.fixture, key.rep)}: the database went away during the rep (${gone}); the rep is not recorded and its scratch campaign is left to turnkit gc; when the database is back, finish the run with --resume`;
        continue;
      }
      const unwritten = await write.rep(record).then(
        () => undefined,
        (error: unknown) => unwrittenRep(key, error),
      );
      // A rep that could not be written is lost but the run goes on: the others finish, and --resume runs it again.
      if (unwritten !== undefined) failures.push(unwritten);
      else progress.recorded(key, record);
    }
  };
  try {
    // Every worker settles before the session and the pool close: none is cut off while it holds a campaign.
    const settled = await Promise.allSettled(Array.from({ length: workers }, worker));
    for (const outcome of settled)
      if (outcome.status === 'rejected')
        failures.push(`a worker stopped: ${(outcome.reason as Error)?.message ?? String(outcome.reason)}`);
    if (lost !== undefined) failures.unshift(lost);
  } finally {
    await session.close();
    // The early "interrupted" lands before the final manifest, never over it.
    await quit.settled();
  }
  return {
    ran: progress.done,
    failures,
    spent: budget.spent,
    ...(budget.uncounted !== undefined ? { uncounted: budget.uncounted } : {}),
  };
}

/** Why a rep's files could not be written, in one line. */
function unwrittenRep(key: RepKey, error: unknown): string {
  return error instanceof TurnkitError
    ? error.message
    : `${repFileBase(key.fixture, key.rep)}.json: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
}

/**
 * On `quit`, marks the manifest interrupted at once (a second Ctrl-C must leave a run that says so); `settled`
 * stops listening and waits for that write, so that it lands before the final manifest, never over it.
 */
function interruptOnQuit(
  dir: string,
  manifest: OpenedRun['manifest'],
  quit: AbortSignal | undefined,
): { settled: () => Promise<void> } {
  let written: Promise<void> | undefined;
  const onQuit = (): void => {
    written = runWriter(dir)
      .manifest({ ...manifest, status: 'interrupted', finishedAt: new Date().toISOString() })
      .catch(() => {});
  };
  if (quit?.aborted) onQuit();
  else quit?.addEventListener('abort', onQuit, { once: true });
  return {
    settled: async () => {
      quit?.removeEventListener('abort', onQuit);
      await written;
    },
  };
}

/**
 * Reps in flight for K SUT calls at a time: a few more than K, so that the next reps' seeds and the last reps'
 * teardowns happen while SUTs run, off the SUT slots' critical path. On the embedded database too: there the seeds
 * and teardowns queue for turnkit's one connection, so a SUT slot that frees finds a rep seeded and waiting rather
 * than waiting for its worker's teardown and next seed behind every other worker's.
 */
export function workersFor(concurrency: number): number {
  return concurrency + Math.ceil(concurrency / 2);
}
