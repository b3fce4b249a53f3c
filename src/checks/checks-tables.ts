import { TurnkitError } from '../errors.js';
import type { Fixture } from '../fixture/format.js';
import type { StateChecks } from '../question/checks-format.js';
import type { LoadedQuestion } from '../question/load-question.js';

/**
 * A question's `checks.effects.inserted` names tables and columns of the game: one the game lacks (a typo, a renamed
 * table) would fail every rep's check, so it is refused before any rep runs, at its place in the question file. The
 * game's tables and columns are those its fixtures describe (a capture describes every table a campaign reaches).
 */
export function checkChecksTables(question: LoadedQuestion, fixtures: readonly Fixture[]): void {
  if (fixtures.length === 0) return;
  const state = question.question.checks?.state;
  if (state) checkStateTables(question, state, fixtures);
  const inserted = question.question.checks?.effects.inserted ?? [];
  if (inserted.length === 0) return;
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

/**
 * `checks.state` names tables and columns of the game, checked as `effects.inserted` is; a column an expected row
 * names may not be one capture scrubs: its values in a campaign are fakes, and a failure would print them.
 */
function checkStateTables(question: LoadedQuestion, state: StateChecks, fixtures: readonly Fixture[]): void {
  const columns = gameColumns(fixtures);
  const scrubbed = new Set(fixtures.flatMap((fixture) => Object.keys(fixture.source.scrub?.rules ?? {})));
  const tableNames = [...columns.keys()].sort().join(', ');
  const refuse = (at: PropertyKey[], message: string): never => {
    throw new TurnkitError('BAD_INPUT', `${question.at(['checks', 'state', ...at])}: ${message}`);
  };
  for (const [index, entry] of state.volatile.entries()) {
    const [table, column] = entry.includes('.') ? entry.split('.', 2) : [undefined, entry];
    if (table !== undefined && !columns.has(table))
      refuse(['volatile', index], `the game has no table ${table} (its fixtures have ${tableNames})`);
    if (table !== undefined && !columns.get(table)!.has(column!))
      refuse(['volatile', index], `the table ${table} has no column ${column}`);
    if (table === undefined && ![...columns.values()].some((known) => known.has(column!)))
      refuse(['volatile', index], `no table of the game has a column ${column}`);
  }
  for (const [table, expectation] of Object.entries(state.tables)) {
    const known =
      columns.get(table) ??
      refuse(['tables', table], `the game has no table ${table} (its fixtures have ${tableNames})`);
    if (expectation === 'unchanged') continue;
    for (const [index, row] of (expectation.rows ?? []).entries()) {
      const { key, ...values } = row;
      for (const column of [...Object.keys(key ?? {}), ...Object.keys(values)]) {
        const at = ['tables', table, 'rows', index, Object.hasOwn(values, column) ? column : 'key'];
        if (!known.has(column)) refuse(at, `the table ${table} has no column ${column}`);
        if (scrubbed.has(`${table}.${column}`))
          refuse(
            at,
            `${table}.${column} is scrubbed at capture: its values in a campaign are fakes, so expect another column`,
          );
      }
    }
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
