import type { RepRecord } from '../run-dir/rep-record.js';
import type { TurnMark } from '../run-dir/marks/marks-file.js';
import { fisherExact, lowerMedian } from './stats.js';

/** How many reps of a fixture were still passing after one turn of the rollout. */
interface SurvivalStep {
  /** 1..K: the turn's place in the rollout. */
  step: number;
  /** The game's turn number (N + step - 1). */
  turn: number;
  surviving: number;
  /** surviving / reps; null when no rep counts. */
  share: number | null;
}

/** A fixture's survival table over its rollout's turns (docs/guides/rollouts.md). */
export interface FixtureSurvival {
  fixture: string;
  /** Reps counted: those that played at least one turn (a seed error or a rep not run says nothing of any turn). */
  reps: number;
  /** Reps left out (no turn played). */
  left: number;
  steps: SurvivalStep[];
  /** Reps that failed at some turn. */
  failed: number;
  /** The lower median of the failing reps' first failing turn (game turn number); null when none failed. */
  medianFirstFailingTurn: number | null;
}

/** A constructed fixture against its base, turn by turn: does the fix hold over the following turns? */
export interface SurvivalPair {
  constructed: string;
  base: string;
  steps: { step: number; turn: number; delta: number | null; p: number | null }[];
}

/**
 * The rollout step (1-based) at which a rep first failed: a turn that errored, or failed its checks. A rollout that
 * ended early without either (the run was cut) is treated as surviving the turns it played. Undefined when it never
 * failed; null when it played no turn.
 */
export function firstFailingStep(record: RepRecord, turnMarks?: readonly TurnMark[]): number | undefined | null {
  const turns = record.turns ?? [];
  if (turns.length === 0) return null;
  // A person's per-turn marks (the optional turn_marks column) fail a turn too.
  const failedByHand = new Set((turnMarks ?? []).filter((entry) => entry.mark === 'fail').map((entry) => entry.turn));
  const index = turns.findIndex(
    (turn) =>
      turn.error !== null || turn.check?.mark === 'fail' || turn.check?.mark === 'error' || failedByHand.has(turn.turn),
  );
  if (index >= 0) return index + 1;
  // An error after the last turn (the teardown found the SUT wrote outside its campaign) fails the last turn.
  if (record.error && record.error.stage === 'teardown') return turns.length;
  return undefined;
}

/**
 * Survival after turn t = the share of counted reps with no failing turn among turns 1..t; the median first failing
 * turn over the reps that failed.
 */
export function fixtureSurvival(
  fixture: string,
  records: readonly RepRecord[],
  turns: number,
  firstTurn: number,
  turnMarksOf: (record: RepRecord) => readonly TurnMark[] | undefined = () => undefined,
): FixtureSurvival {
  const failing: number[] = [];
  let reps = 0;
  let left = 0;
  for (const record of records) {
    const step = firstFailingStep(record, turnMarksOf(record));
    if (step === null) {
      left++;
      continue;
    }
    reps++;
    if (step !== undefined) failing.push(step);
  }
  const steps = Array.from({ length: turns }, (_, i) => {
    const surviving = reps - failing.filter((step) => step <= i + 1).length;
    return { step: i + 1, turn: firstTurn + i, surviving, share: reps > 0 ? surviving / reps : null };
  });
  const median = lowerMedian(failing);
  return {
    fixture,
    reps,
    left,
    steps,
    failed: failing.length,
    medianFirstFailingTurn: median === undefined ? null : firstTurn + median - 1,
  };
}

/** The per-turn delta of survival (constructed minus base) with a two-sided Fisher exact p at each turn. */
export function survivalPair(constructed: FixtureSurvival, base: FixtureSurvival): SurvivalPair {
  return {
    constructed: constructed.fixture,
    base: base.fixture,
    steps: constructed.steps.map((step, i) => {
      const other = base.steps[i];
      if (!other || step.share === null || other.share === null)
        return { step: step.step, turn: step.turn, delta: null, p: null };
      return {
        step: step.step,
        turn: step.turn,
        delta: step.share - other.share,
        p: fisherExact(step.surviving, constructed.reps - step.surviving, other.surviving, base.reps - other.surviving),
      };
    }),
  };
}
