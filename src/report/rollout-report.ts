import type { RunState } from '../run-dir/run-state.js';
import { repId } from '../run-dir/run-state.js';
import type { RepKey } from '../run-dir/run-state.js';
import { fixtureSurvival, survivalPair, type FixtureSurvival, type SurvivalPair } from '../stats/survival.js';
import type { BasePair } from './build-report.js';
import type { MarkRow } from '../run-dir/marks-file.js';
import { inputTraits, type InputTraits } from '../rollout/input-traits.js';
import type { PlayerIdentity } from '../rollout/player-identity.js';

/** A rollout run's curve: per fixture its survival table, and each constructed fixture against its base per turn. */
export interface RolloutReport {
  /** Turns per rep (K). */
  turns: number;
  fixtures: FixtureSurvival[];
  pairs: SurvivalPair[];
  /** Turns a person marked in the marks file reported on (its `turn_marks` column), and how many of them fail. */
  turnMarks: { marked: number; failed: number };
  /** Who played the turns after the first, as the manifest pins it (a run from before the pin: its kind only). */
  player: PlayerIdentity;
  /** How the players' inputs read (length, questions, refusals, derails), to compare a simulated player with recorded ones. */
  inputs: InputTraits;
}

/**
 * The survival part of a report, for a run whose reps are rollouts; undefined for a one-turn run (its report is as
 * it always was). `pairs` are the report's constructed/base pairs.
 */
export function rolloutReport(
  state: RunState,
  keys: readonly RepKey[],
  names: readonly string[],
  pairs: readonly BasePair[],
  marks: ReadonlyMap<string, MarkRow> | undefined,
  player: PlayerIdentity,
): RolloutReport | undefined {
  const records = keys.flatMap((key) => {
    const record = state.records.get(repId(key));
    return record ? [record] : [];
  });
  const turns = Math.max(0, ...records.map((record) => record.rollout?.turns ?? 0));
  if (turns <= 1) return undefined;
  const firstTurn = records.find((record) => record.rollout)?.request.turn ?? 1;
  const fixtures = names.flatMap((name) => {
    const own = records.filter((record) => record.fixture === name);
    return own.length === 0
      ? []
      : [
          fixtureSurvival(
            name,
            own,
            turns,
            own[0]!.request.turn ?? firstTurn,
            (record) => marks?.get(repId({ fixture: record.fixture, rep: record.rep }))?.turnMarks,
          ),
        ];
  });
  const byName = new Map(fixtures.map((entry) => [entry.fixture, entry]));
  const personal = records.flatMap(
    (record) => marks?.get(repId({ fixture: record.fixture, rep: record.rep }))?.turnMarks ?? [],
  );
  return {
    turns,
    fixtures,
    player,
    inputs: inputTraits(records),
    turnMarks: { marked: personal.length, failed: personal.filter((entry) => entry.mark === 'fail').length },
    pairs: pairs.flatMap((pair) => {
      const constructed = byName.get(pair.constructed);
      const base = byName.get(pair.base);
      return constructed && base ? [survivalPair(constructed, base)] : [];
    }),
  };
}
