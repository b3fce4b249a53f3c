import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import type { TurnRecord } from '../../src/run-dir/rollout-record.js';
import { makeMarkRun } from './mark-run.js';

/** What a turn of the hand-made rollout differs in: its texts, its checks, its error, what it changed. */
export interface TurnSpec {
  input?: string;
  response?: string | null;
  check?: TurnRecord['check'];
  error?: TurnRecord['error'];
  effects?: TurnRecord['effects'];
}

/** A rollout rep: its turns as played (from turn 23), and why it stopped early, if it did. */
export interface RolloutRepSpec {
  turns: TurnSpec[];
  stopped?: 'error' | 'fail';
}

/** One turn of the hand-made rollout; input and response name the fixture, rep and turn unless the spec says. */
export function rolloutTurn(fixture: string, rep: number, turn: number, spec: TurnSpec = {}): TurnRecord {
  return {
    turn,
    input: { player_input: spec.input ?? `INPUT-${fixture}-${rep}-${turn} where now?` },
    caseFile: `# case of turn ${turn}`,
    response: spec.response === undefined ? `RESPONSE-${fixture}-${rep}-${turn}: take the lift.` : spec.response,
    error: spec.error ?? null,
    timings: { playerMs: 0, sutMs: 10 + turn, turnkitMs: 1 },
    effects: spec.effects ?? { inserted: { turns: 1 }, updated: {}, deleted: {}, insertedRows: { turns: [{ id: 1 }] } },
    turnRow: 'sut',
    ...(spec.check ? { check: spec.check } : {}),
  };
}

/**
 * A run of K-turn rollouts from turn 23 written as a rollout run writes its rep files (turns, rollout, the transcript
 * as the response; a turn's error is the rep's error with its turn), one `RolloutRepSpec` per rep of each fixture.
 */
export async function makeRolloutRun(
  dir: string,
  turns: number,
  fixtures: { name: string; reps: RolloutRepSpec[] }[],
): Promise<string> {
  await makeMarkRun({
    dir,
    fixtures: fixtures.map((fixture) => ({ name: fixture.name, reps: fixture.reps.map(() => 'x') })),
  });
  for (const fixture of fixtures)
    for (const [i, spec] of fixture.reps.entries()) {
      const file = join(dir, 'reps', fixture.name, `rep-${String(i + 1).padStart(2, '0')}.json`);
      const record = JSON.parse(await readFile(file, 'utf8')) as RepRecord;
      record.turns = spec.turns.map((turn, at) => rolloutTurn(fixture.name, i + 1, 23 + at, turn));
      record.rollout = { turns, played: record.turns.length, ...(spec.stopped ? { stopped: spec.stopped } : {}) };
      record.response = record.turns.map((turn) => turn.response ?? '').join('\n\n');
      const errored = record.turns.find((turn) => turn.error !== null);
      record.error = errored ? { stage: 'sut', ...errored.error!, turn: errored.turn } : null;
      await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
    }
  return dir;
}
