import { applyPatch } from '../fixture/constructed/patch.js';
import { TurnkitError } from '../errors.js';
import type { Fixture, FixtureRow } from '../fixture/format.js';
import { otherTextColumn } from '../fixture/turns/turn-text.js';
import { groupsRows } from '../fixture/turns/turn-groups.js';
import { turnModelOf, turnsInOrder } from '../fixture/turns/turn-rows.js';

/**
 * How a variant neutralises a turn, the author's choice per run: leave its output text out of what the SUT sees
 * (`drop`, the text made empty), put a neutral text of the author's in its place (`text`), or apply the author's own
 * patch for that turn (`patches`, by turn number: a patch as `turnkit construct --patch` takes).
 */
export type Neutraliser =
  | { kind: 'drop' }
  | { kind: 'text'; text: string }
  | { kind: 'patches'; patches: ReadonlyMap<number, { file: string; patch: unknown }> };

/** The word a variant's name carries for its neutraliser: `meridian-turn-23-no-t19`. */
export function neutraliserWord(neutraliser: Neutraliser): string {
  return neutraliser.kind === 'drop' ? 'no' : neutraliser.kind === 'text' ? 'neutral' : 'patched';
}

/** One cell holding a turn's output text: the game's answer, never the player's input. */
interface OutputCell {
  row: FixtureRow;
  column: string;
}

/**
 * The cells of turn `turn` that hold what the game said: with one row per turn, the row's narration column (its
 * first text column other than the input's); with turns of several rows, each row that is not the player's input,
 * by the column its text is in. Empty cells are left out: there is nothing in them to neutralise.
 */
function outputCells(fixture: Fixture, turn: number): OutputCell[] {
  const entry = turnsInOrder(fixture).find((candidate) => candidate.turn === turn);
  if (!entry) return [];
  const grouped = groupsRows(turnModelOf(fixture));
  const inputColumns = Object.keys(fixture.input.values);
  const narration = otherTextColumn(fixture);
  const cells: OutputCell[] = [];
  for (const row of entry.rows) {
    const isInput = entry.input.includes(row);
    // A game of several rows per turn: the player's rows are the input, and stay as the player wrote them.
    if (isInput && grouped) continue;
    const column = isInput
      ? narration
      : (inputColumns.find((name) => typeof row[name] === 'string' && row[name] !== '') ?? narration);
    if (column !== undefined && typeof row[column] === 'string' && row[column] !== '') cells.push({ row, column });
  }
  return cells;
}

/**
 * A copy of `fixture` with turn `turn` neutralised. Refused in one line when the turn has no output text to drop or
 * replace, or when the author's patches name no patch for it; a patch's own problems are named by its file.
 */
export function neutraliseTurn(fixture: Fixture, turn: number, neutraliser: Neutraliser): Fixture {
  if (neutraliser.kind === 'patches') {
    const given = neutraliser.patches.get(turn);
    if (!given)
      throw new TurnkitError(
        'BAD_INPUT',
        `--patches: no turn-${turn}.json for turn ${turn} (the folder has ${[...neutraliser.patches.keys()]
          .sort((a, b) => a - b)
          .map((t) => `turn-${t}.json`)
          .join(', ')})`,
      );
    return applyPatch(fixture, given.patch, given.file);
  }
  const copy = structuredClone(fixture);
  const cells = outputCells(copy, turn);
  if (cells.length === 0)
    throw new TurnkitError('BAD_INPUT', `${fixture.name}: turn ${turn} holds no output text to neutralise`);
  const text = neutraliser.kind === 'drop' ? '' : neutraliser.text;
  for (const { row, column } of cells) row[column] = text;
  return copy;
}
