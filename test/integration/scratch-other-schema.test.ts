import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { A, CONFIG, OWNER, SCHEMA, sagaWithFixture } from '../helpers/saga-schema.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';

describe.each(BACKENDS)('scratch campaigns of a differently shaped schema on %s', (backend) => {
  let live: TestDb;
  let empty: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    ({ t: live, fixture } = await sagaWithFixture(backend));
    // The same schema with no rows at all: the fixture's shared account is absent there.
    empty = await createTestDb(backend, CONFIG);
    await empty.db.pool.query(SCHEMA);
  });
  afterAll(async () => {
    await live?.cleanup();
    await empty?.cleanup();
  });

  it('gives uuid keys fresh values, rewrites composite and quoted foreign keys, and round-trips', async () => {
    const session = new ScratchSession(live.db, { game: live.config.game });
    const before = await tableChecksums(live.db);
    const scratch = await session.seed(fixture);
    expect(scratch.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(scratch.key).not.toBe(A);
    const notes = await live.db.pool.query(
      `SELECT "Note Text" AS note, "Move Ref" IS NULL AS no_move FROM saga."Odd Name" WHERE "Story Ref" = $1 ORDER BY 1`,
      [scratch.key],
    );
    expect(notes.rows).toEqual([
      { note: 'campaign note', no_move: true },
      { note: 'first note', no_move: false },
    ]);
    const owner = await live.db.pool.query('SELECT owner::text FROM saga.stories WHERE story_id = $1', [scratch.key]);
    expect(owner.rows[0].owner).toBe(OWNER);
    expect((await session.check(scratch, fixture)).differences).toEqual([]);
    await scratch.teardown();
    expect(await tableChecksums(live.db)).toEqual(before);
  });

  it('reports a scratch campaign that no longer matches its fixture', async () => {
    const session = new ScratchSession(live.db, { game: live.config.game });
    const scratch = await session.seed(fixture);
    try {
      await live.db.pool.query(`UPDATE saga.moves SET reply = 'changed' WHERE story = $1 AND said = 'I step inside.'`, [
        scratch.key,
      ]);
      const result = await session.check(scratch, fixture);
      expect(result.equal).toBe(false);
      expect(result.differences.join('\n')).toContain(`$.tables["saga.moves"]: 1 fixture row(s) missing or different`);
      expect(result.differences.join('\n')).toContain('"changed"');
    } finally {
      await scratch.teardown();
    }
  });

  it('inserts an absent shared row once, keeps it while any scratch campaign uses it, and removes it after the last', async () => {
    const session = new ScratchSession(empty.db, { game: empty.config.game });
    const before = await tableChecksums(empty.db);
    const accounts = async () =>
      (await empty.db.pool.query('SELECT id::text FROM saga.accounts')).rows.map((row) => row.id);
    const first = await session.seed(fixture);
    const second = await session.seed(fixture);
    expect(await accounts()).toEqual([OWNER]);
    expect((await session.check(second, fixture)).differences).toEqual([]);
    const firstReport = await first.teardown();
    expect(firstReport.sharedDeleted).toBe(0);
    expect(await accounts()).toEqual([OWNER]);
    const secondReport = await second.teardown();
    expect(secondReport.sharedDeleted).toBe(1);
    expect(await accounts()).toEqual([]);
    expect(await tableChecksums(empty.db)).toEqual(before);
    expect(await registryCounts(empty.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('keeps a shared row it inserted once the live game references it', async () => {
    const session = new ScratchSession(empty.db, { game: empty.config.game });
    const scratch = await session.seed(fixture);
    await empty.db.pool.query(`INSERT INTO saga.stories VALUES (gen_random_uuid(), $1, 'a live story')`, [OWNER]);
    const report = await scratch.teardown();
    expect(report).toMatchObject({ sharedDeleted: 0, sharedKept: 1 });
    const rows = await empty.db.pool.query('SELECT title FROM saga.stories');
    expect(rows.rows).toEqual([{ title: 'a live story' }]);
    expect(await registryCounts(empty.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});

describe.each(BACKENDS)('foreign keys without an index on %s', (backend) => {
  it('are named once per session with the CREATE INDEX that fixes each, and not once indexed', async () => {
    const { t, fixture } = await sagaWithFixture(backend);
    try {
      const heard: string[] = [];
      const session = new ScratchSession(t.db, { game: t.config.game, onWarning: (message) => heard.push(message) });
      await (await session.seed(fixture)).teardown();
      await (await session.seed(fixture)).teardown();
      expect(heard.map((message) => message.slice(message.indexOf('fix: ')))).toEqual([
        'fix: CREATE INDEX ON "saga"."moves" ("story");',
        'fix: CREATE INDEX ON "saga"."Odd Name" ("Move Ref");',
      ]);
      expect(heard[0]).toMatch(
        /^"saga\.moves" \(story\) references "saga\.stories" with no index: every row a teardown deletes from "saga\.stories" makes Postgres scan all of "saga\.moves"/,
      );
      for (const message of heard) await t.db.pool.query(message.slice(message.indexOf('fix: ') + 5));
      const quiet = new ScratchSession(t.db, { game: t.config.game, onWarning: (message) => heard.push(message) });
      await (await quiet.seed(fixture)).teardown();
      expect(quiet.warnings).toEqual([]);
    } finally {
      await t.cleanup();
    }
  });
});

describe.each(BACKENDS)('what a teardown leaves alone on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    ({ t, fixture } = await sagaWithFixture(backend));
  });
  afterAll(async () => t?.cleanup());

  it('refuses to delete a campaign that rows outside it (an excluded audit table) point at, and names them', async () => {
    const session = new ScratchSession(t.db, { game: t.config.game });
    const scratch = await session.seed(fixture);
    await t.db.pool.query(`INSERT INTO saga.audit (story, line) VALUES ($1, 'the game logged this')`, [scratch.key]);
    await expect(scratch.teardown()).rejects.toThrow(
      `teardown of ${scratch.id} refused: rows outside the campaign reference it: 1 row(s) of "saga.audit" (audit_story_fkey) point at "saga.stories"`,
    );
    const stories = await t.db.pool.query('SELECT count(*)::int AS n FROM saga.stories WHERE story_id = $1', [
      scratch.key,
    ]);
    expect(stories.rows[0].n).toBe(1);
    await t.db.pool.query('DELETE FROM saga.audit WHERE story = $1', [scratch.key]);
    expect((await scratch.teardown()).deleted['saga.stories']).toBe(1);
  });

  it("refuses a fixture whose root is not the game config's root, before writing anything", async () => {
    const game = { ...t.config.game, root: { table: 'saga.accounts', key: 'id' } };
    const error = await new ScratchSession(t.db, { game }).seed(fixture, { file: 'a.json' }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'a.json: $.source.root: the fixture\'s campaigns are "saga.stories".story_id but the game config\'s root is "saga.accounts".id: seed it with the config it was captured with',
    );
  });
});

describe.each(BACKENDS)('rows of another campaign that point into a scratch campaign on %s', (backend) => {
  it('stop a teardown that would cascade into them, which names them', async () => {
    const { t, fixture } = await sagaWithFixture(
      backend,
      'ALTER TABLE saga.moves ADD COLUMN echo_of uuid REFERENCES saga.moves ON DELETE CASCADE',
    );
    try {
      const scratch = await new ScratchSession(t.db, { game: t.config.game }).seed(fixture);
      const { rows } = await t.db.pool.query('SELECT move_id::text FROM saga.moves WHERE story = $1 LIMIT 1', [
        scratch.key,
      ]);
      // A live move of story A echoes a move of the scratch story: cascading would delete it.
      await t.db.pool.query(
        `INSERT INTO saga.moves VALUES (gen_random_uuid(), $1, now(), 'live echo', NULL, NULL, $2)`,
        [A, rows[0].move_id],
      );
      await expect(scratch.teardown()).rejects.toThrow(
        `teardown of ${scratch.id} refused: rows outside the campaign reference it: 1 row(s) of "saga.moves" (moves_echo_of_fkey, ON DELETE CASCADE) point at "saga.moves"`,
      );
      const live = await t.db.pool.query(`SELECT count(*)::int AS n FROM saga.moves WHERE said = 'live echo'`);
      expect(live.rows[0].n).toBe(1);
    } finally {
      await t.cleanup();
    }
  });
});
