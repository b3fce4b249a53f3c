import { TurnkitError } from '../errors.js';
import type { Fixture } from '../fixture/format.js';
import type { PlayersConfig, ScriptedInput } from '../question/rollout-format.js';
import { commandPlayer, simulatedPlayer } from './simulated-player.js';

/** One played turn of a rollout as the next calls see it. */
export interface TranscriptTurn {
  turn: number;
  input: Record<string, unknown>;
  response: string | null;
}

/** A player's next input, or why there is none (the rollout ends there, an error). */
export type PlayerMove =
  /** `more`: the turn's other players' moves after the first, in order (recorded inputs of a turn of several). */
  | { values: Record<string, unknown>; more?: Record<string, unknown>[]; ms: number }
  | { error: { cause: string; message: string }; ms: number };

/** Gives the input of each turn after the first (which plays the fixture's own input). */
export interface PlayerSource {
  /** The input for `turn`, the `index`-th turn of the rollout (1 for the second), given the transcript so far. */
  next(turn: number, index: number, transcript: readonly TranscriptTurn[]): Promise<PlayerMove>;
}

/** What a player source is built from: the question's players, where its values sit, and the project folder. */
export interface PlayersContext {
  players: PlayersConfig;
  turns: number;
  /** The place of `players` in the question file, for errors. */
  at: (path: readonly PropertyKey[]) => string;
  projectDir: string;
  /** The environment players see: a command player inherits it; a simulated one's `apiKeyEnv` is read from it. */
  env: Readonly<Record<string, string | undefined>>;
  fixture: Fixture;
  rep: number;
  signal?: AbortSignal | undefined;
}

/**
 * The player of one rep's rollout. Recorded and scripted inputs are checked before any rep runs: a fixture without
 * enough of them is an error naming the question and the fixture, not K errored reps.
 */
export function playerFor(context: PlayersContext): PlayerSource {
  const { players, fixture, turns } = context;
  const columns = Object.keys(fixture.input.values);
  switch (players.type) {
    case 'recorded': {
      const ahead = fixture.ahead ?? [];
      if (ahead.length < turns - 1)
        throw new TurnkitError(
          'BAD_INPUT',
          `${context.at(['turns'])}: ${turns} turns need ${turns - 1} recorded inputs ahead, and ${fixture.name} has ${ahead.length} (capture it with --ahead ${turns})`,
        );
      return {
        next: async (_turn, index) => {
          const { values, more } = ahead[index - 1]!;
          return { values, ...(more ? { more } : {}), ms: 0 };
        },
      };
    }
    case 'script': {
      const own = players.byFixture?.[fixture.name];
      const list = own ?? players.inputs ?? [];
      const where = context.at(own ? ['players', 'byFixture', fixture.name] : ['players', 'inputs']);
      if (list.length < turns - 1)
        throw new TurnkitError(
          'BAD_INPUT',
          `${where}: ${turns} turns need ${turns - 1} scripted inputs for ${fixture.name}, and there are ${list.length}`,
        );
      const values = list.map((entry, i) => scriptedValues(entry, columns, `${where}[${i}]`));
      return { next: async (_turn, index) => ({ values: values[index - 1]!, ms: 0 }) };
    }
    case 'simulated':
      return simulatedPlayer(players, columns, context.env, context.signal);
    case 'command':
      return commandPlayer(players, columns, context, context.signal);
  }
}

/** A scripted or played input as column values: text fills the game's one input column. */
function scriptedValues(entry: ScriptedInput, columns: readonly string[], where: string): Record<string, unknown> {
  if (typeof entry !== 'string') {
    const unknown = Object.keys(entry).filter((column) => !columns.includes(column));
    if (unknown.length > 0)
      throw new TurnkitError(
        'BAD_INPUT',
        `${where}: ${unknown.join(', ')}: not an input column (they are ${columns.join(', ')})`,
      );
    return entry;
  }
  if (columns.length !== 1)
    throw new TurnkitError(
      'BAD_INPUT',
      `${where}: the game has ${columns.length} input columns (${columns.join(', ')}): give a map of column to value`,
    );
  return { [columns[0]!]: entry };
}

/** The transcript as a player or a judge reads it. */
export function transcriptText(transcript: readonly TranscriptTurn[]): string {
  return transcript
    .map(
      (turn) =>
        `**Turn ${turn.turn}.** Player: ${Object.values(turn.input)
          .map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))
          .join(' / ')}\n\n${turn.response ?? '(no response)'}`,
    )
    .join('\n\n');
}
