import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { tableChecksums } from '../helpers/table-checksums.js';
import { captureRoomA, cuid, prismaStyleDb } from '../helpers/prisma-style-schema.js';
import type { TurnkitConfigInput } from '../../src/config/schema.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';

// A row tied to its campaign by a required chain (an entry's sessionId, the session's roomId) that also names a row
// of another campaign through an optional key (its playerId): it is the campaign of its chain, wherever else it points.
const CONFIG: TurnkitConfigInput = {
  game: {
    root: { table: 'rooms', key: 'id' },
    turns: {
      table: 'NarrativeEntry',
      order: 'createdAt',
      turn: 'turn',
      role: { column: 'type', input: ['ACTION'] },
      input: ['content'],
    },
    shared: ['User'],
    exclude: ['_prisma_migrations', 'votes'],
  },
  scrub: { 'User.username': 'keep', 'User.email': 'keep' },
};
// Room B's action names one of room A's players (a player who wandered over, or a bug in the game).
const CROSSING = `UPDATE "NarrativeEntry" SET "playerId" = '${cuid('playera1')}' WHERE id = '${cuid('entryb1act')}'`;

describe.each(BACKENDS)('rows of another campaign reached through an optional key on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    t = await prismaStyleDb(backend, CONFIG, CROSSING);
    fixture = await captureRoomA(t);
  });
  afterAll(async () => t?.cleanup());

  it("leaves another room's entry out of the fixture, though it names one of this room's players", () => {
    const ids = fixture.tables.NarrativeEntry!.rows.map((row) => row.id);
    expect(ids).not.toContain(cuid('entryb1act'));
    // Turns 1 and 2 whole, turn 3's action: this room's rows only.
    expect(ids).toHaveLength(7);
    expect(fixture.tables.GameSession!.rows.map((row) => row.id)).toEqual([cuid('sessiona')]);
    expect(fixture.tables.GameSession!.sharedRows).toBeUndefined();
    expect(fixture.tables.rooms!.sharedRows).toBeUndefined();
  });

  it('refuses a teardown that would delete a live row the SUT pointed at the scratch campaign, and deletes nothing', async () => {
    const before = await tableChecksums(t.db);
    const session = new ScratchSession(t.db, { game: t.config.game });
    const scratch = await session.seed(fixture);
    const [player] = (
      await t.db.pool.query(`SELECT p.id FROM "Player" p WHERE p."roomId" = $1 ORDER BY p."characterName" LIMIT 1`, [
        scratch.key,
      ])
    ).rows;
    // What a SUT might do: point a live room's entry at a scratch player.
    await t.db.pool.query(`UPDATE "NarrativeEntry" SET "playerId" = $1 WHERE id = $2`, [
      player.id,
      cuid('entryb1narr'),
    ]);
    await expect(scratch.teardown()).rejects.toThrow(/refused: rows outside the campaign reference it.*NarrativeEntry/);
    const live = await t.db.pool.query(`SELECT count(*)::int AS n FROM "NarrativeEntry" WHERE id = $1`, [
      cuid('entryb1narr'),
    ]);
    expect(live.rows[0].n).toBe(1);
    // Once the live row is pointed back, the teardown goes through and every table is as it was.
    await t.db.pool.query(`UPDATE "NarrativeEntry" SET "playerId" = NULL WHERE id = $1`, [cuid('entryb1narr')]);
    await session.teardown(scratch.id);
    expect(await tableChecksums(t.db)).toEqual(before);
  });
});
