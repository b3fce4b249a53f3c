import type pg from 'pg';
import type { LoadedConfig } from '../config/load.js';
import { introspect } from '../db/introspect.js';
import { resolveGameGraph } from '../fixture/graph/game-graph.js';
import type { Fixture } from '../fixture/format.js';
import { planSeed } from '../scratch/seed-plan.js';
import { turnRowInsertSql } from '../scratch/turn-row-insert.js';
import { writeFixtureRows } from '../scratch/write-fixture-rows.js';
import { advanceAllSequences } from './rebuild-schema.js';

/**
 * Writes fixtures into a rebuilt database with their keys as captured, plus each one's turn-N row (its input
 * columns, the rest as the turn before had them), so that a capture of turn N there reads what the fixture holds.
 * Fixtures written together must be of different campaigns. One transaction, constraints checked at its end.
 * Where the role may, the captured rows are written as a replica (session_replication_role): the game's triggers
 * and the foreign keys' checks do not fire for them.
 */
export async function seedAsCaptured(
  client: pg.PoolClient,
  config: Pick<LoadedConfig, 'game' | 'file'>,
  fixtures: readonly { fixture: Fixture; file: string }[],
): Promise<void> {
  const catalog = await introspect(client);
  const graph = resolveGameGraph(config, catalog);
  await client.query('BEGIN');
  try {
    await client.query('SET CONSTRAINTS ALL DEFERRED');
    // Planned once per fixture: matching a 500-turn fixture to the catalog is not free, and the turn row below
    // needs the same plan's root key.
    const plans = fixtures.map(({ fixture, file }) => planSeed(fixture, catalog, file));
    const replica = await asReplica(client);
    for (const plan of plans) await writeFixtureRows(client, plan, new Map(), async () => {});
    // The turn-N row is written as a game writes one: its triggers and foreign keys as usual.
    if (replica) await client.query('SET LOCAL session_replication_role = DEFAULT');
    // Before the turn rows: a serial key of theirs must come after the captured ones.
    await advanceAllSequences(client);
    const role = graph.turnModel.model.role;
    const turnColumn = graph.turnModel.model.turn;
    for (const [i, { fixture }] of fixtures.entries()) {
      const set: Record<string, unknown> = {
        ...(role ? { [role.column]: role.input[0] } : {}),
        ...(turnColumn ? { [turnColumn]: fixture.source.turn } : {}),
      };
      const values: unknown[] = [plans[i]!.root.value];
      const insert = turnRowInsertSql(
        graph,
        { input: fixture.input.values, response: '', output: [], set },
        values,
        'true',
      );
      await client.query(`WITH ${insert} SELECT 1 FROM written_turn`, values);
    }
    await advanceAllSequences(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

/**
 * Writes the rest of the transaction as a replica when the role may (a superuser, as the embedded server's always is; PostgreSQL 15
 * also grants it with GRANT SET ON PARAMETER): no trigger fires, neither the game's nor the foreign keys' checks.
 * The rows are as captured, from a database that checked them when they were written: a trigger must not rewrite
 * them (an updated_at set to now() on insert), and checking 25,000 turns' foreign keys row by row was about a third
 * of seeding 50 fixtures of 500 turns. Returns whether it could; else the rows are written with the triggers and checks on.
 */
async function asReplica(client: pg.PoolClient): Promise<boolean> {
  await client.query('SAVEPOINT turnkit_replica');
  try {
    await client.query('SET LOCAL session_replication_role = replica');
    await client.query('RELEASE SAVEPOINT turnkit_replica');
    return true;
  } catch {
    // Permission denied: the transaction goes on without it.
    await client.query('ROLLBACK TO SAVEPOINT turnkit_replica');
    return false;
  }
}
