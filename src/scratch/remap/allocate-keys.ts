import { randomUUID } from 'node:crypto';
import { parse as parseArrayLiteral } from 'postgres-array';
import type { Queryable } from '../../db/introspect.js';
import type { TableInfo } from '../../db/catalog-types.js';
import { quoteIdent, quoteLiteral } from '../../db/quote.js';
import type { FixtureRow } from '../../fixture/format.js';
import { RAW_TEXT_TYPES } from '../../fixture/capture/row-query.js';
import { encodeValue, type JsonValue } from '../../fixture/value-codec.js';
import { TurnkitError } from '../../errors.js';
import { byteStream, columnShape, freshBits, freshLike, type ColumnShape } from './key-shape.js';
import type { KeyPlan, KeySource } from './key-plan.js';

/** New key values per table and column, one per fixture row, in the fixture's row order. */
export type Allocations = Map<string, Map<string, string[]>>;

/** Where a seed's new keys come from besides the database: the fixture's rows and the scratch campaign's id. */
export interface KeyInputs {
  rowsOf: (table: string) => readonly FixtureRow[];
  /** Makes the fresh text keys of one scratch campaign reproducible and different from another campaign's. */
  seed: string;
}

// Below this many bits of freedom a fresh code may meet a live one (a 6-letter join code has about 30): those are
// checked against the table, under a lock that keeps two seeds from picking the same one.
const CHECK_BELOW_BITS = 64;
// Fresh codes drawn again for the ones that met a live value; more rounds than that means the space is full.
const MAX_ROUNDS = 20;

/**
 * Learns once per run what the fixture's client-made keys look like: each text key column's alphabet, and whether
 * its values are short enough to need a look at the live rows.
 */
export function shapeTextKeys(
  plan: KeyPlan,
  tables: ReadonlyMap<string, TableInfo>,
  inputs: KeyInputs['rowsOf'],
): void {
  for (const [name, keys] of plan) {
    const info = tables.get(name)!;
    for (const [column, source] of keys.allocated) {
      if (source.kind !== 'text') continue;
      const codec = info.columns.find((candidate) => candidate.name === column)!.codec;
      const values = inputs(name)
        .map((row) => encodeValue(row[column] as JsonValue, codec))
        .filter((value): value is string => value !== null);
      const shape = columnShape(values);
      const checked = values.some((value) => freshBits(value, shape) < CHECK_BELOW_BITS);
      keys.allocated.set(column, { kind: 'text', shape, checked });
    }
  }
}

/**
 * The advisory locks a seed takes before it allocates (in its BEGIN, so that the allocation's own snapshot sees
 * every seed that held them before): one per integer key without a sequence and per short code, in a fixed order.
 */
export function keyLockSql(plan: KeyPlan, tables: ReadonlyMap<string, TableInfo>, lockClass: number): string[] {
  const names: string[] = [];
  for (const [name, keys] of plan)
    for (const [column, source] of keys.allocated)
      if (source.kind === 'range' || (source.kind === 'text' && source.checked))
        names.push(`${tables.get(name)!.sql}.${quoteIdent(column)}`);
  return names
    .sort()
    .map((name) => `SELECT pg_advisory_xact_lock(${lockClass}, hashtext(${quoteLiteral(`turnkit keys ${name}`)}))`);
}

/**
 * Allocates every new key value of a scratch campaign in one round trip (two when a fresh code met a live one):
 * identity and serial columns take values from their own sequences (so the live game's next insert never
 * collides, and no sequence is ever reset or read with max()+1), uuids and client-made text keys are generated
 * here, and integer keys the database does not allocate take a range above the table's maximum (read under the
 * lock `keyLockSql` took).
 */
export async function allocateKeys(
  db: Queryable,
  plan: KeyPlan,
  tables: ReadonlyMap<string, TableInfo>,
  inputs: KeyInputs,
  /** SQL to evaluate in the same round trip (taking a lock, say). */
  alongside?: string,
): Promise<Allocations> {
  const allocations: Allocations = new Map();
  const selects: string[] = [];
  const values: unknown[] = [];
  const targets: Target[] = [];
  for (const [name, keys] of plan) {
    const rows = inputs.rowsOf(name);
    const count = rows.length;
    const perColumn = new Map<string, string[]>();
    allocations.set(name, perColumn);
    const info = tables.get(name)!;
    for (const [column, source] of keys.allocated) {
      if (count === 0) perColumn.set(column, []);
      else if (source.kind === 'uuid')
        perColumn.set(
          column,
          Array.from({ length: count }, () => randomUUID()),
        );
      else if (source.kind === 'text') {
        const codec = info.columns.find((candidate) => candidate.name === column)!.codec;
        const old = rows.map((row) => encodeValue(row[column] as JsonValue, codec) ?? '');
        const shape = source.shape ?? columnShape(old.filter((value) => value !== ''));
        const bytes = byteStream(`${inputs.seed}/${name}/${column}/0`);
        const fresh = old.map((value) => freshLike(value, shape, bytes));
        perColumn.set(column, fresh);
        if (!source.checked) continue;
        values.push(fresh);
        selects.push(existingSql(info, column, values.length));
        targets.push({ table: name, column, source, fresh: { values: fresh, old, shape } });
      } else if (source.kind === 'range') {
        selects.push(`(SELECT coalesce(max(${quoteIdent(column)}), 0)::text FROM ${info.sql})`);
        targets.push({ table: name, column, source });
      } else {
        values.push(count);
        const series = `generate_series(1, $${values.length}::int)`;
        if (source.kind === 'sequence' && source.sequence) {
          values.push(source.sequence);
          selects.push(`ARRAY(SELECT nextval($${values.length}::regclass)::text FROM ${series})`);
        } else if (source.kind === 'sequence') {
          values.push(info.sql, column);
          // The sequence is looked up once, not once per value.
          const sequence = `(SELECT pg_get_serial_sequence($${values.length - 1}, $${values.length})::regclass AS s) AS seq`;
          selects.push(`ARRAY(SELECT nextval(seq.s)::text FROM ${sequence}, ${series})`);
        } else selects.push(`ARRAY(SELECT (${source.expression})::text FROM ${series})`);
        targets.push({ table: name, column, source });
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
  for (const [i, target] of targets.entries()) {
    const perColumn = allocations.get(target.table)!;
    if (target.source.kind === 'range') {
      const top = BigInt(row[i]!);
      const count = inputs.rowsOf(target.table).length;
      perColumn.set(
        target.column,
        Array.from({ length: count }, (_, n) => String(top + BigInt(n) + 1n)),
      );
    } else if (target.fresh) {
      perColumn.set(
        target.column,
        await avoidLive(db, tables.get(target.table)!, target, inputs, parseArrayLiteral(row[i]!)),
      );
    } else perColumn.set(target.column, parseArrayLiteral(row[i]!));
  }
  return allocations;
}

/** One value the allocation's statement reads; a checked text key carries its fresh codes and what they were made from. */
interface Target {
  table: string;
  column: string;
  source: KeySource;
  fresh?: { values: string[]; old: string[]; shape: ColumnShape };
}

// Draws again the fresh codes that met a live value or each other, until none does.
async function avoidLive(
  db: Queryable,
  info: TableInfo,
  target: Target,
  inputs: KeyInputs,
  live: readonly string[],
): Promise<string[]> {
  const { old, shape } = target.fresh!;
  const fresh = [...target.fresh!.values];
  let taken = new Set(live);
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const seen = new Set<string>();
    const clashing = fresh.flatMap((value, i) => {
      const clash = taken.has(value) || seen.has(value);
      seen.add(value);
      return clash ? [i] : [];
    });
    if (clashing.length === 0) return fresh;
    const bytes = byteStream(`${inputs.seed}/${target.table}/${target.column}/${round}`);
    for (const i of clashing) fresh[i] = freshLike(old[i]!, shape, bytes);
    const result = await db.query({
      text: `SELECT ${existingSql(info, target.column, 1)}`,
      values: [clashing.map((i) => fresh[i]!)],
      rowMode: 'array',
      types: RAW_TEXT_TYPES,
    });
    taken = new Set([...taken, ...parseArrayLiteral((result.rows[0] as string[])[0]!)]);
  }
  throw new TurnkitError(
    'DATABASE',
    `"${info.name}".${target.column}: no fresh value of the captured values' shape was free after ${MAX_ROUNDS} tries; keep it with game.unique`,
  );
}

// The values among parameter $n (text[]) that the column already holds.
function existingSql(info: TableInfo, column: string, n: number): string {
  return `ARRAY(SELECT x.${quoteIdent(column)}::text FROM ${info.sql} AS x WHERE x.${quoteIdent(column)}::text = ANY($${n}::text[]))`;
}
