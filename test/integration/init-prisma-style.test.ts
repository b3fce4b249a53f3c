import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { init, type InitResult } from '../../src/init/init-project.js';
import { loadConfig } from '../../src/config/load.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { readInitCatalog } from '../../src/init/read-catalog.js';
import { PRISMA_STYLE_GAME, ROOM_A, cuid, prismaStyleDb } from '../helpers/prisma-style-schema.js';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';

// Any config that is not the sample game's: the test database starts empty and gets the Prisma-style schema.
const EMPTY = { game: { root: { table: 'rooms', key: 'id' }, turns: { table: 't', order: 'o', input: ['i'] } } };

describe.each(BACKENDS)('init on a Prisma-style schema on %s', (backend) => {
  let t: TestDb;
  let result: InitResult;

  beforeAll(async () => {
    t = await prismaStyleDb(backend, EMPTY);
    const { catalog, facts, scrub } = await readInitCatalog({ cwd: t.dir, databaseUrl: t.databaseUrl });
    result = await init({ cwd: t.dir, catalog, facts, scrub });
  }, 120_000);
  afterAll(async () => t?.cleanup());

  it('writes a config naming the room, the narration two foreign keys below it, its turns and roles', async () => {
    const config = await loadConfig({ cwd: t.dir });
    // Exactly the game the other Prisma-style tests run with: init's config is the one they use by hand.
    expect(config.game).toEqual(PRISMA_STYLE_GAME);
    expect(Object.keys(config.scrub).sort()).toEqual(['User.email', 'User.username']);
    const text = await readFile(join(t.dir, 'turnkit.config.ts'), 'utf8');
    expect(text).toContain("unique: { 'TABLE.COLUMN': 'keep' }. Found: rooms.code\n");
    expect(text).not.toContain('TODO');
  });

  it('says what it inferred and why, from the catalog, the enum and the rows', () => {
    expect(result.answers.inferred).toEqual([
      'root rooms: 3 tables below it (GameSession, Player, NarrativeEntry)',
      'key id: the primary key',
      'turns NarrativeEntry: 2 foreign keys below rooms (via GameSession), a type column holding ACTION and NARRATION rows, named like turns, text content',
      'order createdAt: a timestamp, named like when the row was written',
      'turn turn: rows share its values (up to 3 rows in one turn under one GameSession)',
      "role type=ACTION: an enum (ACTION, DICE, NARRATION, SYSTEM); ACTION reads like the player's",
      'input content: text, named like what the player types',
      'shared User: Player references it (userId) and no campaign owns it',
      "exclude _prisma_migrations: a migration tool's table",
      'references votes.roomId -> rooms: named like the key of rooms, with no foreign key',
      'turnColumns votes.turn: named like a turn, and votes has no foreign-key path to NarrativeEntry',
      'unique rooms.code: unique, not a key: each scratch copy gets a fresh value of the same shape',
    ]);
    expect(result.answers.declarations?.missing).toEqual([]);
  });

  it("gives the SUT stub a query that counts a room's entries through its session", async () => {
    const { turnsSql, campaignColumnSql } = result.answers;
    const { rows } = await t.db.pool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${turnsSql} WHERE ${campaignColumnSql} = $1`,
      [ROOM_A],
    );
    expect(rows[0]!.n).toBe('12');
    expect(await readFile(join(t.dir, 'sut/game-master.mjs'), 'utf8')).toContain(
      JSON.stringify(`${turnsSql} WHERE ${campaignColumnSql} = $1`).slice(1, -1),
    );
  });

  it('captures a room with the written config, the migration table and the other room left out', async () => {
    const config = await loadConfig({ cwd: t.dir });
    const outcome = await captureFromDb(t.db, config, {
      campaign: ROOM_A,
      turns: { turn: 3 },
      scrub: TEST_SCRUB,
    });
    const fixture = outcome.fixtures[0]!;
    expect(Object.keys(fixture.tables).sort()).toEqual([
      'GameSession',
      'NarrativeEntry',
      'Player',
      'User',
      'rooms',
      'votes',
    ]);
    // The hand-counted rows docs/guides/capture.md lists for this capture.
    expect(
      Object.fromEntries(Object.entries(fixture.tables).map(([name, table]) => [name, table.rows.length])),
    ).toEqual({
      GameSession: 1,
      NarrativeEntry: 7,
      Player: 2,
      User: 2,
      rooms: 1,
      votes: 2,
    });
    // The votes init declared (votes.roomId, sliced by their own turn): room A's of turns 1 and 2, not room B's.
    expect(fixture.tables.votes!.rows.map((row) => row.id)).toEqual([cuid('votea1'), cuid('votea2')]);
    expect(fixture.tables.rooms!.rows).toMatchObject([{ id: ROOM_A, code: 'QX7K2P' }]);
    expect(fixture.tables.Player!.rows.map((row) => row.id).sort()).toEqual([cuid('playera1'), cuid('playera2')]);
    expect(fixture.tables.User!.rows).toHaveLength(2);
    const text = JSON.stringify(fixture);
    expect(text).not.toContain('ada@example.org');
    expect(text).not.toContain('Ash Road');
    // The migration table is excluded: no rows of it; the fixture names it only where it records the migration state.
    expect(Object.keys(fixture.tables)).not.toContain('_prisma_migrations');
    expect(text.split('_prisma_migrations').length - 1).toBe(
      fixture.source.migrations?.table.includes('_prisma_migrations') ? 1 : 0,
    );
  });
});
