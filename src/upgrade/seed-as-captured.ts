import type pg from 'pg';
import type { LoadedConfig } from '../config/load.js';
import { introspect } from '../db/introspect.js';
import { resolveGameGraph } from '../fixture/game-graph.js';
import type { Fixture } from '../fixture/format.js';
import { planSeed } from '../scratch/seed-plan.js';
import { turnRowInsertSql } from '../scratch/turn-row-insert.js';
import { writeFixtureRows } from '../scratch/write-fixture-rows.js';
import { advanceAllSequences } from './rebuild-schema.js';

/**
 * Writes fixtures into a rebuilt database with their keys as captured, plus each one's turn-N row (its input
 * columns, the rest as the turn before had them), so that a capture of turn N there reads what the fixture holds.
 * Fixtures written together must be of different campaigns. One transaction, constraints checked at its end.
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
    for (const plan of plans) await writeFixtureRows(client, plan, new Map(), async () => {});
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
