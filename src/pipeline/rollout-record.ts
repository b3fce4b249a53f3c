import type { TurnEffects } from '../scratch/turn-effects.js';

/** One turn of a rollout as the rep file records it. */
export interface TurnRecord {
  turn: number;
  input: Record<string, unknown>;
  /** The case file this turn's call was given (rendered against the campaign as it stood then). */
  caseFile: string;
  response: string | null;
  error: { cause: string; message: string } | null;
  /** Milliseconds: the player's input, the SUT's call, and turnkit's own work of the turn (effects, turn row). */
  timings: { playerMs: number; sutMs: number; turnkitMs: number };
  /** What the turn changed in the campaign (per-turn deltas, not a walk of the campaign). */
  effects: TurnEffects | null;
  /** Who wrote the turn's row: the SUT, turnkit (`game.turns.output`), or nobody. */
  turnRow: 'sut' | 'turnkit' | 'none';
  /** The question's `checks` applied to this turn alone. */
  check?: { mark: 'pass' | 'fail' | 'error'; reason: string };
}

/** How far a rollout went. */
export interface RolloutRecord {
  /** Turns it was to play (K). */
  turns: number;
  /** Turns it played (a turn that errored counts). */
  played: number;
  /** Why it ended early: a turn errored, or (`stopOn: fail`) a turn failed its checks. */
  stopped?: 'error' | 'fail';
  /** Owned tables whose per-turn effects are not told apart (no key, or no path to the root row). */
  untracked?: string[];
}
