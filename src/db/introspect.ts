import type pg from 'pg';
import type { Catalog, Codec, ColumnInfo, ForeignKeyInfo, TableInfo, ValueKind } from './catalog-types.js';
import { quoteTable } from './quote.js';

/** Anything that can run a query: a pool or a client inside a transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

// System schemas and turnkit's own bookkeeping are never part of a game.
const USER_SCHEMAS = `n.nspname NOT IN ('pg_catalog', 'information_schema', 'turnkit') AND n.nspname NOT LIKE 'pg\\_%'`;

const TABLES_SQL = `
  SELECT c.oid::int8::text AS oid, n.nspname::text AS schema, c.relname::text AS name, c.relkind::text AS kind
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND ${USER_SCHEMAS}
  ORDER BY n.nspname, c.relname`;

const COLUMNS_SQL = `
  SELECT a.attrelid::int8::text AS oid, a.attname::text AS name, format_type(a.atttypid, a.atttypmod) AS type,
         a.atttypid::int8::text AS type_oid, NOT a.attnotnull AS nullable, pg_get_expr(d.adbin, d.adrelid) AS default_expr,
         a.attidentity::text AS identity, a.attgenerated::text AS generated
  FROM pg_attribute a
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE a.attrelid = ANY($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
  ORDER BY a.attrelid, a.attnum`;

// Every type the columns use, with the domains' base types and the arrays' element types, to any depth.
const TYPES_SQL = `
  WITH RECURSIVE used(oid) AS (
    SELECT DISTINCT atttypid FROM pg_attribute WHERE attrelid = ANY($1::oid[]) AND attnum > 0 AND NOT attisdropped
    UNION
    SELECT next.oid FROM used JOIN pg_type t ON t.oid = used.oid
    CROSS JOIN LATERAL (VALUES (t.typbasetype), (t.typelem)) AS next(oid) WHERE next.oid <> 0
  )
  SELECT t.oid::int8::text AS oid, t.typname::text AS name, t.typtype::text AS kind, t.typcategory::text AS category,
         t.typbasetype::int8::text AS base, t.typelem::int8::text AS element, t.typdelim::text AS delimiter
  FROM pg_type t JOIN used ON used.oid = t.oid`;

const CONSTRAINTS_SQL = `
  SELECT * FROM (
  SELECT con.conrelid::int8::text AS oid, con.conname::text AS name, con.contype::text AS kind,
         con.confrelid::int8::text AS ref_oid, con.condeferrable AS deferrable, con.condeferred AS deferred,
         con.confdeltype::text AS on_delete,
         ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num ORDER BY k.ord)::text[] AS columns,
         ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.num ORDER BY k.ord)::text[] AS ref_columns
  FROM pg_constraint con
  WHERE con.conrelid = ANY($1::oid[]) AND con.contype IN ('p', 'u', 'f')
  UNION ALL
  -- Unique indexes that are no constraint (ORMs such as Prisma make @unique one): whole columns only, no predicate.
  SELECT i.indrelid::int8::text, c.relname::text, 'i', '0', false, false, '',
         ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.num ORDER BY k.ord)::text[],
         ARRAY[]::text[]
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE i.indrelid = ANY($1::oid[]) AND i.indisunique AND NOT i.indisprimary AND i.indexprs IS NULL
    AND i.indpred IS NULL AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = i.indexrelid AND con.contype IN ('p', 'u', 'x'))
  ) AS u
  -- In the catalog's own order of names (byte order), whatever the database's collation: fixtures list keys so.
  ORDER BY u.oid, u.name COLLATE "C"`;

interface TableRow {
  oid: string;
  schema: string;
  name: string;
  kind: string;
}
interface ColumnRow {
  oid: string;
  name: string;
  type: string;
  type_oid: string;
  nullable: boolean;
  default_expr: string | null;
  identity: string;
  generated: string;
}
interface TypeRow {
  oid: string;
  name: string;
  kind: string;
  category: string;
  base: string;
  element: string;
  delimiter: string;
}
interface ConstraintRow {
  oid: string;
  name: string;
  kind: string;
  ref_oid: string;
  deferrable: boolean;
  deferred: boolean;
  on_delete: string;
  columns: string[];
  ref_columns: string[];
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
  const types = new Map((await db.query<TypeRow>(TYPES_SQL, [oids])).rows.map((row) => [row.oid, row]));
  const version = (await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]?.v ?? '';

  const byOid = new Map<string, TableInfo>();
  for (const row of tables) {
    byOid.set(row.oid, {
      name: displayName(row.schema, row.name),
      schema: row.schema,
      table: row.name,
      sql: quoteTable(row.schema, row.name),
      from: row.kind === 'p' ? quoteTable(row.schema, row.name) : `ONLY ${quoteTable(row.schema, row.name)}`,
      columns: [],
      primaryKey: [],
      uniqueKeys: [],
      foreignKeys: [],
    });
  }
  for (const row of columns) byOid.get(row.oid)?.columns.push(toColumn(row, codecFor(row.type_oid, types)));
  for (const row of constraints) {
    const table = byOid.get(row.oid);
    if (!table) continue;
    if (row.kind === 'p') table.primaryKey = row.columns;
    else if (row.kind === 'u' || row.kind === 'i') table.uniqueKeys.push(row.columns);
    else {
      const target = byOid.get(row.ref_oid);
      // A foreign key into a system or turnkit table is not part of the game graph.
      if (!target) continue;
      table.foreignKeys.push(toForeignKey(row, target.name));
    }
  }
  return { tables: new Map([...byOid.values()].map((table) => [table.name, table])), serverVersion: version };
}

function toColumn(row: ColumnRow, codec: Codec): ColumnInfo {
  // 's' is a stored generated column; 'v' a virtual one (PostgreSQL 18: the embedded server).
  const isGenerated = row.generated === 's' || row.generated === 'v';
  return {
    name: row.name,
    type: row.type,
    nullable: row.nullable,
    default: isGenerated ? null : row.default_expr,
    identity: row.identity === 'a' ? 'always' : row.identity === 'd' ? 'by default' : null,
    generated: isGenerated ? row.default_expr : null,
    codec,
  };
}

function toForeignKey(row: ConstraintRow, target: string): ForeignKeyInfo {
  return {
    name: row.name,
    columns: row.columns,
    references: { table: target, columns: row.ref_columns },
    deferrable: row.deferrable,
    initiallyDeferred: row.deferred,
    onDelete: ON_DELETE[row.on_delete] ?? 'no action',
  };
}

const ON_DELETE: Record<string, ForeignKeyInfo['onDelete']> = {
  a: 'no action',
  r: 'restrict',
  c: 'cascade',
  n: 'set null',
  d: 'set default',
};

/** The codec of a type: domains (to any depth) resolve to their base type, arrays to their element's. */
function codecFor(oid: string, types: Map<string, TypeRow>): Codec {
  const type = baseOf(oid, types);
  if (type?.category !== 'A') return { kind: kindOf(type?.name ?? '') };
  const element = baseOf(type.element, types);
  // Elements separated by something other than a comma (box uses ";") stay as Postgres prints the array.
  if (element?.delimiter !== ',') return { kind: 'text' };
  return { kind: 'array', element: kindOf(element.name) };
}

function baseOf(oid: string, types: Map<string, TypeRow>): TypeRow | undefined {
  let type = types.get(oid);
  for (let depth = 0; type?.kind === 'd' && depth < 32; depth++) type = types.get(type.base);
  return type;
}

/** The value kind of a base type name. */
function kindOf(typeName: string): ValueKind {
  switch (typeName) {
    case 'int2':
    case 'int4':
    case 'oid':
      return 'int';
    case 'float4':
    case 'float8':
      return 'float';
    case 'int8':
      return 'bigint';
    case 'numeric':
      return 'numeric';
    case 'bool':
      return 'bool';
    case 'json':
    case 'jsonb':
      return 'json';
    case 'bytea':
      return 'bytea';
    case 'timestamptz':
      return 'timestamptz';
    case 'timestamp':
      return 'timestamp';
    default:
      return 'text';
  }
}
