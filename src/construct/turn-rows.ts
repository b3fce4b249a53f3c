import { compareDecimalStrings } from '../fixture/row-order.js';
import { keyOf } from '../fixture/check-fixture.js';
import type { Fixture, FixtureRow } from '../fixture/format.js';
import { rowKey } from './row-key.js';

/** One kept turn of a fixture: its position (turn number), its row and the input and narration to show. */
export interface TurnEntry {
  turn: number;
  row: FixtureRow;
}

/** The kept turns of a fixture in turn order: turn N is the N-th row by the order column (NULLs last), ties by key. */
export function turnsInOrder(fixture: Fixture): TurnEntry[] {
  const table = fixture.tables[fixture.source.turns.table];
  if (!table) return [];
  const order = fixture.source.turns.order;
  const rows = [...table.rows].sort((a, b) => compareOrder(a[order], b[order]) || compareKeys(a, b, table.primaryKey));
  return rows.map((row, i) => ({ turn: i + 1, row }));
}

/**
 * The rows tied to one turn, per table, as changeset row keys: the turn's own row and every owned row that
 * references a tied row through a foreign key (directly or through other tied rows). Campaign-level rows, rows of
 * other turns and shared rows are not tied.
 */
export function rowsTiedToTurn(fixture: Fixture, turn: number): Map<string, Set<string>> {
  const tied = new Map<string, Set<string>>();
  const entry = turnsInOrder(fixture)[turn - 1];
  const turnsTable = fixture.source.turns.table;
  const turns = fixture.tables[turnsTable];
  if (!entry || !turns) return tied;
  const tiedRows = new Map<string, FixtureRow[]>([[turnsTable, [entry.row]]]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, table] of Object.entries(fixture.tables)) {
      // Another turn that points at this one (a parent_turn_id, say) is a turn of its own, not part of this one.
      if (table.role !== 'owned' || name === turnsTable) continue;
      const already = tiedRows.get(name) ?? [];
      for (const fk of table.foreignKeys) {
        const parents = tiedRows.get(fk.references.table);
        if (!parents || parents.length === 0) continue;
        const parentKeys = new Set(parents.map((row) => keyOf(row, fk.references.columns)));
        for (const row of table.rows) {
          if (already.includes(row) || !parentKeys.has(keyOf(row, fk.columns))) continue;
          already.push(row);
          grew = true;
        }
      }
      if (already.length > 0) tiedRows.set(name, already);
    }
  }
  for (const [name, rows] of tiedRows) {
    const table = fixture.tables[name]!;
    tied.set(name, new Set(rows.map((row) => rowKey(row, table.primaryKey))));
  }
  return tied;
}

/**
 * The turn a row is tied to (see rowsTiedToTurn), found by following its foreign keys up to a turn row rather than
 * by computing every turn's rows; undefined for campaign-level rows.
 */
export function turnOfTiedRow(fixture: Fixture, table: string, key: string): number | undefined {
  const turnsTable = fixture.source.turns.table;
  if (table === turnsTable) return turnOfRow(fixture, key);
  const seen = new Set<string>();
  const climb = (tableName: string, row: FixtureRow): number | undefined => {
    const source = fixture.tables[tableName];
    if (source?.role !== 'owned') return undefined;
    for (const fk of source.foreignKeys) {
      const parentTable = fixture.tables[fk.references.table];
      if (!parentTable || fk.columns.some((column) => row[column] === null || row[column] === undefined)) continue;
      const wanted = keyOf(row, fk.columns);
      const parent = parentTable.rows.find((candidate) => keyOf(candidate, fk.references.columns) === wanted);
      if (!parent) continue;
      const parentKey = rowKey(parent, parentTable.primaryKey);
      if (fk.references.table === turnsTable) return turnOfRow(fixture, parentKey);
      if (seen.has(`${fk.references.table}\u0000${parentKey}`)) continue;
      seen.add(`${fk.references.table}\u0000${parentKey}`);
      const found = climb(fk.references.table, parent);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const row = fixture.tables[table]?.rows.find(
    (candidate) => rowKey(candidate, fixture.tables[table]!.primaryKey) === key,
  );
  return row ? climb(table, row) : undefined;
}

/** The turn a row of the turns table sits at, or undefined when it is not a kept turn. */
export function turnOfRow(fixture: Fixture, key: string): number | undefined {
  const table = fixture.tables[fixture.source.turns.table];
  if (!table) return undefined;
  return turnsInOrder(fixture).find((entry) => rowKey(entry.row, table.primaryKey) === key)?.turn;
}

function compareOrder(a: unknown, b: unknown): number {
  if (a === null || a === undefined || b === null || b === undefined)
    return a === b ? 0 : a === null || a === undefined ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  // bigint and numeric order columns are decimal strings; timestamps are ISO text pinned to one offset by capture.
  return compareDecimalStrings(x, y) ?? (x < y ? -1 : x > y ? 1 : 0);
}

function compareKeys(a: FixtureRow, b: FixtureRow, primaryKey: readonly string[]): number {
  for (const column of primaryKey) {
    const order = compareOrder(a[column], b[column]);
    if (order !== 0) return order;
  }
  return 0;
}
