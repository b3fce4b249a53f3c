import type pg from 'pg';
import type { Catalog, Codec, ColumnInfo, ForeignKeyInfo, TableInfo, ValueKind } from './catalog-types.js';
import { quoteTable } from './quote.js';

/** Anything that can run a query: a pool or a client inside a transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

// System schemas and turnkit's own bookkeeping are never part of a game.
const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema', 'turnkit') AND n.nspname NOT LIKE 'pg\\_%'`;

const TABLES_SQL = `
  SELECT c.oid::int8::text AS oid, n.nspname::text AS schema, c.relname::text AS name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND ${USER_SCHEMAS}
  ORDER BY n.nspname, c.relname`;

// Domains resolve to their base type, arrays to their element's (base) type, so the codec sees the storage shape.
const COLUMNS_SQL = `
  SELECT a.attrelid::int8::text AS oid, a.attname::text AS name, format_type(a.atttypid, a.atttypmod) AS type,
         NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS default_expr,
         a.attidentity::text AS identity, a.attgenerated::text AS generated,
         bt.typname::text AS base_type, bt.typcategory::text AS category,
         CASE WHEN et.typtype = 'd' THEN ebt.typname ELSE et.typname END::text AS element_type
  FROM pg_attribute a
  JOIN pg_type t ON t.oid = a.atttypid
  JOIN pg_type bt ON bt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
  LEFT JOIN pg_type et ON et.oid = bt.typelem AND bt.typcategory = 'A'
  LEFT JOIN pg_type ebt ON ebt.oid = et.typbasetype
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
  ORDER BY a.attrelid, a.attnum`;

const CONSTRAINTS_SQL = `
  SELECT con.conrelid::int8::text AS oid, con.conname::text AS name, con.contype::text AS kind,
         con.confrelid::int8::text AS ref_oid, con.condeferrable AS deferrable, con.condeferred AS deferred,
         ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.ord)::text[] AS columns,
         ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.ord)::text[] AS ref_columns
  FROM pg_constraint con
  WHERE con.conrelid = ANY($1::oid[]) AND con.contype IN ('p', 'u', 'f')
  ORDER BY con.conrelid, con.conname`;

interface TableRow { oid: string; schema: string; name: string }
interface ColumnRow {
  oid: string; name: string; type: string; nullable: boolean; default_expr: string | null;
  identity: string; generated: string; base_type: string; category: string; element_type: string | null;
}
interface ConstraintRow {
  oid: string; name: string; kind: string; ref_oid: string; deferrable: boolean; deferred: boolean;
  columns: string[]; ref_columns: string[];
}

/** Display name of a table: bare in `public`, schema-qualified elsewhere. */
export function displayName(schema: string, table: string): string {
  return schema === 'public' ? table : `${schema}.${table}`;
}

/** Reads tables, columns, keys and foreign keys of every user schema from the catalog. */
export async function introspect(db: Queryable): Promise<Catalog> {
  const tables = (await db.query<TableRow>(TABLES_SQL)).rows;
  const oids = tables.map((table) => table.oid);
  const columns = (await db.query<ColumnRow>(COLUMNS_SQL, [oids])).rows;
  const constraints = (await db.query<ConstraintRow>(CONSTRAINTS_SQL, [oids])).rows;
  const version = (await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]?.v ?? '';

  const byOid = new Map<string, TableInfo>();
  for (const row of tables) {
    byOid.set(row.oid, {
      name: displayName(row.schema, row.name),
      schema: row.schema,
      table: row.name,
      sql: quoteTable(row.schema, row.name),
      columns: [],
      primaryKey: [],
      uniqueKeys: [],
      foreignKeys: [],
    });
  }
  for (const row of columns) byOid.get(row.oid)?.columns.push(toColumn(row));
  for (const row of constraints) {
    const table = byOid.get(row.oid);
    if (!table) continue;
    if (row.kind === 'p') table.primaryKey = row.columns;
    else if (row.kind === 'u') table.uniqueKeys.push(row.columns);
    else {
      const target = byOid.get(row.ref_oid);
      // A foreign key into a system or turnkit table is not part of the game graph.
      if (!target) continue;
      table.foreignKeys.push(toForeignKey(row, target.name));
    }
  }
  return { tables: new Map([...byOid.values()].map((table) => [table.name, table])), serverVersion: version };
}

function toColumn(row: ColumnRow): ColumnInfo {
  return {
    name: row.name,
    type: row.type,
    nullable: row.nullable,
    default: row.generated === 's' ? null : row.default_expr,
    identity: row.identity === 'a' ? 'always' : row.identity === 'd' ? 'by default' : null,
    generated: row.generated === 's' ? row.default_expr : null,
    codec: codecFor(row),
  };
}

function toForeignKey(row: ConstraintRow, target: string): ForeignKeyInfo {
  return {
    name: row.name,
    columns: row.columns,
    references: { table: target, columns: row.ref_columns },
    deferrable: row.deferrable,
    initiallyDeferred: row.deferred,
  };
}

function codecFor(row: ColumnRow): Codec {
  if (row.category === 'A' && row.element_type) return { kind: 'array', element: kindOf(row.element_type) };
  return { kind: kindOf(row.base_type) };
}

/** The value kind of a base type name. */
export function kindOf(typeName: string): ValueKind {
  switch (typeName) {
    case 'int2': case 'int4': case 'oid': return 'int';
    case 'float4': case 'float8': return 'float';
    case 'int8': return 'bigint';
    case 'numeric': return 'numeric';
    case 'bool': return 'bool';
    case 'json': case 'jsonb': return 'json';
    case 'bytea': return 'bytea';
    case 'timestamptz': return 'timestamptz';
    case 'timestamp': return 'timestamp';
    default: return 'text';
  }
}
