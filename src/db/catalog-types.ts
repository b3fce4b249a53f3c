/** How turnkit turns a column's text output into a fixture value. */
export type ValueKind =
  | 'array'
  | 'int'
  | 'float'
  | 'bigint'
  | 'numeric'
  | 'bool'
  | 'json'
  | 'bytea'
  | 'timestamptz'
  | 'timestamp'
  | 'text';

/** A column's codec: its value kind, and for arrays the element's. */
export interface Codec {
  kind: ValueKind;
  /** Set for array columns: how each element is decoded. */
  element?: ValueKind;
}

/** A column as the catalog describes it. */
export interface ColumnInfo {
  name: string;
  /** The type as Postgres prints it, e.g. `numeric(6,2)`, `text[]`. */
  type: string;
  nullable: boolean;
  default: string | null;
  identity: 'always' | 'by default' | null;
  /** The expression of a generated column. */
  generated: string | null;
  codec: Codec;
}

/** A foreign key from one table to another (or itself). */
export interface ForeignKeyInfo {
  name: string;
  columns: string[];
  references: { table: string; columns: string[] };
  deferrable: boolean;
  initiallyDeferred: boolean;
  /** What deleting a referenced row does to the referencing ones. */
  onDelete: 'no action' | 'restrict' | 'cascade' | 'set null' | 'set default';
  /** A reference the game config declares (`game.references`), with no constraint in the database behind it. */
  declared?: boolean;
}

/** A table with everything turnkit needs from the catalog. */
export interface TableInfo {
  /** Display name: the bare table name in `public`, `schema.table` elsewhere. */
  name: string;
  schema: string;
  table: string;
  /** The table as a quoted SQL identifier: `"public"."Odd Name"`. */
  sql: string;
  /** What to read its rows from: `ONLY "s"."t"` for plain tables (an inheritance child is a table of its own),
   * the bare name for a partitioned table (its rows live in its partitions). */
  from: string;
  columns: ColumnInfo[];
  primaryKey: string[];
  uniqueKeys: string[][];
  foreignKeys: ForeignKeyInfo[];
  /** Keys of other rows kept inside a JSON column, as `game.references` declares them (`t.metadata->npc_id`). */
  jsonReferences?: JsonReferenceInfo[];
}

/**
 * A key of another row kept at a path inside a json or jsonb column (`metadata->npc_entry_id`): sliced and remapped
 * like a foreign key, never part of the schema. The value there is a JSON string or number.
 */
export interface JsonReferenceInfo {
  /** The declaration, as the config writes it (`table.column->key->key`). */
  name: string;
  column: string;
  /** Object keys from the column's value down to the key. */
  path: string[];
  references: { table: string; column: string };
}

/** Every user table of the database, by display name. */
export interface Catalog {
  tables: Map<string, TableInfo>;
  serverVersion: string;
}
