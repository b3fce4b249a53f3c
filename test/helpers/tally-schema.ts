import type { TurnkitConfigInput } from '../../src/config/schema.js';
import { createTestDb, type TestDb } from './test-db.js';

// A game shaped after an ORM's defaults: rooms keyed by uuid, votes that name their room in a text "roomId" with no
// foreign key, actions and votes that carry the game's turn number but no key of a turn row, and entries whose
// "authorId" names a user with no foreign key, and notes whose "playerId" names a player with none.
/** The tally schema: references without foreign keys, tables sliced only by their own turn column. */
export const TALLY_SCHEMA = `
  CREATE TABLE users (id serial PRIMARY KEY, label text NOT NULL);
  CREATE TABLE rooms (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), title text NOT NULL, owner_id int NOT NULL REFERENCES users);
  CREATE TABLE entries (id serial PRIMARY KEY, room_id uuid NOT NULL REFERENCES rooms, n int NOT NULL, said text NOT NULL,
    reply text, "authorId" int);
  CREATE TABLE players (id serial PRIMARY KEY, room_id uuid NOT NULL REFERENCES rooms, user_id int NOT NULL REFERENCES users,
    "entryId" int);
  CREATE TABLE votes (id serial PRIMARY KEY, "roomId" text NOT NULL, turn int NOT NULL, choice text NOT NULL);
  CREATE INDEX ON votes ("roomId");
  CREATE TABLE actions (id serial PRIMARY KEY, player_id int NOT NULL REFERENCES players, turn int NOT NULL, what text NOT NULL);
  CREATE INDEX ON actions (player_id);
  CREATE TABLE action_results (id serial PRIMARY KEY, action_id int NOT NULL REFERENCES actions, outcome text NOT NULL);
  CREATE INDEX ON action_results (action_id);
  CREATE TABLE notes (id serial PRIMARY KEY, room_id uuid NOT NULL REFERENCES rooms, body text NOT NULL, "playerId" int);
  CREATE INDEX ON entries (room_id);
  CREATE INDEX ON players (room_id);
  CREATE INDEX ON notes (room_id);
`;

/** Room A, the campaign the tests capture. */
export const ROOM_A = '00000000-0000-4000-8000-00000000000a';
/** Room B, another campaign in the same tables. */
export const ROOM_B = '00000000-0000-4000-8000-00000000000b';

/**
 * Room A: five turns (entries n = 1..5, written by the game master, user 3), two players, two votes and two actions
 * (one per player) per turn, a result per action. Room B: three turns, one player, its own votes and actions.
 */
export const TALLY_DATA = `
  INSERT INTO users (label) VALUES ('ana'), ('bo'), ('gm'), ('cy'), ('other gm');
  INSERT INTO rooms VALUES ('${ROOM_A}', 'Room A', 1), ('${ROOM_B}', 'Room B', 4);
  INSERT INTO entries (room_id, n, said, reply, "authorId")
    SELECT '${ROOM_A}', n, 'a said ' || n, 'a reply ' || n, 3 FROM generate_series(1, 5) AS n;
  INSERT INTO entries (room_id, n, said, reply, "authorId")
    SELECT '${ROOM_B}', n, 'b said ' || n, 'b reply ' || n, 5 FROM generate_series(1, 3) AS n;
  -- "entryId" names no entry (99): named like a reference, but not one.
  INSERT INTO players (room_id, user_id, "entryId") VALUES ('${ROOM_A}', 1, 99), ('${ROOM_A}', 2, NULL), ('${ROOM_B}', 4, NULL);
  INSERT INTO votes ("roomId", turn, choice)
    SELECT '${ROOM_A}', turn, 'a vote ' || turn || '.' || k FROM generate_series(1, 5) AS turn, generate_series(1, 2) AS k
    ORDER BY turn, k;
  INSERT INTO votes ("roomId", turn, choice) SELECT '${ROOM_B}', turn, 'b vote ' || turn FROM generate_series(1, 3) AS turn;
  INSERT INTO actions (player_id, turn, what)
    SELECT player, turn, 'p' || player || ' acts on ' || turn FROM generate_series(1, 5) AS turn, generate_series(1, 2) AS player
    ORDER BY turn, player;
  INSERT INTO actions (player_id, turn, what) SELECT 3, turn, 'b acts on ' || turn FROM generate_series(1, 2) AS turn;
  INSERT INTO action_results (action_id, outcome) SELECT id, 'result of ' || what FROM actions ORDER BY id;
  INSERT INTO notes (room_id, body, "playerId") VALUES ('${ROOM_A}', 'a note', 2), ('${ROOM_B}', 'b note', 3);
`;

/** The game as it is before anything is declared: votes are not part of a room, actions are not sliced. */
export const TALLY_BARE: TurnkitConfigInput = {
  game: {
    root: { table: 'rooms', key: 'id' },
    turns: { table: 'entries', order: 'n', input: ['said'] },
  },
};

/** The game with its references and turn columns declared. */
export const TALLY_CONFIG: TurnkitConfigInput = {
  game: {
    ...TALLY_BARE.game,
    references: { 'votes.roomId': 'rooms', 'entries.authorId': 'users', 'notes.playerId': 'players' },
    turnColumns: { votes: 'turn', actions: 'turn' },
  },
};

/** A test database holding the tally schema and its two rooms. */
export async function tallyDb(backend: 'embedded' | 'postgres', game = TALLY_CONFIG): Promise<TestDb> {
  const t = await createTestDb(backend, game);
  await t.db.pool.query(TALLY_SCHEMA);
  await t.db.pool.query(TALLY_DATA);
  return t;
}
