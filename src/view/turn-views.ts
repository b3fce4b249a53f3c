import type { TurnMark } from '../run-dir/marks/marks-file.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import type { TurnRecord } from '../run-dir/rollout-record.js';
import type { ToolCall } from '../sut/tool-call.js';

/** One turn of a rollout rep as the page shows it (its case file and inserted rows are left out: the rep file has them). */
export interface TurnView {
  turn: number;
  /** The player's input, one `[column, value]` per input column (a non-string value as JSON). */
  input: [string, string][];
  response: string | null;
  /** The tools the SUT reported calling in this turn, in order. */
  toolCalls?: ToolCall[] | undefined;
  error: { cause: string; message: string } | null;
  /** The question's checks on this turn alone; null when the question has none. */
  check: { mark: 'pass' | 'fail' | 'error'; reason: string } | null;
  /** Rows the turn changed, per kind and table (counts only); null when they were not read. */
  changed: { kind: 'inserted' | 'updated' | 'deleted'; table: string; rows: number }[] | null;
  turnRow: TurnRecord['turnRow'];
  sutMs: number;
}

/** A rollout rep's turns in the order played, with how far it went. */
export interface RolloutView {
  /** Turns it was to play (K). */
  turns: number;
  played: number;
  /** Why it ended early: a turn errored, or failed its checks; null when it played every turn (or was cut). */
  stopped: 'error' | 'fail' | null;
  list: TurnView[];
}

/** A rep's rollout as the page shows it; undefined for a one-turn rep (its response is all there is). */
export function rolloutView(record: RepRecord | undefined): RolloutView | undefined {
  if (!record?.turns || !record.rollout) return undefined;
  return {
    turns: record.rollout.turns,
    played: record.turns.length,
    stopped: record.rollout.stopped ?? null,
    list: record.turns.map(turnView),
  };
}

/** One turn as shown: the input columns as text, the effects as counts per table sorted by kind then name. */
export function turnView(turn: TurnRecord): TurnView {
  const kinds = ['inserted', 'updated', 'deleted'] as const;
  return {
    turn: turn.turn,
    input: Object.entries(turn.input).map(([column, value]) => [
      column,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
    response: turn.response,
    ...(turn.toolCalls?.length ? { toolCalls: turn.toolCalls } : {}),
    error: turn.error,
    check: turn.check ?? null,
    changed: turn.effects
      ? kinds.flatMap((kind) =>
          Object.keys(turn.effects![kind])
            .sort()
            .map((table) => ({ kind, table, rows: turn.effects![kind][table]! })),
        )
      : null,
    turnRow: turn.turnRow,
    sutMs: turn.timings.sutMs,
  };
}

/** A rep's turn marks as the page keeps them: `[turn, mark]` pairs by turn. */
export function turnMarkPairs(marks: readonly TurnMark[] | undefined): [number, string][] {
  return [...(marks ?? [])].sort((a, b) => a.turn - b.turn).map((entry) => [entry.turn, entry.mark]);
}
