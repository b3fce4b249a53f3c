import { repId, type RepKey, type RunState } from '../run-dir/run-state.js';
import { fixtureSurvival, survivalPair, type FixtureSurvival, type SurvivalPair } from '../stats/survival.js';
import type { BasePair } from './build-report.js';
import type { MarkRow } from '../run-dir/marks/marks-file.js';
import type { RepRecord } from '../run-dir/rep-record.js';
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
  /**
   * State tracking, when the question has probes: per fixture and turn, the probes read there and how many the
   * turn's response agreed with (a probe that could not be read counts in neither).
   */
  probes?: { fixture: string; steps: { turn: number; probed: number; agree: number }[] }[];
}

// Each fixture's probes per turn: reps that reached the turn and were probed there, and those that agreed.
function probeCurves(records: readonly RepRecord[], names: readonly string[], turns: number): RolloutReport['probes'] {
  if (!records.some((record) => record.turns?.some((turn) => turn.probes !== undefined))) return undefined;
  return names.flatMap((name) => {
    const own = records.filter((record) => record.fixture === name);
    if (own.length === 0) return [];
    const first = own[0]!.request.turn;
    const steps = Array.from({ length: turns }, (_, index) => {
      let probed = 0;
      let agree = 0;
      for (const record of own)
        for (const probe of record.turns?.find((turn) => turn.turn === first + index)?.probes ?? []) {
          if (probe.mark === 'error') continue;
          probed++;
          if (probe.mark === 'agree') agree++;
        }
      return { turn: first + index, probed, agree };
    });
    return [{ fixture: name, steps }];
  });
}

/**
 * The survival part of a report, for a run whose reps are rollouts; undefined for a one-turn run (a rep of one turn
 * has no survival to show). `pairs` are the report's constructed/base pairs.
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
  const probes = probeCurves(records, names, turns);
  const personal = records.flatMap(
    (record) => marks?.get(repId({ fixture: record.fixture, rep: record.rep }))?.turnMarks ?? [],
  );
  return {
    turns,
    fixtures,
    player,
    inputs: inputTraits(records),
    ...(probes ? { probes } : {}),
    turnMarks: { marked: personal.length, failed: personal.filter((entry) => entry.mark === 'fail').length },
    pairs: pairs.flatMap((pair) => {
      const constructed = byName.get(pair.constructed);
      const base = byName.get(pair.base);
      return constructed && base ? [survivalPair(constructed, base)] : [];
    }),
  };
}
