import type { Catalog, ColumnInfo, TableInfo } from '../db/catalog-types.js';
import { describeTable } from '../fixture/capture/build-fixture.js';
import { isMigrationBookkeeping } from '../fixture/capture/migration-state.js';

/**
 * How the migrated scratch schema differs from the live one, one line per table (every live table and the
 * fixtures'); empty: the upgrade reached it. Migration bookkeeping is left out: compared as the migration state.
 */
export function schemaDifferences(
  live: Catalog,
  migrated: Catalog,
  fixtureTables: Iterable<string>,
  migrationTable?: string,
): string[] {
  const names = new Set([...live.tables.keys(), ...fixtureTables]);
  const lines: string[] = [];
  for (const name of [...names].sort()) {
    const before = live.tables.get(name);
    const after = migrated.tables.get(name);
    const table = before ?? after!;
    if (isMigrationBookkeeping(table.table, table.schema) || `${table.schema}.${table.table}` === migrationTable)
      continue;
    if (before && !after) lines.push(`${name}: in the live database, not after the migrations`);
    else if (!before && after) lines.push(`${name}: made by the migrations, not in the live database`);
    else if (before && after) {
      const differs = tableDifference(before, after);
      if (differs) lines.push(`${name}: ${differs}`);
    }
  }
  return lines;
}

// What differs in one table, said by column where it can be; undefined when it is the same. Column order is not
// compared: a live database migrated in another order holds the same table.
function tableDifference(live: TableInfo, migrated: TableInfo): string | undefined {
  const liveColumns = new Map(live.columns.map((column) => [column.name, column]));
  const migratedColumns = new Map(migrated.columns.map((column) => [column.name, column]));
  const parts: string[] = [];
  for (const [name, column] of liveColumns) {
    const other = migratedColumns.get(name);
    if (!other) parts.push(`column ${name} (${column.type}) in the live database, not after the migrations`);
    else {
      const change = columnChange(column, other);
      if (change) parts.push(`column ${name} ${change}`);
    }
  }
  for (const [name, column] of migratedColumns)
    if (!liveColumns.has(name)) parts.push(`column ${name} (${column.type}) made by the migrations, not live`);
  if (parts.length > 0) return parts.join('; ');
  const keys = (table: TableInfo): string => {
    const { primaryKey, foreignKeys } = describeTable(table);
    return JSON.stringify([primaryKey, [...(foreignKeys ?? [])].sort((a, b) => (a.name < b.name ? -1 : 1))]);
  };
  return keys(live) === keys(migrated) ? undefined : 'its keys differ';
}

function columnChange(live: ColumnInfo, migrated: ColumnInfo): string | undefined {
  if (live.type !== migrated.type) return `is ${live.type} live, ${migrated.type} after the migrations`;
  if (live.nullable !== migrated.nullable)
    return `is ${live.nullable ? 'nullable' : 'NOT NULL'} live, ${migrated.nullable ? 'nullable' : 'NOT NULL'} after the migrations`;
  if ((live.default ?? null) !== (migrated.default ?? null))
    return `has default ${live.default ?? 'none'} live, ${migrated.default ?? 'none'} after the migrations`;
  return undefined;
}
