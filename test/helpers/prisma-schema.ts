import { captureFromDb } from '../../src/fixture/capture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';
import type { TurnkitConfigInput } from '../../src/config/schema.js';
import { createTestDb, type TestDb } from './test-db.js';
import { PRISMA_CONFIG, PRISMA_DATA, PRISMA_SCHEMA, ROOM_A } from './prisma-game.js';

export * from './prisma-game.js';

/** A test database holding the Prisma-style schema and its two rooms, and the fixture of room A at turn 4. */
export async function prismaWithFixture(
  backend: 'embedded' | 'postgres',
  config: TurnkitConfigInput = PRISMA_CONFIG,
  extraSql = '',
): Promise<{ t: TestDb; fixture: Fixture }> {
  const t = await createTestDb(backend, config);
  await t.db.pool.query(PRISMA_SCHEMA);
  await t.db.pool.query(PRISMA_DATA);
  if (extraSql) await t.db.pool.query(extraSql);
  const fixture = (await captureFromDb(t.db, t.config, { campaign: ROOM_A, turns: { turn: 4 } })).fixtures[0]!;
  return { t, fixture };
}
