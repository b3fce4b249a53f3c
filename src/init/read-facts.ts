import type { Catalog, ColumnInfo, TableInfo } from '../db/catalog-types.js';
import type { Queryable } from '../db/introspect.js';
import { displayName } from '../db/introspect.js';
import { quoteIdent } from '../db/quote.js';
import { isMigrationTable } from './migration-tables.js';

/** What `init` reads besides the catalog: enum labels, unique indexes, and a few counts of the game's rows. */
export interface InitFacts {
  /** Labels of enum-typed columns, in the enum's order, by `table.column`. */
  enums: Map<string, string[]>;
  /** Unique constraints and unique indexes (plain columns, no predicate), by table. */
  unique: Map<string, string[][]>;
  /**
   * For integer columns named like a turn: the row count, and per foreign key (`a,b`; '' for none) the most rows
   * sharing a value under one parent row.
   */
  turnSharing: Map<string, TurnSharing>;
  /** For text columns named like a role: their values that read like a role (at most 20, most used first). */
  roleValues: Map<string, string[]>;
  /** Text columns named like a role that hold no value yet: which rows are the player's is asked, never guessed. */
  unreadRoles?: Set<string>;
}

/** How rows share the values of a turn-like column. */
export interface TurnSharing {
  rows: number;
  most: Record<string, number>;
}

/** No facts: what the tests' hand-built catalogs and a catalog read without data have. */
export const NO_FACTS: InitFacts = {
  enums: new Map(),
  unique: new Map(),
  turnSharing: new Map(),
  roleValues: new Map(),
};

/** Integer columns that may be the game's own turn number. */
export const TURN_COLUMN = /^(turn|turn_?number|turn_?no|turn_?index|round|round_?number)$/i;
/** Text or enum columns that may say which rows of a turn are the player's. */
export const ROLE_COLUMN = /^(type|role|kind|speaker|sender|author_?type|entry_?type|message_?type|source)$/i;
// Values of a text role column that may be shown and proposed: words of a game's structure, never a person's name.
const ROLE_WORD =
  /^(action|actions|player|players|user|users|human|input|command|move|say|said|narration|narrator|narrative|gm|dm|game_?master|assistant|ai|bot|model|system|dice|roll|dice_?roll|note|event|output|response|reply|answer|tool|function|summary|ooc)$/i;

const ENUMS_SQL = `
  SELECT n.nspname::text AS schema, c.relname::text AS table, a.attname::text AS column,
         ARRAY(SELECT e.enumlabel::text FROM pg_enum e WHERE e.enumtypid = a.atttypid ORDER BY e.enumsortorder)::text[] AS labels
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_type t ON t.oid = a.atttypid
  WHERE t.typtype = 'e' AND a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p')`;

const UNIQUE_SQL = `
  SELECT n.nspname::text AS schema, c.relname::text AS table,
         ARRAY(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY k(num, ord)
               JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.num ORDER BY k.ord)::text[] AS columns
  FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE i.indisunique AND NOT i.indisprimary AND i.indpred IS NULL AND i.indexprs IS NULL AND c.relkind IN ('r', 'p')`;

/** Reads the facts `init` ranks its candidates by; the row counts are read only for columns named like a turn or role. */
export async function readInitFacts(db: Queryable, catalog: Catalog): Promise<InitFacts> {
  const facts: InitFacts = {
    enums: new Map(),
    unique: new Map(),
    turnSharing: new Map(),
    roleValues: new Map(),
    unreadRoles: new Set(),
  };
  for (const row of (await db.query<{ schema: string; table: string; column: string; labels: string[] }>(ENUMS_SQL))
    .rows) {
    facts.enums.set(`${displayName(row.schema, row.table)}.${row.column}`, row.labels);
  }
  for (const row of (await db.query<{ schema: string; table: string; columns: string[] }>(UNIQUE_SQL)).rows) {
    const name = displayName(row.schema, row.table);
    const list = facts.unique.get(name) ?? [];
    if (!list.some((columns) => columns.join() === row.columns.join())) list.push(row.columns);
    facts.unique.set(name, list);
  }
  for (const table of catalog.tables.values()) {
    if (isMigrationTable(table)) continue;
    for (const column of table.columns) {
      if (column.generated) continue;
      if (TURN_COLUMN.test(column.name) && isInteger(column)) {
        facts.turnSharing.set(`${table.name}.${column.name}`, await sharing(db, table, column));
      }
      const key = `${table.name}.${column.name}`;
      if (ROLE_COLUMN.test(column.name) && column.codec.kind === 'text' && !facts.enums.has(key)) {
        const { rows } = await db.query<{ value: string }>(
          `SELECT ${quoteIdent(column.name)}::text AS value FROM ${table.from} WHERE ${quoteIdent(column.name)} IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 50`,
        );
        if (rows.length === 0) facts.unreadRoles!.add(key);
        facts.roleValues.set(
          key,
          rows
            .map((row) => row.value)
            .filter((value) => ROLE_WORD.test(value))
            .slice(0, 20),
        );
      }
    }
  }
  return facts;
}

/** Whether a column holds integers (a turn number). */
export function isInteger(column: ColumnInfo): boolean {
  return column.codec.kind === 'int' || column.codec.kind === 'bigint';
}

// Rows sharing a turn value under one parent row, for each foreign key (which one leads to the campaign is known
// only once the root is chosen): several rows under one parent make one turn.
async function sharing(db: Queryable, table: TableInfo, column: ColumnInfo): Promise<TurnSharing> {
  const turn = quoteIdent(column.name);
  const count = await db.query<{ n: string }>(`SELECT count(*)::int8::text AS n FROM ${table.from}`);
  const most: Record<string, number> = {};
  for (const parent of [[], ...table.foreignKeys.map((fk) => fk.columns)]) {
    const key = parent.join(',');
    if (key in most) continue;
    const notNull = [column.name, ...parent].map((name) => `${quoteIdent(name)} IS NOT NULL`).join(' AND ');
    const groupBy = [...parent.map(quoteIdent), turn].join(', ');
    const { rows } = await db.query<{ most: string | null }>(
      `SELECT max(n)::int8::text AS most FROM (SELECT count(*) AS n FROM ${table.from} WHERE ${notNull} GROUP BY ${groupBy}) AS groups`,
    );
    most[key] = Number(rows[0]?.most ?? 0);
  }
  return { rows: Number(count.rows[0]?.n ?? 0), most };
}
