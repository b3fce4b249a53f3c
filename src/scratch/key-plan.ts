import { TurnkitError } from '../errors.js';
import type { ColumnInfo, TableInfo } from '../db/catalog-types.js';
import type { Queryable } from '../db/introspect.js';

/** Where the new values of a remapped key column come from. */
export type KeySource =
  | { kind: 'sequence'; sequence?: string } // identity column: nextval of its own sequence (its name once resolved)
  | { kind: 'default'; expression: string } // serial and other nextval() defaults: the default itself
  | { kind: 'uuid' }; // freshly generated

/** A column whose values follow another table's remapped key through a foreign key. */
export interface KeyOrigin {
  table: string;
  column: string;
}

/** How the keys of one table change in a scratch campaign. */
export interface TableKeys {
  /** Columns that get new values of their own. */
  allocated: Map<string, KeySource>;
  /** Foreign-key columns rewritten to the new value of the key they point at. */
  derived: Map<string, KeyOrigin>;
}

/** The key plan of a scratch campaign: for every remapped table, which columns change and how. */
export type KeyPlan = Map<string, TableKeys>;

/**
 * Works out which columns of the campaign's own tables (root and owned) get new values: key columns that the
 * database allocates (identity, nextval() defaults) or that are uuids, and every foreign-key column that points at
 * one of those, transitively (a composite key inherits the campaign id through its parent). Shared tables keep
 * their keys. A unique key with no remapped column would collide with the live row it was captured from, so it
 * is an error that points to the `database` strategy.
 */
export function planKeys(tables: ReadonlyMap<string, TableInfo>): KeyPlan {
  const plan: KeyPlan = new Map();
  for (const [name, info] of tables) plan.set(name, { allocated: allocatedColumns(info), derived: new Map() });

  // Fixed point: a column is derived once the column it references is allocated or derived itself.
  let changed = true;
  while (changed) {
    changed = false;
    for (const [name, info] of tables) {
      const keys = plan.get(name)!;
      for (const fk of info.foreignKeys) {
        const parent = plan.get(fk.references.table);
        if (!parent) continue;
        fk.columns.forEach((column, i) => {
          if (keys.derived.has(column) || keys.allocated.has(column)) return;
          const referenced = fk.references.columns[i]!;
          const origin = parent.allocated.has(referenced)
            ? { table: fk.references.table, column: referenced }
            : parent.derived.get(referenced);
          if (!origin) return;
          keys.derived.set(column, origin);
          changed = true;
        });
      }
    }
  }

  for (const [name, info] of tables) checkUniqueKeysRemapped(info, plan.get(name)!, name);
  return plan;
}

/**
 * Looks up the sequence behind every identity column of the plan once, so each rep's allocation names it directly
 * instead of asking the catalog again per value.
 */
export async function resolveSequences(
  db: Queryable,
  plan: KeyPlan,
  tables: ReadonlyMap<string, TableInfo>,
): Promise<void> {
  const wanted = [...plan].flatMap(([table, keys]) =>
    [...keys.allocated].filter(([, source]) => source.kind === 'sequence').map(([column]) => ({ table, column })),
  );
  if (wanted.length === 0) return;
  const result = await db.query({
    text: 'SELECT pg_get_serial_sequence(t, c) AS name FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(t, c, n) ORDER BY n',
    values: [wanted.map(({ table }) => tables.get(table)!.sql), wanted.map(({ column }) => column)],
  });
  wanted.forEach(({ table, column }, i) => {
    const name = result.rows[i]?.name as string | null;
    if (name) plan.get(table)!.allocated.set(column, { kind: 'sequence', sequence: name });
  });
}

/** True when the column changes in a scratch campaign. */
export function isRemapped(keys: TableKeys | undefined, column: string): boolean {
  return !!keys && (keys.allocated.has(column) || keys.derived.has(column));
}

function allocatedColumns(info: TableInfo): Map<string, KeySource> {
  // A column of any foreign key is a reference, never a key of its own: into the campaign it follows the new key,
  // into a shared table (a uuid pointing at a user, say) it keeps its value.
  const references = new Set(info.foreignKeys.flatMap((fk) => fk.columns));
  const keyColumns = new Set([...info.primaryKey, ...info.uniqueKeys.flat()]);
  const allocated = new Map<string, KeySource>();
  for (const column of info.columns) {
    if (!keyColumns.has(column.name) || references.has(column.name) || column.generated !== null) continue;
    const source = keySource(column);
    if (source) allocated.set(column.name, source);
  }
  return allocated;
}

function keySource(column: ColumnInfo): KeySource | undefined {
  if (column.identity) return { kind: 'sequence' };
  if (column.default && /\bnextval\s*\(/i.test(column.default)) return { kind: 'default', expression: column.default };
  if (column.type === 'uuid') return { kind: 'uuid' };
  return undefined;
}

function checkUniqueKeysRemapped(info: TableInfo, keys: TableKeys, name: string): void {
  const uniqueKeys = [info.primaryKey, ...info.uniqueKeys].filter((key) => key.length > 0);
  for (const key of uniqueKeys) {
    if (key.some((column) => isRemapped(keys, column))) continue;
    const kind = key === info.primaryKey ? 'primary key' : 'unique key';
    throw new TurnkitError(
      'FIXTURE',
      `table "${name}": its ${kind} (${key.join(', ')}) is not allocated by the database and references no remapped key, ` +
        'so a scratch copy would collide with the captured rows; use --strategy database (a database of its own per rep)',
    );
  }
}
