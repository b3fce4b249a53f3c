import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery, BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { openDb, type Db } from '../../src/db/connect.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';

// Real Postgres only: the embedded server runs one transaction at a time, and its single backend cannot be killed.
describe.runIf(BACKENDS.includes('postgres'))('scratch campaigns under concurrency and failure on postgres', () => {
  let source: TestDb;
  let target: TestDb;
  let fixture: Fixture;
  const extra: Db[] = [];

  beforeAll(async () => {
    ({ t: source, fixture } = await sampleGameWithFixture('postgres', { turns: 30, turn: 23 }));
    // A database of the same game where the fixture's shared user does not exist yet: every seed races to insert it.
    target = await createTestDb('postgres');
    await migrate(target.db, SAMPLE_MIGRATIONS_DIR);
    await target.db.pool.query(`SELECT setval(pg_get_serial_sequence('users', 'id'), 50);
      INSERT INTO users (handle, display_name) VALUES ('live-player', 'Live Player')`);
  });
  afterAll(async () => {
    for (const db of extra) await db.close();
    await source?.cleanup();
    await target?.cleanup();
  });

  it('seeds and tears down 16 scratch campaigns of one fixture in parallel: no deadlock, no conflict, nothing left', async () => {
    const before = await tableChecksums(target.db);
    const userIds = (await target.db.pool.query('SELECT id::text FROM users ORDER BY id')).rows.map((row) => row.id);
    for (let i = 0; i < 4; i++) extra.push(await openDb(target.config));
    const sessions = extra.map((db) => new ScratchSession(db, { game: target.config.game }));
    const keys = await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const scratch = await sessions[i % 4]!.seed(fixture);
        await new Promise((resolve) => setTimeout(resolve, (i % 5) * 7));
        await scratch.teardown();
        return scratch.key;
      }),
    );
    expect(new Set(keys).size).toBe(16);
    expect(await tableChecksums(target.db)).toEqual(before);
    expect((await target.db.pool.query('SELECT id::text FROM users ORDER BY id')).rows.map((row) => row.id)).toEqual(
      userIds,
    );
    expect(await registryCounts(target.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('leaves nothing behind when the server kills the seeding connection half-way', async () => {
    const before = await tableChecksums(target.db);
    await target.db.pool.query(`
      CREATE FUNCTION stall_seed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(30); RETURN NULL; END $$;
      CREATE TRIGGER stall_seed BEFORE INSERT ON world_facts FOR EACH STATEMENT EXECUTE FUNCTION stall_seed();`);
    try {
      const seeding = new ScratchSession(target.db, { game: target.config.game }).seed(fixture).then(
        () => 'seeded',
        (error: Error) => error.message,
      );
      let killed = 0;
      // Until the seed sleeps in its trigger (a loaded machine may take a while to get there; 60 s bound a hang).
      for (const end = Date.now() + 60_000; killed === 0 && Date.now() < end; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const result = await adminQuery(
          target.databaseUrl!,
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND wait_event = 'PgSleep' AND pid <> pg_backend_pid()`,
        );
        killed = result.rowCount ?? 0;
      }
      expect(killed).toBe(1);
      expect(await seeding).toMatch(
        /: \$\.tables(\.world_facts)?: seeding( "world_facts")?: (terminating connection due to administrator command|Connection terminated unexpectedly)/,
      );
    } finally {
      await target.db.pool.query('DROP TRIGGER stall_seed ON world_facts; DROP FUNCTION stall_seed()');
    }
    expect(await tableChecksums(target.db)).toEqual(before);
    expect(await registryCounts(target.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it("checks a scratch campaign the way capture reads, whatever the database's own TimeZone and DateStyle", async () => {
    const name = new URL(target.databaseUrl!).pathname.slice(1);
    await adminQuery(target.databaseUrl!, `ALTER DATABASE ${name} SET TimeZone = 'Europe/Berlin'`);
    await adminQuery(target.databaseUrl!, `ALTER DATABASE ${name} SET DateStyle = 'SQL, DMY'`);
    const db = await openDb(target.config);
    extra.push(db);
    const session = new ScratchSession(db, { game: target.config.game });
    const scratch = await session.seed(fixture);
    try {
      expect((await session.check(scratch, fixture)).differences).toEqual([]);
    } finally {
      await scratch.teardown();
    }
  });
});
