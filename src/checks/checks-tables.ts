import { TurnkitError } from '../errors.js';
import type { Fixture } from '../fixture/format.js';
import type { StateChecks } from '../question/checks-format.js';
import type { LoadedQuestion } from '../question/load-question.js';

/**
 * The tables and columns a question names (`checks.effects.inserted`, `checks.state`, `tools.effects`, `hidden`) must
 * be the game's, as its fixtures describe it (a capture describes every table a campaign reaches): a typo would fail
 * or leave unscored every rep's screen. Refused before any rep runs, and by `verify`, at the place in the question.
 */
export function checkGameTables(question: LoadedQuestion, fixtures: readonly Fixture[]): void {
  const q = question.question;
  if (fixtures.length === 0) return;
  const columns = gameColumns(fixtures);
  const refuse = (path: PropertyKey[], message: string): never => {
    throw new TurnkitError('BAD_INPUT', `${question.at(path)}: ${message}`);
  };
  // The columns of a table the game has; refused, naming the game's tables, when it has none of that name.
  const tableAt = (path: PropertyKey[], table: string): Set<string> =>
    columns.get(table) ??
    refuse(path, `the game has no table ${table} (its fixtures have ${[...columns.keys()].sort().join(', ')})`);
  const columnAt = (path: PropertyKey[], table: string, known: Set<string>, column: string): void => {
    if (!known.has(column)) refuse(path, `the table ${table} has no column ${column}`);
  };
  if (q.checks?.state) checkStateTables(q.checks.state, fixtures, columns, tableAt, columnAt, refuse);
  for (const [index, entry] of (q.checks?.effects.inserted ?? []).entries()) {
    const at = ['checks', 'effects', 'inserted', index];
    const known = tableAt([...at, 'table'], entry.table);
    for (const [i, column] of entry.nonEmpty.entries()) columnAt([...at, 'nonEmpty', i], entry.table, known, column);
  }
  for (const [index, rule] of (q.tools?.effects ?? []).entries())
    tableAt(['tools', 'effects', index, 'table'], rule.table);
  // A hidden table some fixtures lack is allowed (those reps are unscored), one none has is not.
  for (const [index, rule] of (q.hidden ?? []).entries()) {
    const known = tableAt(['hidden', index, 'table'], rule.table);
    for (const [at, column] of rule.columns.entries())
      columnAt(['hidden', index, 'columns', at], rule.table, known, column);
    for (const column of Object.keys(rule.where ?? {}))
      columnAt(['hidden', index, 'where', column], rule.table, known, column);
  }
}

/**
 * `checks.state` names tables and columns as `effects.inserted` does; a column an expected row names may not be one
 * capture scrubs: its values in a campaign are fakes, and a failure would print them.
 */
function checkStateTables(
  state: StateChecks,
  fixtures: readonly Fixture[],
  columns: Map<string, Set<string>>,
  tableAt: (path: PropertyKey[], table: string) => Set<string>,
  columnAt: (path: PropertyKey[], table: string, known: Set<string>, column: string) => void,
  refuse: (path: PropertyKey[], message: string) => never,
): void {
  const scrubbed = new Set(fixtures.flatMap((fixture) => Object.keys(fixture.source.scrub?.rules ?? {})));
  for (const [index, entry] of state.volatile.entries()) {
    const at = ['checks', 'state', 'volatile', index];
    const [table, column] = entry.includes('.') ? entry.split('.', 2) : [undefined, entry];
    if (table !== undefined) columnAt(at, table, tableAt(at, table), column!);
    else if (![...columns.values()].some((known) => known.has(column!)))
      refuse(at, `no table of the game has a column ${column}`);
  }
  for (const [table, expectation] of Object.entries(state.tables)) {
    const known = tableAt(['checks', 'state', 'tables', table], table);
    if (expectation === 'unchanged') continue;
    for (const [index, row] of (expectation.rows ?? []).entries()) {
      const { key, ...values } = row;
      for (const column of [...Object.keys(key ?? {}), ...Object.keys(values)]) {
        const at = ['checks', 'state', 'tables', table, 'rows', index, Object.hasOwn(values, column) ? column : 'key'];
        columnAt(at, table, known, column);
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
function gameColumns(fixtures: readonly Fixture[]): Map<string, Set<string>> {
  const columns = new Map<string, Set<string>>();
  for (const fixture of fixtures)
    for (const [table, described] of Object.entries(fixture.tables)) {
      const known = columns.get(table) ?? new Set<string>();
      for (const column of described.columns) known.add(column.name);
      columns.set(table, known);
    }
  return columns;
}
