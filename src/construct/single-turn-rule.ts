import type { Fixture } from '../fixture/format.js';
import { changePath, type ColumnChange } from './column-change.js';
import { valueProblem } from './column-values.js';
import { embeddedKeyName, findRow, tableNamed } from './row-key.js';
import { rowsTiedToTurn, turnOfRow, turnsInOrder } from './turn-rows.js';

/**
 * Checks that changes obey the single-turn rule against a base: the turn is a kept turn before the input turn,
 * every changed row exists and is tied to that turn, and no key, foreign key or generated column changes.
 * Returns one line per offending path; none means the changes may be recorded or applied.
 */
export function checkSingleTurn(base: Fixture, changes: readonly ColumnChange[], turn: number): string[] {
  const badTurn = turnProblem(base, turn);
  if (badTurn) return [badTurn];
  if (changes.length === 0) return ['no change: the edited fixture equals the base'];
  const tied = rowsTiedToTurn(base, turn);
  const problems: string[] = [];
  for (const change of changes) {
    const table = tableNamed(base, change.table);
    if (!table) {
      problems.push(`${change.table}: no such table in ${base.name}`);
      continue;
    }
    const path = changePath(change, table.primaryKey);
    const row = findRow(table, change.row);
    if (!row) {
      problems.push(`${path}: no such row in ${base.name}`);
      continue;
    }
    if (!table.columns.some((column) => column.name === change.column)) {
      problems.push(`${path}: no such column in ${change.table}`);
      continue;
    }
    if (change.embeddedKey !== undefined && change.embeddedKey !== embeddedKeyName(table.primaryKey)) {
      problems.push(
        `${path}: the changeset keys ${change.table} rows by "${change.embeddedKey}", but its primary key is ${embeddedKeyName(table.primaryKey) || 'missing'}`,
      );
      continue;
    }
    if (!tied.get(change.table)?.has(change.row)) {
      problems.push(`${path}: ${whoseRow(base, change)}, not a row of turn ${turn}`);
      continue;
    }
    const locked = lockReason(base, change.table, change.column);
    if (locked) {
      problems.push(`${path}: is ${locked}`);
      continue;
    }
    const unfit = valueProblem(table.columns.find((column) => column.name === change.column)!, change.value);
    if (unfit) problems.push(`${path}: new value ${JSON.stringify(change.value)}: the column ${unfit}`);
  }
  return problems;
}

/** Why a turn cannot be the one a constructed fixture changes (not upstream of the input, not kept), or undefined. */
export function turnProblem(base: Fixture, turn: number): string | undefined {
  const inputTurn = base.input.turn;
  if (turn >= inputTurn)
    return `turn ${turn} is at or after the fixture's input turn ${inputTurn}; construct from an upstream turn (1..${inputTurn - 1})`;
  const kept = turnsInOrder(base).length;
  if (turn < 1 || turn > kept) return `turn ${turn} is not a kept turn of ${base.name} (it keeps turns 1..${kept})`;
  return undefined;
}

/**
 * Why no constructed fixture may change a column, or undefined: keys and foreign keys name rows, the database
 * computes generated columns, and the turn order column numbers the turns (changing it would move other turns).
 */
export function lockReason(fixture: Fixture, tableName: string, column: string): string | undefined {
  const table = tableNamed(fixture, tableName);
  if (!table) return undefined;
  if (table.primaryKey.includes(column)) return 'part of the primary key (keys cannot change)';
  if (table.foreignKeys.some((fk) => fk.columns.includes(column))) return 'a foreign key column (keys cannot change)';
  if (table.columns.find((entry) => entry.name === column)?.generated !== undefined)
    return 'a generated column (the database computes it)';
  if (tableName === fixture.source.turns.table && column === fixture.source.turns.order)
    return 'the turn order column (changing it would move other turns)';
  return undefined;
}

function whoseRow(base: Fixture, change: ColumnChange): string {
  if (change.table === base.source.turns.table) return `is turn ${turnOfRow(base, change.row) ?? '?'}'s row`;
  if (change.table === base.source.root.table) return 'is the campaign row';
  return 'is not tied to that turn';
}
