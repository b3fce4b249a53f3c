import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { captureFromDb } from '../../src/fixture/capture.js';
import { checkFixture } from '../../src/fixture/check-fixture.js';
import type { TurnkitConfigInput } from '../../src/config/schema.js';
import type { Fixture } from '../../src/fixture/format.js';

// A game shaped unlike the sample: its own schema, uuid keys, turns ordered by a timestamp with no turn-number
// column, a citext shared accounts table, a quoted table name with spaces, and an excluded audit table.
const SCHEMA = `
  CREATE EXTENSION IF NOT EXISTS citext;
  CREATE SCHEMA saga;
  CREATE TABLE saga.accounts (id uuid PRIMARY KEY, email citext NOT NULL UNIQUE);
  CREATE TABLE saga.stories (story_id uuid PRIMARY KEY, owner uuid NOT NULL REFERENCES saga.accounts, title text NOT NULL);
  CREATE TABLE saga.moves (
    move_id uuid PRIMARY KEY, story uuid NOT NULL REFERENCES saga.stories, at timestamptz NOT NULL,
    said text NOT NULL, reply text, mood real);
  CREATE TABLE saga."Odd Name" (
    "Story Ref" uuid NOT NULL REFERENCES saga.stories, "Move Ref" uuid REFERENCES saga.moves,
    "Note Text" text NOT NULL, "When" timestamp, PRIMARY KEY ("Story Ref", "Note Text"));
  CREATE TABLE saga.audit (id serial PRIMARY KEY, story uuid REFERENCES saga.stories, line text);
`;

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const OWNER = '00000000-0000-4000-8000-0000000000a1';
const move = (n: number): string => `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;

const DATA = `
  INSERT INTO saga.accounts VALUES ('${OWNER}', 'Ada@Example.org'), ('00000000-0000-4000-8000-0000000000b1', 'other@example.org');
  INSERT INTO saga.stories VALUES ('${A}', '${OWNER}', 'Story A'), ('${B}', '00000000-0000-4000-8000-0000000000b1', 'Story B');
  -- Inserted out of time order: turn order must come from "at", not from insertion or key order.
  INSERT INTO saga.moves VALUES
    ('${move(9)}', '${A}', '2025-01-01 10:00:00+00', 'I open the door.', 'It creaks.', 0.5),
    ('${move(1)}', '${A}', '2025-01-01 10:02:00+00', 'I step inside.', 'Darkness.', -1.25),
    ('${move(5)}', '${A}', '2025-01-01 10:05:00+00', 'I light a torch.', 'Shadows dance.', 'NaN'),
    ('${move(3)}', '${A}', '2025-01-01 10:09:00+00', 'I read the runes.', 'They glow.', NULL),
    ('${move(7)}', '${B}', '2025-01-01 09:00:00+00', 'Other story.', 'Elsewhere.', 1);
  INSERT INTO saga."Odd Name" VALUES
    ('${A}', '${move(9)}', 'first note', '2025-01-01 10:00:30'),
    ('${A}', NULL, 'campaign note', NULL),
    ('${A}', '${move(3)}', 'future note', '2025-01-01 10:09:30'),
    ('${B}', '${move(7)}', 'other note', NULL);
  INSERT INTO saga.audit (story, line) VALUES ('${A}', 'secret audit line');
`;

const CONFIG: TurnkitConfigInput = {
  game: {
    root: { table: 'saga.stories', key: 'story_id' },
    turns: { table: 'saga.moves', order: 'at', input: ['said'] },
    shared: ['saga.accounts'],
    exclude: ['saga.audit'],
  },
};

describe.each(BACKENDS)('capture of a differently shaped schema on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    t = await createTestDb(backend, CONFIG);
    await t.db.pool.query(SCHEMA);
    await t.db.pool.query(DATA);
    fixture = (await captureFromDb(t.db, t.config, { campaign: A, turns: { turn: 3 } })).fixtures[0]!;
  });
  afterAll(async () => t?.cleanup());

  it('orders turns by the timestamp column and takes turn 3\'s input', () => {
    expect(fixture.source.latestTurn).toBe(4);
    expect(fixture.input).toEqual({ turn: 3, values: { said: 'I light a torch.' } });
    // Rows are sorted by primary key in the file, so compare as sets of what was said.
    expect(fixture.tables['saga.moves']!.rows.map((row) => row.said).sort()).toEqual(['I open the door.', 'I step inside.']);
    expect(fixture.tables['saga.moves']!.rows.map((row) => row.move_id)).toEqual([move(1), move(9)]);
  });

  it('keeps floats as numbers, quotes the odd table name, and cuts rows that point at later turns', () => {
    expect(fixture.tables['saga.moves']!.rows.map((row) => row.mood)).toEqual([-1.25, 0.5]);
    const odd = fixture.tables['saga.Odd Name']!;
    expect(odd.role).toBe('owned');
    expect(odd.primaryKey).toEqual(['Story Ref', 'Note Text']);
    expect(odd.rows).toEqual([
      { 'Story Ref': A, 'Move Ref': null, 'Note Text': 'campaign note', When: null },
      { 'Story Ref': A, 'Move Ref': move(9), 'Note Text': 'first note', When: '2025-01-01T10:00:30' },
    ]);
  });

  it('captures the shared account, leaves other stories and excluded tables out', () => {
    expect(Object.keys(fixture.tables).sort()).toEqual(['saga.Odd Name', 'saga.accounts', 'saga.moves', 'saga.stories']);
    expect(fixture.tables['saga.accounts']).toMatchObject({ role: 'shared', rows: [{ id: OWNER, email: 'Ada@Example.org' }] });
    expect(fixture.tables['saga.stories']!.rows).toEqual([{ story_id: A, owner: OWNER, title: 'Story A' }]);
    expect(JSON.stringify(fixture)).not.toContain('secret audit line');
    expect(JSON.stringify(fixture)).not.toContain('Other story.');
    expect(checkFixture(fixture)).toEqual([]);
  });

  it('names the config path of a table or column the database does not have', async () => {
    const bad = { ...t.config, game: { ...t.config.game, turns: { ...t.config.game.turns, order: 'turn_number' } } };
    await expect(captureFromDb(t.db, bad, { campaign: A, turns: { turn: 1 } })).rejects.toThrow(
      '<sample game config>: game.turns.order: table "saga.moves" has no column "turn_number"',
    );
    const missing = { ...t.config, game: { ...t.config.game, shared: ['saga.players'] } };
    await expect(captureFromDb(t.db, missing, { campaign: A, turns: { turn: 1 } })).rejects.toThrow(
      'game.shared[0]: no table "saga.players" in the database',
    );
  });
});
