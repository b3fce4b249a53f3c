import { TurnkitError } from '../errors.js';
import type { Fixture } from '../fixture/format.js';
import type { LoadedQuestion } from '../question/load-question.js';

/**
 * A question's `checks.effects.inserted` names tables and columns of the game: one the game lacks (a typo, a renamed
 * table) would fail every rep's check, so it is refused before any rep runs, at its place in the question file. The
 * game's tables and columns are those its fixtures describe (a capture describes every table a campaign reaches).
 */
export function checkChecksTables(question: LoadedQuestion, fixtures: readonly Fixture[]): void {
  const inserted = question.question.checks?.effects.inserted ?? [];
  if (inserted.length === 0 || fixtures.length === 0) return;
  const columns = gameColumns(fixtures);
  for (const [index, entry] of inserted.entries()) {
    const known = columns.get(entry.table);
    if (!known)
      throw new TurnkitError(
        'BAD_INPUT',
        `${question.at(['checks', 'effects', 'inserted', index, 'table'])}: the game has no table ${entry.table} (its fixtures have ${[...columns.keys()].sort().join(', ')})`,
      );
    for (const [at, column] of entry.nonEmpty.entries())
      if (!known.has(column))
        throw new TurnkitError(
          'BAD_INPUT',
          `${question.at(['checks', 'effects', 'inserted', index, 'nonEmpty', at])}: the table ${entry.table} has no column ${column}`,
        );
  }
}

/** The game's tables and their columns, as its fixtures describe them (a capture describes every table it reaches). */
export function gameColumns(fixtures: readonly Fixture[]): Map<string, Set<string>> {
  const columns = new Map<string, Set<string>>();
  for (const fixture of fixtures)
    for (const [table, described] of Object.entries(fixture.tables)) {
      const known = columns.get(table) ?? new Set<string>();
      for (const column of described.columns) known.add(column.name);
      columns.set(table, known);
    }
  return columns;
}
