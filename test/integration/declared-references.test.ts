import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../../src/config/load.js';
import { introspect } from '../../src/db/introspect.js';
import { schemaFingerprint } from '../../src/fixture/capture/build-fixture.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { resolveGameGraph } from '../../src/fixture/graph/game-graph.js';
import { checkConfigAgainstCatalog } from '../../src/fixture/graph/check-config-catalog.js';
import { collectGarbage } from '../../src/scratch/gc.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { ROOM_A, ROOM_B, tallyDb } from '../helpers/tally-schema.js';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';

const NOW = new Date('2026-12-01T00:00:00Z');
const NAME = `campaign-${ROOM_A}-turn-3`;

// Players are above the turns (actions, sliced by turn, reference them): a reference to a turn cannot slice them.
// One line per table whose kept rows no turn places, with the advice that fits it.
const unplaced = (table: string, rows: string, advice: string): string =>
  `${NAME}: ${table}: ${rows} row(s) belong to no turn and show the database after turn 5, not before turn 3; ${advice}`;
const PLAYERS = unplaced(
  'players',
  '2 of 2',
  "standing rows (rows of a turn reference them), as the root's: nothing to do",
);
const NOTES = unplaced(
  'notes',
  '1 of 1',
  'declare the column that holds a key of "entries": add to game.references "notes.COLUMN": "entries"',
);

/** The same project with nothing declared: votes belong to no room, actions are not sliced. */
function bare(config: LoadedConfig): LoadedConfig {
  const { references: _references, turnColumns: _turnColumns, ...game } = config.game;
  return { ...config, game };
}

const column = (fixture: Fixture, table: string, name: string): unknown[] =>
  fixture.tables[table]!.rows.map((row) => row[name]);

describe.each(BACKENDS)(
  'references without foreign keys and tables sliced by their own turn column on %s',
  (backend) => {
    let t: TestDb;
    let fixture: Fixture;
    let warnings: string[];

    beforeAll(async () => {
      t = await tallyDb(backend);
      ({
        fixtures: [fixture],
        warnings,
      } = (await captureFromDb(t.db, t.config, { campaign: ROOM_A, turns: { turn: 3 }, now: NOW })) as {
        fixtures: [Fixture];
        warnings: string[];
      });
    });
    afterAll(async () => t?.cleanup());

    it('captures turn 3 as the hand-counted rows: no row of turn 3 or later, no vote of another room', () => {
      const counts = Object.fromEntries(
        Object.entries(fixture.tables).map(([name, table]) => [name, table.rows.length]),
      );
      expect(counts).toEqual({
        action_results: 4,
        actions: 4,
        entries: 2,
        notes: 1,
        players: 2,
        rooms: 1,
        users: 3,
        votes: 4,
      });
      expect(column(fixture, 'votes', 'choice')).toEqual(['a vote 1.1', 'a vote 1.2', 'a vote 2.1', 'a vote 2.2']);
      expect(new Set(column(fixture, 'votes', 'roomId'))).toEqual(new Set([ROOM_A]));
      expect(column(fixture, 'actions', 'what')).toEqual([
        'p1 acts on 1',
        'p2 acts on 1',
        'p1 acts on 2',
        'p2 acts on 2',
      ]);
      // A result follows its action out: the results of turn 3's actions and later are cut with them.
      expect(column(fixture, 'action_results', 'outcome')).toEqual([
        'result of p1 acts on 1',
        'result of p2 acts on 1',
        'result of p1 acts on 2',
        'result of p2 acts on 2',
      ]);
      expect(column(fixture, 'entries', 'n')).toEqual([1, 2]);
      expect(fixture.input.values).toEqual({ said: 'a said 3' });
      // The game master (user 3) is only named by the declared "authorId": captured as a shared row all the same.
      expect(fixture.tables.users!.role).toBe('shared');
      expect(column(fixture, 'users', 'id')).toEqual([1, 2, 3]);
      expect(fixture.source.reflectsPresent).toEqual(['notes', 'players', 'rooms']);
    });

    it('records a declared reference as a foreign key marked declared, outside the schema fingerprint', async () => {
      expect(fixture.tables.votes!.foreignKeys).toEqual([
        { name: 'votes.roomId', columns: ['roomId'], references: { table: 'rooms', columns: ['id'] }, declared: true },
      ]);
      expect(fixture.tables.entries!.foreignKeys.map((fk) => [fk.name, fk.declared ?? false])).toEqual([
        ['entries_room_id_fkey', false],
        ['entries.authorId', true],
      ]);
      const catalog = await introspect(t.db.pool);
      expect(fixture.source.schemaFingerprint).toBe(
        schemaFingerprint(Object.keys(fixture.tables).map((name) => catalog.tables.get(name)!)),
      );
    });

    it('says what to add for the tables it cannot slice, and warns of no candidate once all are declared', () => {
      expect(warnings).toEqual([NOTES, PLAYERS]);
    });

    it('with nothing declared: warns of the reference it finds and of the turn column to slice by, with the lines to add', async () => {
      const { fixtures, warnings: found } = await captureFromDb(t.db, bare(t.config), {
        campaign: ROOM_A,
        turns: { turn: 3 },
        now: NOW,
      });
      const [undeclared] = fixtures as [Fixture];
      expect(undeclared.tables.votes).toBeUndefined();
      expect(undeclared.tables.actions!.rows).toHaveLength(10);
      expect(column(undeclared, 'users', 'id')).toEqual([1, 2]);
      expect(found).toEqual([
        unplaced('action_results', '10 of 10', 'follows actions once that is sliced (nothing more to add)'),
        unplaced('actions', '10 of 10', 'name its turn column: add to game.turnColumns "actions": "turn"'),
        NOTES,
        PLAYERS,
        // Its notes' "playerId" values are all keys of players in the fixture; players' "entryId" (99) is no entry's.
        `${NAME}: "notes"."playerId" holds keys of "players" rows in the fixture but has no foreign key: add to game.references: "notes.playerId": "players"`,
        `${NAME}: "votes"."roomId" holds keys of "rooms" rows in the fixture but has no foreign key: add to game.references: "votes.roomId": "rooms"`,
        // Named like a key of no table (init's TODO), and its value (3) is the key of no row in this fixture.
        `${NAME}: "entries"."authorId" is named like a key, with no foreign key, no reference declared and no table named so: if it holds another row's key, add to game.references: "entries.authorId": "TARGET"`,
      ]);
    });

    it('refuses a turn column on a table no campaign owns, naming the config place', async () => {
      const config = bare(t.config);
      const catalog = await introspect(t.db.pool);
      expect(() =>
        resolveGameGraph({ ...config, game: { ...config.game, turnColumns: { votes: 'turn' } } }, catalog),
      ).toThrow(
        '<sample game config>: $.game.turnColumns.votes: "votes" is not owned by a campaign (shared, excluded, or not reachable from "rooms"): only owned tables are sliced',
      );
    });

    it('verify against the database names a declaration of a column the database lacks, with its place', async () => {
      const catalog = await introspect(t.db.pool);
      const game = { ...t.config.game, references: { 'votes.roomid': 'rooms' } };
      expect(checkConfigAgainstCatalog({ ...t.config, game }, catalog)).toEqual([
        '<sample game config>: $.game.references["votes.roomid"]: table "votes" has no column "roomid" (did you mean "roomId"?)',
      ]);
      expect(checkConfigAgainstCatalog(t.config, catalog)).toEqual([]);
    });

    it('seeds with remap: the declared column takes the new room key; teardown removes the votes reached only through it', async () => {
      const before = await tableChecksums(t.db);
      const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'remap' });
      const scratch = await session.seed(fixture);
      expect(scratch.key).toMatch(/^[0-9a-f-]{36}$/);
      expect([ROOM_A, ROOM_B]).not.toContain(scratch.key);
      const votes = await t.db.pool.query(`SELECT choice FROM votes WHERE "roomId" = $1 ORDER BY choice`, [
        scratch.key,
      ]);
      expect(votes.rows.map((row) => row.choice)).toEqual(['a vote 1.1', 'a vote 1.2', 'a vote 2.1', 'a vote 2.2']);
      // A reference into a shared table keeps its value, as a foreign key's does.
      const authors = await t.db.pool.query(`SELECT DISTINCT "authorId" FROM entries WHERE room_id = $1`, [
        scratch.key,
      ]);
      expect(authors.rows).toEqual([{ authorId: 3 }]);
      expect((await session.check(scratch, fixture)).differences).toEqual([]);

      // The SUT votes in its room: a row reached only through the declared reference, torn down all the same.
      await t.db.pool.query(`INSERT INTO votes ("roomId", turn, choice) VALUES ($1, 3, 'the SUT votes')`, [
        scratch.key,
      ]);
      const report = await scratch.teardown();
      expect(report.deleted.votes).toBe(5);
      expect(report.addedBySut).toEqual({ votes: 1 });
      expect(await tableChecksums(t.db)).toEqual(before);
      expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    });

    it('gc tears down a campaign by the game recorded with it, declared references included', async () => {
      const before = await tableChecksums(t.db);
      const scratch = await new ScratchSession(t.db, { game: t.config.game, owner: null }).seed(fixture);
      const report = await collectGarbage(t.db, { all: true });
      expect(report.removed.map((removed) => [removed.id, removed.deleted.votes])).toEqual([[scratch.id, 4]]);
      expect(await tableChecksums(t.db)).toEqual(before);
    });

    it.runIf(backend === 'postgres')(
      'seeds with the database strategy: the clone holds the fixture, and the database is as before',
      async () => {
        const before = await tableChecksums(t.db);
        const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
        const scratch = await session.seed(fixture);
        expect(scratch.key).toBe(ROOM_A);
        expect((await session.check(scratch, fixture)).differences).toEqual([]);
        await scratch.teardown();
        await session.close();
        expect(await tableChecksums(t.db)).toEqual(before);
        expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
      },
    );

    it("proposes a column named like a key of no table for the one table whose keys its values are (init's TODO)", async () => {
      await t.db.pool.query('ALTER TABLE notes ADD COLUMN origin_id uuid');
      try {
        await t.db.pool.query('UPDATE notes SET origin_id = room_id');
        const { warnings: found } = await captureFromDb(t.db, t.config, {
          campaign: ROOM_A,
          turns: { turn: 3 },
          now: NOW,
        });
        // Only rooms have uuid keys: the one table its value can be a key of.
        expect(found.filter((line) => line.includes('origin_id'))).toEqual([
          `${NAME}: "notes"."origin_id" holds keys of "rooms" rows in the fixture but has no foreign key: add to game.references: "notes.origin_id": "rooms"`,
        ]);
      } finally {
        await t.db.pool.query('ALTER TABLE notes DROP COLUMN origin_id');
      }
    });
  },
);
