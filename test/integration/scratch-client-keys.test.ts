import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { CODE_A, PRISMA_CONFIG, prismaWithFixture, ROOM_A, ROOM_B } from '../helpers/prisma-schema.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { configSchema } from '../../src/config/schema.js';

const CUID = /^c[a-z0-9]{24}$/;
const CODE = /^[A-Z0-9]{6}$/;

describe.each(BACKENDS)('scratch campaigns of a Prisma-style game (client-made keys) on %s', (backend) => {
  let live: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    ({ t: live, fixture } = await prismaWithFixture(backend));
  });
  afterAll(async () => {
    await live?.cleanup();
  });

  const rows = async (sql: string, values: unknown[] = []) => (await live.db.pool.query(sql, values)).rows;

  it('gives text ids, the join code and the integer keys fresh values of the same shape, and round-trips', async () => {
    const session = new ScratchSession(live.db, { game: live.config.game });
    const before = await tableChecksums(live.db);
    const scratch = await session.seed(fixture);
    try {
      expect(scratch.key).toMatch(CUID);
      expect(scratch.key).not.toBe(ROOM_A);
      const [room] = await rows('SELECT code, name, "ownerId" FROM "Room" WHERE id = $1', [scratch.key]);
      expect(room.code).toMatch(CODE);
      expect(room.code).not.toBe(CODE_A);
      expect(room.name).toBe('The Sunken Keep');
      // The owner is a shared user: it keeps its id.
      expect(room.ownerId).toBe(fixture.tables.Room!.rows[0]!.ownerId);
      const [state] = await rows('SELECT id, hp FROM "GameState" WHERE "roomId" = $1', [scratch.key]);
      expect(state.id).toMatch(CUID);
      expect(state.hp).toBe(12);
      const turns = await rows('SELECT id, number FROM "Turn" WHERE "roomId" = $1 ORDER BY number', [scratch.key]);
      expect(turns.map((turn) => turn.number)).toEqual([1, 2, 3]);
      for (const turn of turns) expect(turn.id).toMatch(CUID);
      const capturedTurnIds = new Set(fixture.tables.Turn!.rows.map((row) => row.id));
      expect(turns.filter((turn) => capturedTurnIds.has(turn.id))).toEqual([]);
      // The application's own numbering: a range above the live maximum (7), the players' references following.
      const items = await rows(
        `SELECT i.id, i.name FROM "Item" i JOIN "Player" p ON p.id = i."playerId" WHERE p."roomId" = $1 ORDER BY i.id`,
        [scratch.key],
      );
      expect(items.map((item) => item.name)).toEqual(['rope', 'lantern', 'mace']);
      expect(items.map((item) => item.id)).toEqual([8, 9, 10]);
      expect((await session.check(scratch, fixture)).differences).toEqual([]);
    } finally {
      await scratch.teardown();
    }
    expect(await tableChecksums(live.db)).toEqual(before);
    expect(await registryCounts(live.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('seeds 8 reps of the fixture at once without two sharing a key or a code, and leaves the database as it was', async () => {
    const before = await tableChecksums(live.db);
    const sessions = Array.from({ length: 8 }, () => new ScratchSession(live.db, { game: live.config.game }));
    const campaigns = await Promise.all(sessions.map((session) => session.seed(fixture)));
    try {
      expect(new Set(campaigns.map((campaign) => campaign.key)).size).toBe(8);
      const codes = await rows('SELECT code FROM "Room" WHERE id = ANY($1::text[])', [campaigns.map((c) => c.key)]);
      expect(new Set([...codes.map((row) => row.code), CODE_A, 'PW3HXN']).size).toBe(10);
      const items = await rows(
        `SELECT i.id FROM "Item" i JOIN "Player" p ON p.id = i."playerId" WHERE p."roomId" = ANY($1::text[])`,
        [campaigns.map((c) => c.key)],
      );
      expect(new Set(items.map((row) => row.id)).size).toBe(24);
      for (const [i, campaign] of campaigns.entries())
        expect((await sessions[i]!.check(campaign, fixture)).differences).toEqual([]);
    } finally {
      await Promise.all(campaigns.map((campaign) => campaign.teardown()));
    }
    expect(await tableChecksums(live.db)).toEqual(before);
  });

  it('refuses to cascade into a row added under a seeded player the SUT moved out of the campaign', async () => {
    const session = new ScratchSession(live.db, { game: live.config.game });
    const before = await tableChecksums(live.db);
    const scratch = await session.seed(fixture);
    const [player] = await rows('SELECT id FROM "Player" WHERE "roomId" = $1 ORDER BY "class" LIMIT 1', [scratch.key]);
    // The walk no longer reaches the player (the registry still lists it), nor the item added under it.
    await rows('UPDATE "Player" SET "roomId" = $1 WHERE id = $2', [ROOM_B, player.id]);
    await rows(`INSERT INTO "Item" ("id", "playerId", "name") VALUES (9001, $1, 'added by the SUT')`, [player.id]);
    await expect(scratch.teardown()).rejects.toThrow(
      `teardown of ${scratch.id} refused: rows outside the campaign reference it: 1 row(s) of "Item" (Item_playerId_fkey, ON DELETE CASCADE) point at "Player"`,
    );
    expect(await rows('SELECT name FROM "Item" WHERE id = 9001')).toEqual([{ name: 'added by the SUT' }]);
    await rows('DELETE FROM "Item" WHERE id = 9001');
    const report = await session.teardown(scratch.id);
    expect(report.deleted).toMatchObject({ Player: 2, Room: 1 });
    expect(await tableChecksums(live.db)).toEqual(before);
    expect(await registryCounts(live.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('keeps a unique code the config keeps, and then collides with the live room as the author accepted', async () => {
    const game = configSchema.parse({
      ...PRISMA_CONFIG,
      game: { ...PRISMA_CONFIG.game, unique: { 'Room.code': 'keep' } },
    }).game;
    const session = new ScratchSession(live.db, { game });
    const before = await tableChecksums(live.db);
    await expect(session.seed(fixture)).rejects.toThrow(/Room/);
    expect(await tableChecksums(live.db)).toEqual(before);
    expect(await registryCounts(live.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});

// A key no column of which can take a fresh value (a date): only a database of its own per rep copies it.
const DIARY = `
  CREATE TABLE "Diary" ("day" DATE NOT NULL PRIMARY KEY, "roomId" TEXT NOT NULL REFERENCES "Room"("id"), "note" TEXT);
  INSERT INTO "Diary" VALUES ('2025-03-01', '${ROOM_A}', 'We arrived.');
`;

describe.each(BACKENDS)('a fixture that a remap cannot copy on %s', (backend) => {
  let live: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    ({ t: live, fixture } = await prismaWithFixture(backend, PRISMA_CONFIG, DIARY));
  });
  afterAll(async () => {
    await live?.cleanup();
  });

  it("is refused by remap naming the key, and seeded by the database strategy and by auto without remap's checks", async () => {
    const before = await tableChecksums(live.db);
    const remap = new ScratchSession(live.db, { game: live.config.game, strategy: 'remap' });
    await expect(remap.seed(fixture, { file: 'fixtures/diary.json' })).rejects.toThrow(
      'fixtures/diary.json: table "Diary": its primary key (day) has no column turnkit can give a fresh value',
    );
    expect(await tableChecksums(live.db)).toEqual(before);
    if (backend === 'embedded') return; // no CREATE DATABASE on the embedded database
    for (const strategy of ['database', 'auto'] as const) {
      const session = new ScratchSession(live.db, { game: live.config.game, strategy });
      try {
        const scratch = await session.seed(fixture);
        expect(scratch.strategy).toBe('database');
        expect(scratch.key).toBe(ROOM_A);
        expect((await session.check(scratch, fixture)).differences).toEqual([]);
        await scratch.teardown();
      } finally {
        await session.close();
      }
    }
    expect(await tableChecksums(live.db)).toEqual(before);
  });
});
