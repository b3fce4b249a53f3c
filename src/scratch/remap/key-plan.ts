import type { ColumnInfo, TableInfo } from '../../db/catalog-types.js';
import type { Queryable } from '../../db/introspect.js';
import type { ColumnShape } from './key-shape.js';

/** Where the new values of a remapped key column come from. */
export type KeySource =
  | { kind: 'sequence'; sequence?: string } // identity column: nextval of its own sequence (its name once resolved)
  | { kind: 'default'; expression: string } // serial and other nextval() defaults: the default itself
  | { kind: 'uuid' } // freshly generated
  // A client-made text id or code (cuid, nanoid, ULID, `usr_...`, a join code): same shape, new value. `shape` is
  // learned from the fixture's values once per run; `checked` (a short code) looks at the live rows under a lock.
  | { kind: 'text'; shape?: ColumnShape; checked?: boolean }
  | { kind: 'range' }; // an integer key the database does not allocate: a range above the live maximum, under a lock

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
  /** Keys kept inside JSON columns (declared `table.column->path` references), rewritten as the key they name. */
  json?: { column: string; path: string[]; origin: KeyOrigin }[];
}

/** The key plan of a scratch campaign: for every remapped table, which columns change and how. */
export type KeyPlan = Map<string, TableKeys>;

/** A key plan, and why a remap cannot copy some tables (the `database` strategy can). */
export interface PlannedKeys {
  keys: KeyPlan;
  /** One line per unique key that would collide with the captured rows: only remap refuses them. */
  problems: string[];
}

/**
 * Works out which columns of the campaign's own tables (root and owned) get new values: key columns that the
 * database allocates (identity, nextval() defaults) or that are uuids, and every foreign-key column that points at
 * one of those, transitively (a composite key inherits the campaign id through its parent). A primary or unique
 * key left with no changed column would collide with the live row it was captured from: one of its columns then
 * gets fresh values of its own (a client-made text id or code keeps its shape, an integer takes a range above the
 * live maximum), unless `keep` names it ('table.column': copies may collide, as the author chose). Shared tables
 * keep their keys. A key that still has no changed column is a problem that only the remap strategy has.
 */
export function planKeys(tables: ReadonlyMap<string, TableInfo>, keep: ReadonlySet<string> = new Set()): PlannedKeys {
  const plan: KeyPlan = new Map();
  for (const [name, info] of tables) plan.set(name, { allocated: allocatedColumns(info), derived: new Map() });
  deriveReferences(tables, plan);
  // Keys are freshened one at a time, the references that follow them derived before the next is looked at: a
  // composite key that contains a reference to a freshened key needs nothing of its own.
  for (let freshened = true; freshened; ) {
    freshened = false;
    for (const [name, info] of tables) {
      const keys = plan.get(name)!;
      for (const key of uniqueKeysOf(info)) {
        if (key.some((column) => isRemapped(keys, column))) continue;
        const column = freshColumn(info, key, keep, name);
        if (!column) continue;
        keys.allocated.set(column.name, column.source);
        deriveReferences(tables, plan);
        freshened = true;
      }
    }
  }
  const problems: string[] = [];
  for (const [name, info] of tables) problems.push(...uncoveredKeys(info, plan.get(name)!, name, keep));
  deriveJsonReferences(tables, plan);
  return { keys: plan, problems };
}

// Fixed point: a column is derived once the column it references is allocated or derived itself.
function deriveReferences(tables: ReadonlyMap<string, TableInfo>, plan: KeyPlan): void {
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
}

// A key kept inside a JSON column follows the key it names, as a foreign-key column does.
function deriveJsonReferences(tables: ReadonlyMap<string, TableInfo>, plan: KeyPlan): void {
  for (const [name, info] of tables) {
    for (const reference of info.jsonReferences ?? []) {
      const parent = plan.get(reference.references.table);
      if (!parent) continue;
      const column = reference.references.column;
      const origin = parent.allocated.has(column)
        ? { table: reference.references.table, column }
        : parent.derived.get(column);
      if (!origin) continue;
      const keys = plan.get(name)!;
      keys.json = [...(keys.json ?? []), { column: reference.column, path: reference.path, origin }];
    }
  }
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
function isRemapped(keys: TableKeys | undefined, column: string): boolean {
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

const TEXT_TYPES = /^(text|character varying|varchar|character|char|bpchar|citext)\b/;

/** The primary key first, then the unique keys: the order in which a key gets a fresh column. */
function uniqueKeysOf(info: TableInfo): string[][] {
  return [info.primaryKey, ...info.uniqueKeys].filter((key) => key.length > 0);
}

// The column of a key that takes fresh values: a text or integer column that is no reference and that the author
// did not ask to keep; the first such, preferring text (an integer beside it is often a position, like a seat).
function freshColumn(
  info: TableInfo,
  key: readonly string[],
  keep: ReadonlySet<string>,
  name: string,
): { name: string; source: KeySource } | undefined {
  const references = new Set(info.foreignKeys.flatMap((fk) => fk.columns));
  const candidates = key
    .map((column) => info.columns.find((candidate) => candidate.name === column)!)
    .filter(
      (column) => !references.has(column.name) && column.generated === null && !keep.has(`${name}.${column.name}`),
    );
  const text = candidates.find((column) => TEXT_TYPES.test(column.type));
  if (text) return { name: text.name, source: { kind: 'text' } };
  const integer = candidates.find((column) => column.codec.kind === 'int' || column.codec.kind === 'bigint');
  return integer && { name: integer.name, source: { kind: 'range' } };
}

function uncoveredKeys(info: TableInfo, keys: TableKeys, name: string, keep: ReadonlySet<string>): string[] {
  return (
    uniqueKeysOf(info)
      .filter((key) => !key.some((column) => isRemapped(keys, column)))
      // A key the author keeps is theirs to keep: its copies may collide, as they chose.
      .filter((key) => !key.some((column) => keep.has(`${name}.${column}`)))
      .map((key) => {
        const kind = key === info.primaryKey ? 'primary key' : 'unique key';
        return (
          `table "${name}": its ${kind} (${key.join(', ')}) has no column turnkit can give a fresh value (text or integer, ` +
          'not a reference), so a scratch copy would collide with the captured rows; use --strategy database (a database of its own per rep)'
        );
      })
  );
}
