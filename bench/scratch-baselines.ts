// The baselines of `npm run bench:scratch`, written by hand for the sample game's schema: what an engineer would
// write for this one schema, knowing every table and key, with no registry and no generality.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Fixture, FixtureRow } from '../src/fixture/format.js';

type Row = Record<string, unknown>;
/** Which columns of each sample table hold keys, and which table's key each one follows. */
const KEYS: Record<string, Record<string, string>> = {
  campaigns: { id: 'campaigns', current_location_id: 'locations' },
  decks: { campaign_id: 'campaigns' },
  locations: { id: 'locations', campaign_id: 'campaigns', parent_location_id: 'locations' },
  location_connections: { from_location_id: 'locations', to_location_id: 'locations' },
  characters: { id: 'characters', campaign_id: 'campaigns', location_id: 'locations' },
  turns: { id: 'turns', campaign_id: 'campaigns', location_id: 'locations' },
  world_facts: { id: 'world_facts', campaign_id: 'campaigns', introduced_at_turn_id: 'turns' },
};
const ORDER = ['campaigns', 'decks', 'locations', 'location_connections', 'characters', 'turns', 'world_facts'];
const GENERATED = new Set(['health_ratio']);
const JSON_COLUMNS = new Set(['settings', 'traits', 'details']);
const ALWAYS = new Set(['turns']);

/** What a baseline seed inserted, for its teardown. */
export interface Seeded {
  campaign: string;
  ids: Record<string, string[]>;
}

/** Fixture rows with keys rewritten to freshly allocated ones (one query for every sequence). */
async function remapped(
  client: pg.PoolClient,
  fixture: Fixture,
): Promise<{ rows: Record<string, Row[]>; ids: Record<string, string[]> }> {
  const counts = Object.fromEntries(ORDER.map((table) => [table, fixture.tables[table]!.rows.length]));
  const sequenced = ['campaigns', 'locations', 'turns', 'world_facts'];
  const { rows } = await client.query({
    text: `SELECT ${sequenced.map((table, i) => `ARRAY(SELECT nextval('${table}_id_seq')::text FROM generate_series(1, $${i + 1}::int))`).join(', ')}`,
    values: sequenced.map((table) => counts[table]),
    rowMode: 'array',
  });
  const fresh: Record<string, string[]> = { characters: fixture.tables.characters!.rows.map(() => randomUUID()) };
  sequenced.forEach((table, i) => (fresh[table] = (rows[0] as string[][])[i]!));
  const maps: Record<string, Map<string, string>> = {};
  for (const table of Object.keys(fresh))
    maps[table] = new Map(fixture.tables[table]!.rows.map((row, i) => [String(row.id), fresh[table]![i]!]));
  const out: Record<string, Row[]> = {};
  for (const table of ORDER) {
    out[table] = fixture.tables[table]!.rows.map((row: FixtureRow) => {
      const copy: Row = {};
      for (const [column, value] of Object.entries(row)) {
        if (GENERATED.has(column)) continue;
        const follows = KEYS[table]![column];
        copy[column] = follows && value !== null ? (maps[follows]!.get(String(value)) ?? value) : encode(value);
      }
      return copy;
    });
  }
  return { rows: out, ids: fresh };
}

function encode(value: unknown): unknown {
  if (value && typeof value === 'object' && '$bytea' in value)
    return `\\x${Buffer.from(String((value as { $bytea: string }).$bytea), 'base64').toString('hex')}`;
  if (Array.isArray(value)) return `{${value.join(',')}}`;
  return value;
}

/** Hand-written seed: one json_populate_recordset insert per table, keys preallocated, one transaction. */
export async function handSeed(client: pg.PoolClient, fixture: Fixture): Promise<Seeded> {
  await client.query('BEGIN');
  await client.query('SET CONSTRAINTS ALL DEFERRED');
  const { rows, ids } = await remapped(client, fixture);
  const user = fixture.tables.users!.rows;
  await client.query(
    `INSERT INTO users OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::users, $1::json) ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(user)],
  );
  for (const table of ORDER) {
    const columns = Object.keys(rows[table]![0] ?? {})
      .map((column) => `"${column}"`)
      .join(', ');
    if (!columns) continue;
    await client.query(
      `INSERT INTO ${table} (${columns}) ${ALWAYS.has(table) ? 'OVERRIDING SYSTEM VALUE' : ''} SELECT ${columns} FROM json_populate_recordset(NULL::${table}, $1::json)`,
      [JSON.stringify(rows[table])],
    );
  }
  await client.query('COMMIT');
  return { campaign: ids.campaigns![0]!, ids };
}

/** Row-by-row seed: the same rows, one parameterized INSERT per row. */
export async function rowByRowSeed(client: pg.PoolClient, fixture: Fixture): Promise<Seeded> {
  await client.query('BEGIN');
  await client.query('SET CONSTRAINTS ALL DEFERRED');
  const { rows, ids } = await remapped(client, fixture);
  for (const table of ORDER) {
    for (const row of rows[table]!) {
      const columns = Object.keys(row);
      const values = columns.map((column) =>
        JSON_COLUMNS.has(column) && row[column] !== null ? JSON.stringify(row[column]) : row[column],
      );
      await client.query(
        `INSERT INTO ${table} (${columns.map((column) => `"${column}"`).join(', ')}) ${ALWAYS.has(table) ? 'OVERRIDING SYSTEM VALUE' : ''} VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
        values,
      );
    }
  }
  await client.query('COMMIT');
  return { campaign: ids.campaigns![0]!, ids };
}

/** Hand-written teardown: one DELETE ... WHERE key = ANY(...) per table, children first, one transaction. */
export async function handTeardown(client: pg.PoolClient, seeded: Seeded): Promise<void> {
  await client.query('BEGIN');
  await client.query('SET CONSTRAINTS ALL DEFERRED');
  await client.query('DELETE FROM world_facts WHERE id = ANY($1::int8[])', [seeded.ids.world_facts]);
  await client.query('DELETE FROM turns WHERE id = ANY($1::int8[])', [seeded.ids.turns]);
  await client.query('DELETE FROM characters WHERE id = ANY($1::uuid[])', [seeded.ids.characters]);
  await client.query('DELETE FROM location_connections WHERE from_location_id = ANY($1::int8[])', [
    seeded.ids.locations,
  ]);
  await client.query('DELETE FROM locations WHERE id = ANY($1::int8[])', [seeded.ids.locations]);
  await client.query('DELETE FROM decks WHERE campaign_id = $1::int8', [seeded.campaign]);
  await client.query('DELETE FROM campaigns WHERE id = $1::int8', [seeded.campaign]);
  await client.query('COMMIT');
}
