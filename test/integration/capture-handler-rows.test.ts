import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnkitConfigInput } from '../../src/config/schema.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { projectPaths } from '../../src/project/open-project.js';
import { seed, teardown } from '../../src/scratch/scratch-operations.js';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';

// A chat-style game master shaped like the Django one that showed the problem: history rows with a role, and rows
// the game writes while it plays a turn that reference that turn's player row: an analysis of the move (a foreign
// key), a narrative consequence whose source is the player's row (a declared reference, no constraint), a note on
// that consequence (transitively the handler's), and an attachment the player sent with the move (kept by config).
const SCHEMA = `
  CREATE TABLE adventures (id serial PRIMARY KEY, title text NOT NULL);
  CREATE TABLE history (
    id serial PRIMARY KEY, adventure_id integer NOT NULL REFERENCES adventures, role text NOT NULL,
    text text NOT NULL, created_at timestamptz NOT NULL);
  CREATE TABLE analysis_log (id serial PRIMARY KEY, history_id integer NOT NULL REFERENCES history, kind text NOT NULL);
  CREATE TABLE consequences (
    id serial PRIMARY KEY, adventure_id integer NOT NULL REFERENCES adventures, source_history_entry integer,
    summary text NOT NULL);
  CREATE TABLE consequence_notes (id serial PRIMARY KEY, consequence_id integer NOT NULL REFERENCES consequences, note text NOT NULL);
  CREATE TABLE attachments (id serial PRIMARY KEY, history_id integer NOT NULL REFERENCES history, name text NOT NULL);
  CREATE TABLE memory_cards (id serial PRIMARY KEY, adventure_id integer NOT NULL REFERENCES adventures, summary text NOT NULL);
  ALTER TABLE adventures ADD COLUMN rollback_min_history_id integer;
`;

// Adventure 1: a system prologue, then four turns of a user row and an assistant row (ids 2..9, in time order).
// Each user row u gets an analysis (id = u), a consequence (id = u) with a note (id = u); user rows 4 and 8 an
// attachment. Adventure 2 is another campaign.
const DATA = `
  INSERT INTO adventures VALUES (1, 'Vault'), (2, 'Other');
  INSERT INTO history VALUES
    (1, 1, 'system', 'You stand before a vault.', '2025-01-01 10:00:00+00'),
    (2, 1, 'user', 'I knock.', '2025-01-01 10:00:01+00'),
    (3, 1, 'assistant', 'Nobody answers.', '2025-01-01 10:00:02+00'),
    (4, 1, 'user', 'I pick the lock.', '2025-01-01 10:00:03+00'),
    (5, 1, 'assistant', 'It clicks.', '2025-01-01 10:00:04+00'),
    (6, 1, 'user', 'I go in.', '2025-01-01 10:00:05+00'),
    (7, 1, 'assistant', 'Gold everywhere.', '2025-01-01 10:00:06+00'),
    (8, 1, 'user', 'I take the gold.', '2025-01-01 10:00:07+00'),
    (9, 1, 'assistant', 'An alarm rings.', '2025-01-01 10:00:08+00'),
    (10, 2, 'user', 'Elsewhere.', '2025-01-01 09:00:00+00');
  INSERT INTO analysis_log VALUES (2, 2, 'knock'), (4, 4, 'lockpick'), (6, 6, 'move'), (8, 8, 'theft');
  INSERT INTO consequences VALUES (2, 1, 2, 'noise'), (4, 1, 4, 'door open'), (6, 1, 6, 'inside'), (8, 1, 8, 'alarm'),
    (20, 1, NULL, 'the vault exists');
  INSERT INTO consequence_notes VALUES (2, 2, 'n2'), (4, 4, 'n4'), (6, 6, 'n6'), (8, 8, 'n8');
  INSERT INTO attachments VALUES (4, 4, 'lockpick.png'), (8, 8, 'bag.png');
  -- Memory cards compacted from old turns name no turn; the campaign row marks a turn it may roll back to.
  INSERT INTO memory_cards VALUES (1, 1, 'knocked, picked the lock'), (2, 1, 'went in, took the gold');
  UPDATE adventures SET rollback_min_history_id = 2 WHERE id = 1;
  SELECT setval(s, 100) FROM unnest(ARRAY['adventures_id_seq', 'history_id_seq', 'analysis_log_id_seq',
    'consequences_id_seq', 'consequence_notes_id_seq', 'attachments_id_seq']) AS s;
`;

const GAME: TurnkitConfigInput = {
  game: {
    root: { table: 'adventures', key: 'id' },
    turns: {
      table: 'history',
      order: 'created_at',
      input: ['text'],
      role: { column: 'role', input: ['user'] },
      keepInputChildren: ['attachments'],
    },
    references: {
      'consequences.source_history_entry': 'history',
      // The campaign row to a turn: links no other table to a turn (paths through the root do not count).
      'adventures.rollback_min_history_id': 'history',
    },
  },
};

const ids = (fixture: Fixture, table: string): unknown[] =>
  (fixture.tables[table]?.rows ?? []).map((row) => Number(row.id)).sort((a, b) => a - b);

describe.each(BACKENDS)("rows turn N's own handler wrote are not in fixture N, on %s", (backend) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(backend, GAME);
    await t.db.pool.query(SCHEMA);
    await t.db.pool.query(DATA);
  });
  afterAll(async () => t?.cleanup());

  const capture = (turn: number, config: LoadedConfig = t.config) =>
    captureFromDb(t.db, config, { scrub: TEST_SCRUB, campaign: '1', turns: { turn }, now: new Date(0) });

  it('leaves out what references turn N’s input row, and what references that, hand-counted', async () => {
    const { fixtures, warnings } = await capture(3);
    const fixture = fixtures[0]!;
    // Turn 3 is user row 6: rows 1..5 and 6 itself stay, 7 (its reply) goes.
    expect(ids(fixture, 'history')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(fixture.input.values).toEqual({ text: 'I go in.' });
    // The analysis of move 6, consequence 6 (by the declared reference) and its note are the handler's.
    expect(ids(fixture, 'analysis_log')).toEqual([2, 4]);
    expect(ids(fixture, 'consequences')).toEqual([2, 4, 20]);
    expect(ids(fixture, 'consequence_notes')).toEqual([2, 4]);
    // Attachments are kept by game.turns.keepInputChildren: the player sent them with the move (none for row 6).
    expect(ids(fixture, 'attachments')).toEqual([4]);
    // One line per table whose kept rows no turn places, with the advice that fits it.
    const after = 'row(s) belong to no turn and show the database after turn 4, not before turn 3;';
    expect(warnings.filter((line) => line.includes('belong to no turn'))).toEqual([
      `${fixture.name}: consequences: 1 of 3 ${after} standing rows (their reference to a turn is empty): nothing to do`,
      `${fixture.name}: memory_cards: 2 of 2 ${after} declare the column that holds a key of "history": add to game.references "memory_cards.COLUMN": "history"`,
    ]);
    expect(fixture.source.reflectsPresent).toEqual(['adventures', 'consequences', 'memory_cards']);
    expect(warnings, warnings.join('\n')).toContain(
      `vault-turn-3: left out 1 row(s) of "analysis_log", 1 row(s) of "consequence_notes", 1 row(s) of "consequences" that reference turn 3's input: the turn's own handler wrote them (keep a table's with game.turns.keepInputChildren)`.replace(
        'vault-turn-3',
        fixture.name,
      ),
    );
  });

  it('keeps the input row’s attachments only when configured, and seeds the fixture without the handler rows', async () => {
    const { keepInputChildren: _kept, ...turns } = (GAME.game as { turns: Record<string, unknown> }).turns;
    const config = { ...t.config, game: { ...t.config.game, turns: turns as LoadedConfig['game']['turns'] } };
    const fixture = (await capture(4, config)).fixtures[0]!;
    expect(ids(fixture, 'history')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ids(fixture, 'analysis_log')).toEqual([2, 4, 6]);
    expect(ids(fixture, 'attachments')).toEqual([4]);

    // Seeded, the scratch campaign holds no analysis of the move the SUT is to answer.
    const project = { config: t.config, paths: projectPaths(t.config), db: t.db };
    const kept = (await capture(4)).fixtures[0]!;
    expect(ids(kept, 'attachments')).toEqual([4, 8]);
    await mkdir(join(t.dir, 'fixtures'), { recursive: true });
    const file = join(t.dir, 'fixtures', 'vault-4.json');
    await writeFile(file, `${JSON.stringify(kept, null, 2)}\n`);
    const heard: string[] = [];
    const seeded = await seed(project, { fixture: file, strategy: 'remap', onWarning: (line) => heard.push(line) });
    // An index is advised for a foreign key a delete makes Postgres scan, never for a declared reference (no
    // constraint, no scan).
    expect(heard.some((line) => line.includes('"analysis_log" (history_id) references "history" with no index'))).toBe(
      true,
    );
    expect(heard.filter((line) => line.includes('source_history_entry'))).toEqual([]);
    try {
      const analysed = await t.db.pool.query(
        `SELECT a.kind FROM analysis_log a JOIN history h ON h.id = a.history_id WHERE h.adventure_id = $1 ORDER BY a.id`,
        [seeded.key],
      );
      expect(analysed.rows.map((row) => row.kind)).toEqual(['knock', 'lockpick', 'move']);
    } finally {
      await teardown(project, { key: seeded.id });
    }
  });
});
