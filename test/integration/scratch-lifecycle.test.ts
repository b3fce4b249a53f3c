import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { listEntries } from '../../src/scratch/registry.js';

describe.each(BACKENDS)('scratch campaign lifecycle on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let session: ScratchSession;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 30, turn: 23, otherTurns: 15 }));
    session = new ScratchSession(t.db, { game: t.config.game });
  });
  afterAll(async () => t?.cleanup());

  it("leaves live data untouched over 100 seed/teardown cycles, and the game's own next insert still succeeds", async () => {
    const before = await tableChecksums(t.db);
    const keys = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const scratch = await session.seed(fixture);
      keys.add(scratch.key);
      await scratch.teardown();
    }
    expect(keys.size).toBe(100);
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    // Sequences moved on, never back: a new campaign made the game's way gets a key none of the scratch ones had.
    const next = await createSampleCampaign(t.db, { turns: 3, seed: 11 });
    expect(keys.has(next)).toBe(false);
    expect(Number(next)).toBeGreaterThan(Math.max(...[...keys].map(Number)));
  });

  it("keeps the registry from a SUT's DELETE, UPDATE and TRUNCATE: the campaign stays findable, teardown removes it", async () => {
    const before = await tableChecksums(t.db);
    const scratch = await session.seed(fixture);
    // What a hostile SUT on the same database and role runs.
    for (const statement of [
      'DELETE FROM turnkit.scratch_campaigns',
      "UPDATE turnkit.scratch_campaigns SET root_key = '0'",
      'TRUNCATE turnkit.scratch_campaigns CASCADE',
    ])
      await expect(t.db.pool.query(statement), statement).rejects.toThrow(/only turnkit removes entries/);
    expect((await listEntries(t.db.pool)).map((entry) => [entry.id, entry.rootKey])).toEqual([
      [scratch.id, scratch.key],
    ]);
    // turnkit's own removal passes the guard, and the setting does not outlive its statement.
    await scratch.teardown();
    const setting = await t.db.pool.query(`SELECT coalesce(current_setting('turnkit.registry_write', true), '') AS v`);
    expect(setting.rows[0].v).not.toBe('on');
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('removes the campaign of a process killed with SIGKILL at the next gc, and keeps those of live processes', async () => {
    const file = join(t.dir, 'fixture.json');
    await writeFile(file, serializeDocument(fixture));
    const before = await tableChecksums(t.db);
    const mine = await session.seed(fixture);
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '../helpers/seed-and-wait.mjs'), t.db.url, file, JSON.stringify(t.config.game)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    const orphan = line.toString().trim();
    expect(orphan).toMatch(/^scratch-/);
    child.kill('SIGKILL');
    await once(child, 'exit');

    const report = await collectGarbage(t.db);
    expect(report.removed.map((removed) => removed.id)).toEqual([orphan]);
    expect(report.removed[0]!.reason).toMatch(/is gone/);
    expect(report.kept.map((kept) => kept.id)).toEqual([mine.id]);
    expect((await listEntries(t.db.pool)).map((entry) => entry.id)).toEqual([mine.id]);
    await mine.teardown();
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('rolls a seed that fails half-way back completely: no rows, no registry entry', async () => {
    const before = await tableChecksums(t.db);
    // world_facts comes after campaigns, decks, locations and turns: the failure strikes with most rows written.
    await t.db.pool.query(`
      CREATE FUNCTION fail_seed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the database went away'; END $$;
      CREATE TRIGGER fail_seed BEFORE INSERT ON world_facts FOR EACH STATEMENT EXECUTE FUNCTION fail_seed();`);
    try {
      await expect(session.seed(fixture, { file: 'fixtures/t.json' })).rejects.toThrow(
        'fixtures/t.json: $.tables.world_facts: seeding "world_facts": the database went away [SQLSTATE P0001]',
      );
    } finally {
      await t.db.pool.query('DROP TRIGGER fail_seed ON world_facts; DROP FUNCTION fail_seed()');
    }
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('refuses a fixture whose tables or columns the database lacks, naming each, before writing anything', async () => {
    const drifted = structuredClone(fixture);
    drifted.tables.turns!.columns.push({ name: 'mood', type: 'text', nullable: true });
    drifted.tables.spells = { ...structuredClone(fixture.tables.decks!), rows: [] };
    const before = await tableChecksums(t.db);
    const error = await new ScratchSession(t.db, { game: t.config.game })
      .seed(drifted, { file: 'd.json' })
      .catch((e: unknown) => e);
    expect((error as { problems: string[] }).problems).toEqual([
      'd.json: $.tables.turns: column "turns"."mood" does not exist in the database',
      'd.json: $.tables.spells: table "spells" does not exist in the database',
    ]);
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('names the constraint and the fixture row of a unique conflict with existing data', async () => {
    await t.db.pool.query('CREATE UNIQUE INDEX campaigns_title_unique ON campaigns (title, rng_seed)');
    try {
      // Kept as captured (game.unique), the copy meets the live row; by default it would get a fresh title.
      const keep = { 'campaigns.title': 'keep', 'campaigns.rng_seed': 'keep' } as const;
      const error = await new ScratchSession(t.db, { game: { ...t.config.game, unique: keep } })
        .seed(fixture, { file: 'f.json' })
        .catch((e: unknown) => e);
      expect(String((error as Error).message)).toMatch(
        /^f\.json: \$\.tables\.campaigns\.rows\[0\]: seeding "campaigns": unique constraint "campaigns_title_unique" conflicts with a row already in the database \(Key \(title, rng_seed\)=\(.+\) already exists\.\) \[SQLSTATE 23505\]$/,
      );
      const fresh = await new ScratchSession(t.db, { game: t.config.game }).seed(fixture);
      const title = String(fixture.tables.campaigns!.rows[0]!.title);
      const { rows } = await t.db.pool.query('SELECT title FROM campaigns WHERE id = $1', [fresh.key]);
      expect(rows[0].title).not.toBe(title);
      expect(rows[0].title).toHaveLength(title.length);
      await fresh.teardown();
    } finally {
      await t.db.pool.query('DROP INDEX campaigns_title_unique');
    }
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});

describe.each(BACKENDS)('shared rows absent from the target database on %s', (backend) => {
  it("moves the shared table's sequence past an inserted row, so the live game's next insert works", async () => {
    const { t: source, fixture } = await sampleGameWithFixture(backend, { turns: 8, turn: 5 });
    const target = await createTestDb(backend);
    try {
      await migrate(target.db, SAMPLE_MIGRATIONS_DIR);
      const scratch = await new ScratchSession(target.db, { game: target.config.game }).seed(fixture);
      const user = await target.db.pool.query(
        `INSERT INTO users (handle, display_name) VALUES ('live', 'Live') RETURNING id::text`,
      );
      expect(Number(user.rows[0].id)).toBeGreaterThan(Number(fixture.tables.users!.rows[0]!.id));
      const report = await scratch.teardown();
      expect(report.sharedDeleted).toBe(1);
      expect((await target.db.pool.query('SELECT handle FROM users')).rows).toEqual([{ handle: 'live' }]);
    } finally {
      await target.cleanup();
      await source.cleanup();
    }
  });
});

describe.each(BACKENDS)('a game with triggers of its own on %s', (backend) => {
  it("writes table by table, so a trigger that reads another of the campaign's tables sees its rows", async () => {
    const { t, fixture } = await sampleGameWithFixture(backend, { turns: 8, turn: 6 });
    try {
      await t.db.pool.query(`
        CREATE FUNCTION prefix_location() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN NEW.narration := (SELECT name FROM locations WHERE id = NEW.location_id) || ': ' || NEW.narration; RETURN NEW; END $$;
        CREATE TRIGGER prefix_location BEFORE INSERT ON turns FOR EACH ROW WHEN (NEW.location_id IS NOT NULL) EXECUTE FUNCTION prefix_location();`);
      const scratch = await new ScratchSession(t.db, { game: t.config.game }).seed(fixture);
      const { rows } = await t.db.pool.query(
        `SELECT t.narration, l.name FROM turns t JOIN locations l ON l.id = t.location_id WHERE t.campaign_id = $1`,
        [scratch.key],
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.narration.startsWith(`${row.name}: `)).toBe(true);
      await scratch.teardown();
    } finally {
      await t.cleanup();
    }
  });
});
