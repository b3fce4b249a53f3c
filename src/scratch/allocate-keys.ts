import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/introspect.js';
import type { TableInfo } from '../db/catalog-types.js';
import { RAW_TEXT_TYPES } from '../fixture/row-query.js';
import type { KeyPlan } from './key-plan.js';

/** New key values per table and column, one per fixture row, in the fixture's row order. */
export type Allocations = Map<string, Map<string, string[]>>;

/**
 * Allocates every new key value of a scratch campaign in one round trip: identity and serial columns take
 * values from their own sequences (so the live game's next insert never collides, and no sequence is ever reset
 * or read with max()+1), uuids are generated here.
 */
export async function allocateKeys(
  db: Queryable,
  plan: KeyPlan,
  tables: ReadonlyMap<string, TableInfo>,
  rowCounts: ReadonlyMap<string, number>,
  /** SQL to evaluate in the same round trip (taking a lock, say). */
  alongside?: string,
): Promise<Allocations> {
  const allocations: Allocations = new Map();
  const selects: string[] = [];
  const values: unknown[] = [];
  const targets: { table: string; column: string }[] = [];
  for (const [name, keys] of plan) {
    const count = rowCounts.get(name) ?? 0;
    const perColumn = new Map<string, string[]>();
    allocations.set(name, perColumn);
    for (const [column, source] of keys.allocated) {
      if (count === 0) perColumn.set(column, []);
      else if (source.kind === 'uuid')
        perColumn.set(
          column,
          Array.from({ length: count }, () => randomUUID()),
        );
      else {
        values.push(count);
        const series = `generate_series(1, $${values.length}::int)`;
        if (source.kind === 'sequence' && source.sequence) {
          values.push(source.sequence);
          selects.push(`ARRAY(SELECT nextval($${values.length}::regclass)::text FROM ${series})`);
        } else if (source.kind === 'sequence') {
          values.push(tables.get(name)!.sql, column);
          // The sequence is looked up once, not once per value.
          const sequence = `(SELECT pg_get_serial_sequence($${values.length - 1}, $${values.length})::regclass AS s) AS seq`;
          selects.push(`ARRAY(SELECT nextval(seq.s)::text FROM ${sequence}, ${series})`);
        } else selects.push(`ARRAY(SELECT (${source.expression})::text FROM ${series})`);
        targets.push({ table: name, column });
      }
    }
  }
  if (alongside) selects.push(`(${alongside})::text`);
  if (selects.length === 0) return allocations;
  const result = await db.query({
    text: `SELECT ${selects.join(', ')}`,
    values,
    rowMode: 'array',
    types: RAW_TEXT_TYPES,
  });
  const row = result.rows[0] as string[];
  targets.forEach(({ table, column }, i) => allocations.get(table)!.set(column, parseTextArray(row[i]!)));
  return allocations;
}

/** `{1,2,3}` -> ['1','2','3']: sequence values and default expressions cast to text hold no quotes or commas. */
function parseTextArray(literal: string): string[] {
  const body = literal.slice(1, -1);
  if (body === '') return [];
  return body.split(',').map((item) => (item.startsWith('"') ? (JSON.parse(item) as string) : item));
}
