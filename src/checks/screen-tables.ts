import { TurnkitError } from '../errors.js';
import { gameColumns } from './checks-tables.js';
import type { Fixture } from '../fixture/format.js';
import type { LoadedQuestion } from '../question/load-question.js';

/**
 * The tables and columns a question's `tools.effects` and `hidden` name must be the game's (as its fixtures describe
 * it): a typo would leave every rep's screen failing or unscored. Refused before any rep runs, and by `verify`, at the
 * place in the question file. A hidden table some fixtures lack is allowed (those reps are unscored), one none has is not.
 */
export function checkScreenTables(question: LoadedQuestion, fixtures: readonly Fixture[]): void {
  const q = question.question;
  if (fixtures.length === 0 || (!q.tools?.effects.length && !q.hidden)) return;
  const columns = gameColumns(fixtures);
  const noTable = (path: PropertyKey[], table: string): TurnkitError =>
    new TurnkitError(
      'BAD_INPUT',
      `${question.at(path)}: the game has no table ${table} (its fixtures have ${[...columns.keys()].sort().join(', ')})`,
    );
  for (const [index, rule] of (q.tools?.effects ?? []).entries())
    if (!columns.has(rule.table)) throw noTable(['tools', 'effects', index, 'table'], rule.table);
  for (const [index, rule] of (q.hidden ?? []).entries()) {
    const known = columns.get(rule.table);
    if (!known) throw noTable(['hidden', index, 'table'], rule.table);
    const named: [PropertyKey[], string][] = [
      ...rule.columns.map((column, at): [PropertyKey[], string] => [['hidden', index, 'columns', at], column]),
      ...Object.keys(rule.where ?? {}).map((column): [PropertyKey[], string] => [
        ['hidden', index, 'where', column],
        column,
      ]),
    ];
    for (const [path, column] of named)
      if (!known.has(column))
        throw new TurnkitError('BAD_INPUT', `${question.at(path)}: the table ${rule.table} has no column ${column}`);
  }
}
