import { markdownInline, markdownText } from '../util/markdown-text.js';
import type { EffectsSummary } from '../scratch/effects/scratch-effects.js';
import type { ToolCall } from '../sut/tool-call.js';
import { toolCallsMarkdown } from './tool-calls-markdown.js';

/** One turn of a rollout as the rep file records it. */
export interface TurnRecord {
  turn: number;
  input: Record<string, unknown>;
  /** Every move of the turn, when it held several players' (`input` is the first); absent for one. */
  inputs?: Record<string, unknown>[];
  /** The case file this turn's call was given (rendered against the campaign as it stood then). */
  caseFile: string;
  response: string | null;
  /** The tools the SUT reported calling in this turn, in order. */
  toolCalls?: ToolCall[];
  error: { cause: string; message: string } | null;
  /**
   * Milliseconds: the player's input, the SUT's call, the wait for a SUT slot (other reps' calls at `--concurrency`),
   * and turnkit's own work of the turn (case file, effects, turn row).
   */
  timings: { playerMs: number; sutMs: number; waitMs?: number; turnkitMs: number };
  /** What the turn changed in the campaign (per-turn deltas, not a walk of the campaign). */
  effects: EffectsSummary | null;
  /** Who wrote the turn's row: the SUT, turnkit (`game.turns.output`), or nobody. */
  turnRow: 'sut' | 'turnkit' | 'none';
  /** The question's `checks` applied to this turn alone. */
  check?: { mark: 'pass' | 'fail' | 'error'; reason: string };
  /**
   * The question's probes at this turn: each fact as the campaign held it before the SUT's call, and whether the
   * response agreed (`error`: the fact could not be read).
   */
  probes?: { fact: string; value: string | null; mark: 'agree' | 'disagree' | 'error'; reason: string }[];
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

/** A rollout's turns as the rep's Markdown shows them: input, response, error, check and effects per turn. */
export function turnsMarkdown(turns: readonly TurnRecord[], rollout: RolloutRecord | undefined): string[] {
  const lines = [
    `## Rollout: ${turns.length} of ${rollout?.turns ?? turns.length} turns played${rollout?.stopped ? ` (stopped: ${rollout.stopped === 'fail' ? 'a turn failed its checks' : 'a turn errored'})` : ''}`,
    '',
  ];
  for (const turn of turns) {
    const input = Object.values(turn.input)
      .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
      .join(' / ');
    lines.push(`### Turn ${turn.turn}`, '', `Player: ${markdownInline(input)}`, '');
    if (turn.response !== null) lines.push(markdownText(turn.response), '');
    if (turn.toolCalls && turn.toolCalls.length > 0)
      lines.push('Tool calls:', '', ...toolCallsMarkdown(turn.toolCalls), '');
    if (turn.error) lines.push(`Error: ${turn.error.cause}: ${markdownInline(turn.error.message)}`, '');
    if (turn.check) lines.push(`Checks: ${turn.check.mark} (${markdownInline(turn.check.reason)})`, '');
    const changed = turn.effects
      ? [
          ...Object.entries(turn.effects.inserted).map(([table, count]) => `inserted ${count} ${table}`),
          ...Object.entries(turn.effects.updated).map(([table, count]) => `updated ${count} ${table}`),
          ...Object.entries(turn.effects.deleted).map(([table, count]) => `deleted ${count} ${table}`),
        ]
      : [];
    lines.push(
      `Changed: ${changed.length > 0 ? changed.join(', ') : 'nothing'}; turn row written by ${turn.turnRow}.`,
      '',
    );
  }
  return lines;
}
