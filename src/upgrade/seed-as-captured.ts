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
 * Writes fixtures (of different campaigns) into a rebuilt database with their keys as captured, plus each one's
 * turn-N row, so that a capture of turn N there reads what the fixture holds. One transaction.
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

// The rest of the transaction as a replica when the role may: no trigger fires. The rows were checked when captured,
// a trigger must not rewrite them (an updated_at), and foreign-key checks were a third of seeding. Whether it could.
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
