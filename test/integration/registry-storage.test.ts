import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { ensureRegistry, insertEntry, listEntries, takeRemapEntry } from '../../src/scratch/registry.js';
import { configSchema } from '../../src/config/schema.js';
import { PRISMA_CONFIG } from '../helpers/prisma-game.js';

const storage = async (t: TestDb): Promise<string> =>
  (
    await t.db.pool.query(
      `SELECT attstorage FROM pg_attribute WHERE attrelid = 'turnkit.scratch_campaigns'::regclass AND attname = 'inserted'`,
    )
  ).rows[0].attstorage;

describe.each(BACKENDS)('the registry on %s', (backend) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(backend, PRISMA_CONFIG);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("stores a seed's key lists uncompressed, brings an older registry up to date, and reads them back whole", async () => {
    await ensureRegistry(t.db);
    expect(await storage(t)).toBe('e');
    // A registry made before: compressed key lists. Its entries stay; the next ensureRegistry changes the storage.
    await t.db.pool.query('ALTER TABLE turnkit.scratch_campaigns ALTER COLUMN inserted SET STORAGE EXTENDED');
    const keys = Array.from({ length: 5000 }, (_, i) => `c${String(i).padStart(24, 'k')}`);
    await insertEntry(t.db.pool, {
      id: 'scratch-000000000001',
      strategy: 'remap',
      fixture: 'big',
      fixtureSha256: 'x',
      rootTable: 'Room',
      rootKey: keys[0]!,
      game: configSchema.parse(PRISMA_CONFIG).game,
      runId: null,
      databaseName: null,
      owner: null,
      inserted: { Turn: keys, Item: [['1', '5000']] },
    });
    await ensureRegistry(t.db);
    expect(await storage(t)).toBe('e');
    expect((await listEntries(t.db.pool)).map((entry) => entry.id)).toEqual(['scratch-000000000001']);
    const taken = await takeRemapEntry(t.db.pool, 'scratch-000000000001');
    expect(taken?.inserted).toEqual({ Turn: keys, Item: [['1', '5000']] });
  });
});
