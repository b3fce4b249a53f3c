import type { TurnkitConfigInput } from '../../src/config/schema.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { createTestDb, type TestDb } from './test-db.js';

// A game shaped unlike the sample: its own schema, uuid keys, turns ordered by a timestamp with no turn-number
// column, a citext shared accounts table, a quoted table name with spaces, and an excluded audit table.
/** The saga schema: tables in their own schema, uuid keys, a timestamp turn order, a quoted table name. */
export const SCHEMA = `
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

/** Story A, the campaign the tests capture. */
export const A = '00000000-0000-4000-8000-00000000000a';
/** Story B, another campaign in the same tables. */
export const B = '00000000-0000-4000-8000-00000000000b';
/** Story A's account. */
export const OWNER = '00000000-0000-4000-8000-0000000000a1';
/** The uuid of move n. */
export const move = (n: number): string => `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;

/** Two stories with moves and notes. */
export const DATA = `
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

/** The game config of the saga schema. */
export const CONFIG: TurnkitConfigInput = {
  game: {
    root: { table: 'saga.stories', key: 'story_id' },
    turns: { table: 'saga.moves', order: 'at', input: ['said'] },
    shared: ['saga.accounts'],
    exclude: ['saga.audit'],
  },
  // The accounts' addresses are test data, kept as they are: capture would refuse them without a rule.
  scrub: { 'saga.accounts.email': 'keep' },
};

/** A test database holding the saga schema and its two stories, and the fixture of story A at turn 3. */
export async function sagaWithFixture(
  backend: 'embedded' | 'postgres',
  extraSql = '',
): Promise<{ t: TestDb; fixture: Fixture }> {
  const t = await createTestDb(backend, CONFIG);
  await t.db.pool.query(SCHEMA);
  await t.db.pool.query(DATA);
  if (extraSql) await t.db.pool.query(extraSql);
  const fixture = (await captureFromDb(t.db, t.config, { campaign: A, turns: { turn: 3 } })).fixtures[0]!;
  return { t, fixture };
}
