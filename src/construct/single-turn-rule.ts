import type { Fixture } from '../fixture/format.js';
import { changePath, type ColumnChange } from './column-change.js';
import { findRow } from './row-key.js';
import { rowsTiedToTurn, turnOfRow, turnsInOrder } from './turn-rows.js';

/**
 * Checks that changes obey the single-turn rule against a base: the turn is a kept turn before the input turn,
 * every changed row exists and is tied to that turn, and no key, foreign key or generated column changes.
 * Returns one line per offending path; none means the changes may be recorded or applied.
 */
export function checkSingleTurn(base: Fixture, changes: readonly ColumnChange[], turn: number): string[] {
  const inputTurn = base.input.turn;
  if (turn >= inputTurn) return [`turn ${turn} is at or after the fixture's input turn ${inputTurn}; construct from an upstream turn (1..${inputTurn - 1})`];
  const kept = turnsInOrder(base).length;
  if (turn < 1 || turn > kept) return [`turn ${turn} is not a kept turn of ${base.name} (it keeps turns 1..${kept})`];
  if (changes.length === 0) return ['no change: the edited fixture equals the base'];
  const tied = rowsTiedToTurn(base, turn);
  const problems: string[] = [];
  for (const change of changes) {
    const table = base.tables[change.table];
    if (!table) { problems.push(`${change.table}: no such table in ${base.name}`); continue; }
    const path = changePath(change, table.primaryKey);
    const row = findRow(table, change.row);
    if (!row) { problems.push(`${path}: no such row in ${base.name}`); continue; }
    if (!table.columns.some((column) => column.name === change.column)) { problems.push(`${path}: no such column in ${change.table}`); continue; }
    if (!tied.get(change.table)?.has(change.row)) { problems.push(`${path}: ${whoseRow(base, change)}, not a row of turn ${turn}`); continue; }
    if (table.primaryKey.includes(change.column)) problems.push(`${path}: is part of the primary key; keys cannot change`);
    else if (table.foreignKeys.some((fk) => fk.columns.includes(change.column))) problems.push(`${path}: is a foreign key column; keys cannot change`);
    else if (table.columns.find((column) => column.name === change.column)?.generated !== undefined) problems.push(`${path}: is a generated column; the database computes it`);
    else if (isTurnOrder(base, change.table, change.column)) problems.push(`${path}: is the turn order column; changing it would move other turns`);
  }
  return problems;
}

/** True for the column that numbers the turns: changing it reorders turns, which no single-turn change may do. */
export function isTurnOrder(fixture: Fixture, table: string, column: string): boolean {
  return table === fixture.source.turns.table && column === fixture.source.turns.order;
}

function whoseRow(base: Fixture, change: ColumnChange): string {
  if (change.table === base.source.turns.table) return `is turn ${turnOfRow(base, change.row) ?? '?'}'s row`;
  if (change.table === base.source.root.table) return 'is the campaign row';
  return 'is not tied to that turn';
}
