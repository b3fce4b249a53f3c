import type { Queryable } from '../db/introspect.js';
import { TurnkitError } from '../errors.js';
import type { SchemaSnapshot } from '../fixture/capture/schema-snapshot.js';

/**
 * Rebuilds a snapshot's schema in an empty database: its statements, the migration tool's rows (the game's command
 * then runs only what came after), and every sequence moved past its column's largest value.
 */
export async function rebuildSchema(client: Queryable, snapshot: SchemaSnapshot, shown: string): Promise<void> {
  for (const [i, statement] of snapshot.statements.entries()) {
    try {
      await client.query(statement);
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      throw new TurnkitError('DATABASE', `${shown}: $.statements[${i}]: cannot rebuild the schema: ${message}`);
    }
  }
  for (const table of await referencedFirst(client, Object.keys(snapshot.rows))) {
    const rows = snapshot.rows[table]!;
    if (rows.length === 0) continue;
    const name = table
      .split('.')
      .map((part) => `"${part.replace(/"/g, '""')}"`)
      .join('.');
    await client.query(
      `INSERT INTO ${name} OVERRIDING SYSTEM VALUE SELECT * FROM jsonb_populate_recordset(NULL::${name}, $1::jsonb)`,
      [JSON.stringify(rows)],
    );
  }
  await advanceAllSequences(client);
}

/**
 * The bookkeeping tables in an order their rows can be inserted in: a table after the ones its foreign keys
 * reference (sqitch's changes after its projects, its tags after its changes); tables are named `schema.table`.
 */
async function referencedFirst(client: Queryable, tables: readonly string[]): Promise<string[]> {
  if (tables.length < 2) return [...tables];
  const { rows } = await client.query(
    `SELECT cn.nspname || '.' || c.relname AS child, pn.nspname || '.' || p.relname AS parent
     FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace cn ON cn.oid = c.relnamespace
     JOIN pg_class p ON p.oid = k.confrelid JOIN pg_namespace pn ON pn.oid = p.relnamespace
     WHERE k.contype = 'f' AND k.conrelid <> k.confrelid`,
  );
  const wanted = new Set(tables);
  const parents = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const { child, parent } of rows as { child: string; parent: string }[])
    if (wanted.has(child) && wanted.has(parent)) parents.get(child)!.add(parent);
  const order: string[] = [];
  const left = [...tables];
  while (left.length > 0) {
    const next = left.findIndex((table) => [...parents.get(table)!].every((parent) => order.includes(parent)));
    // A cycle of references among them: the rest in the order given (its insert then names the constraint).
    order.push(...left.splice(next === -1 ? 0 : next, next === -1 ? left.length : 1));
  }
  return order;
}

/**
 * Moves every sequence a column uses (identity, serial, or a nextval() default) past that column's largest value,
 * never back: rows written with their captured keys must not be handed out again.
 */
export async function advanceAllSequences(client: Queryable): Promise<void> {
  const { rows } = await client.query(
    `SELECT format('%I.%I', n.nspname, c.relname) AS table, a.attname::text AS column,
            pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) AS sequence
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
       AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
       AND pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) IS NOT NULL`,
  );
  for (const row of rows as { table: string; column: string; sequence: string }[]) {
    await client.query(
      `SELECT setval($1::regclass, m) FROM (SELECT max("${row.column.replace(/"/g, '""')}")::bigint AS m FROM ${row.table}) AS x
       WHERE m IS NOT NULL AND m > coalesce(pg_sequence_last_value($1::regclass), 0)`,
      [row.sequence],
    );
  }
}
