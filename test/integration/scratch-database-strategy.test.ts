import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery, BACKENDS, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { A, sagaWithFixture } from '../helpers/saga-schema.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { describeTeardown } from '../../src/cli/describe-teardown.js';

const turnkitDatabases = async (): Promise<string[]> =>
  (
    await adminQuery(
      process.env.TEST_DATABASE_URL!,
      `SELECT datname FROM pg_database WHERE datname LIKE 'turnkit\\_%\\_%' AND datname NOT LIKE 'turnkit_test_%' ORDER BY 1`,
    )
  ).rows.map((row) => row.datname);

// The server is shared: other test files, and other suites on the same machine, create and drop databases of their
// own meanwhile. So each test follows the databases its game's registry says it made, not the server's whole list.
const registeredDatabases = async (t: TestDb): Promise<string[]> =>
  (
    await t.db.pool.query<{ name: string }>(
      'SELECT database_name AS name FROM turnkit.scratch_campaigns WHERE database_name IS NOT NULL ORDER BY 1',
    )
  ).rows.map((row) => row.name);
const existing = async (names: readonly string[]): Promise<string[]> =>
  (await turnkitDatabases()).filter((name) => names.includes(name));

describe.runIf(BACKENDS.includes('postgres'))('strategy "database" on postgres', () => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture('postgres', { turns: 30, turn: 23 }));
  });
  afterAll(async () => t?.cleanup());

  it("clones a template per rep with the fixture's own keys, lets the SUT write there, and drops it all", async () => {
    const before = await tableChecksums(t.db);
    const databasesBefore = await turnkitDatabases();
    const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
    const first = await session.seed(fixture);
    const second = await session.seed(fixture);
    expect(first.key).toBe(fixture.source.root.value);
    expect(first.databaseUrl).not.toBe(second.databaseUrl);
    expect((await session.check(first, fixture)).differences).toEqual([]);

    // The SUT's own insert in its clone: sequences were moved past the fixture's keys.
    const sut = new pg.Client({ connectionString: first.databaseUrl });
    // DROP DATABASE ... WITH (FORCE) disconnects it at teardown, as it would a lingering SUT.
    sut.on('error', () => {});
    await sut.connect();
    const inserted = await sut.query(
      `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($1, 23, 'x', 'y', now(), 1) RETURNING id::text`,
      [first.key],
    );
    expect(Number(inserted.rows[0].id)).toBeGreaterThan(
      Math.max(...fixture.tables.turns!.rows.map((row) => Number(row.id))),
    );
    const other = await sut.query('SELECT count(*)::int AS n FROM campaigns');
    expect(other.rows[0].n).toBe(1);
    // Left connected on purpose: teardown must still drop the database.

    // The template, a clone per rep, and (from the second clone on) one made ahead for the next rep: registered and
    // on the server.
    await session.idle();
    const made = await registeredDatabases(t);
    expect(made).toHaveLength(4);
    expect(made).toEqual(expect.arrayContaining([first, second].map((s) => new URL(s.databaseUrl).pathname.slice(1))));
    expect(await existing(made)).toEqual(made);
    expect(databasesBefore.filter((name) => made.includes(name))).toEqual([]);
    const report = await first.teardown();
    expect(report.droppedDatabase).toMatch(/^turnkit_scratch_/);
    // What `turnkit teardown` prints for it: the database it dropped, not "0 rows".
    expect(describeTeardown(report)).toBe(
      `removed ${report.id} (${fixture.name}, key ${first.key}): dropped database ${report.droppedDatabase} with everything in it`,
    );
    await second.teardown();
    await session.close();
    await sut.end().catch(() => {});
    expect(await existing(made)).toEqual([]);
    expect(await registeredDatabases(t)).toEqual([]);
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('clones a schema of its own shape (schemas, uuid keys, extensions) with pg_dump', async () => {
    const { t: saga, fixture: sagaFixture } = await sagaWithFixture('postgres');
    try {
      const session = new ScratchSession(saga.db, { game: saga.config.game, strategy: 'database' });
      const scratch = await session.seed(sagaFixture);
      expect(scratch.key).toBe(A);
      expect((await session.check(scratch, sagaFixture)).differences).toEqual([]);
      await scratch.teardown();
      await session.close();
    } finally {
      await saga.cleanup();
    }
  });

  it('gc drops the template and clones of a run whose process is gone', async () => {
    const databasesBefore = await turnkitDatabases();
    const session = new ScratchSession(t.db, {
      game: t.config.game,
      strategy: 'database',
      // A process that no longer exists: pid numbers this high are never handed out.
      owner: {
        pid: 4_000_000,
        host: (await import('node:os')).hostname(),
        startedAt: new Date(),
        startTicks: null,
        pidNamespace: null,
      },
    });
    await session.seed(fixture);
    const made = await registeredDatabases(t);
    expect(made).toHaveLength(2);
    expect(await existing(made)).toEqual(made);
    expect(databasesBefore.filter((name) => made.includes(name))).toEqual([]);
    const report = await collectGarbage(t.db);
    expect(report.removed.map((removed) => removed.id.split('-')[0]).sort()).toEqual(['scratch', 'template']);
    expect(await existing(made)).toEqual([]);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('auto measures two reps of each strategy, then keeps to the faster one', async () => {
    const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'auto' });
    const strategies: string[] = [];
    for (let i = 0; i < 6; i++) {
      const scratch = await session.seed(fixture);
      strategies.push(scratch.strategy);
      await scratch.teardown();
    }
    await session.close();
    expect(strategies.slice(0, 4)).toEqual(['remap', 'database', 'remap', 'database']);
    expect(new Set(strategies.slice(4)).size).toBe(1);
  });
});

describe.runIf(BACKENDS.includes('embedded'))('strategy "database" on embedded', () => {
  it("clones a template per rep on the embedded server too (no pg_dump there: turnkit's DDL reader)", async () => {
    const { t, fixture } = await sampleGameWithFixture('embedded', { turns: 5, turn: 4 });
    try {
      const before = await tableChecksums(t.db);
      const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
      const first = await session.seed(fixture);
      const second = await session.seed(fixture);
      expect(first.strategy).toBe('database');
      expect(first.key).toBe(fixture.source.root.value);
      expect(first.databaseUrl).not.toBe(second.databaseUrl);
      expect((await session.check(first, fixture)).differences).toEqual([]);
      const sut = new pg.Client({ connectionString: first.databaseUrl });
      sut.on('error', () => {});
      await sut.connect();
      const inserted = await sut.query(
        `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($1, 4, 'x', 'y', now(), 1) RETURNING id::text`,
        [first.key],
      );
      expect(Number(inserted.rows[0].id)).toBeGreaterThan(
        Math.max(...fixture.tables.turns!.rows.map((row) => Number(row.id))),
      );
      await sut.end();
      const made = await registeredDatabases(t);
      expect(made.length).toBeGreaterThanOrEqual(2);
      await first.teardown();
      await second.teardown();
      await session.close();
      const left = await t.db.pool.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname = ANY($1::text[])',
        [made],
      );
      expect(left.rows).toEqual([]);
      expect(await tableChecksums(t.db)).toEqual(before);
    } finally {
      await t.cleanup();
    }
  });
});
