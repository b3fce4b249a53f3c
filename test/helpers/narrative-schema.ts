import type { TurnkitConfigInput } from '../../src/config/schema.js';

// Two games whose turns are several rows, shaped as Prisma writes them: a quoted CamelCase "NarrativeEntry" table
// whose rows share the game's own integer turn (the player's ACTION, a DICE roll, the GM's NARRATION, a SYSTEM note),
// text ids the client makes (cuid-like), an enum role, timestamp(3) columns; and a chat game whose turn starts at
// each user message. Rows are inserted out of order so that turns come from the columns, not from insertion order.

/** How the Prisma-style game's ids look: text the client makes (cuid-like), or uuids (which remap can renew today). */
export type NarrativeKeys = 'text' | 'uuid';

/** The Prisma-style game: rooms, their narrative entries, and reactions to entries. */
export function narrativeSchema(keys: NarrativeKeys = 'text'): string {
  const key = keys === 'text' ? 'text' : 'uuid';
  const id = (prefix: string): string =>
    keys === 'text'
      ? `text PRIMARY KEY DEFAULT ('${prefix}' || substr(md5(random()::text), 1, 23))`
      : 'uuid PRIMARY KEY';
  return `
  CREATE TYPE "EntryType" AS ENUM ('ACTION', 'DICE', 'NARRATION', 'SYSTEM');
  CREATE TABLE "Room" (id ${id('cmroom')}, name text NOT NULL);
  CREATE TABLE "NarrativeEntry" (
    id ${id('cm')},
    "roomId" ${key} NOT NULL REFERENCES "Room"(id) ON DELETE CASCADE,
    turn integer NOT NULL, type "EntryType" NOT NULL, content text NOT NULL,
    "createdAt" timestamp(3) NOT NULL DEFAULT CURRENT_TIMESTAMP);
  CREATE TABLE "Reaction" (
    id ${id('cr')},
    "entryId" ${key} NOT NULL REFERENCES "NarrativeEntry"(id) ON DELETE CASCADE, emoji text NOT NULL);
`;
}

/** The Prisma-style game with text ids. */
export const NARRATIVE_SCHEMA = narrativeSchema('text');

/** An id of the game as the database holds it: the text itself, or a uuid made from it. */
export function keyOf(id: string, keys: NarrativeKeys): string {
  if (keys === 'text') return id;
  const hex = Buffer.from(id.slice(-6)).toString('hex').padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

/** The room the tests capture, and another one in the same tables. */
export const ROOM = 'cmroom0000000000000000001';
/** Another room, whose entries must never show up. */
export const OTHER_ROOM = 'cmroom0000000000000000002';

/** The entries of ROOM by id: turn, type, content, and the minute of createdAt (ids sort unlike time on purpose). */
export const ENTRIES: { id: string; turn: number; type: string; content: string; minute: number }[] = [
  { id: 'cmz01', turn: 1, type: 'ACTION', content: 'I open the door.', minute: 1 },
  { id: 'cmy02', turn: 1, type: 'DICE', content: 'd20: 14', minute: 2 },
  { id: 'cmx03', turn: 1, type: 'NARRATION', content: 'The door creaks open.', minute: 3 },
  { id: 'cmw04', turn: 2, type: 'ACTION', content: 'I step inside.', minute: 4 },
  { id: 'cmv05', turn: 2, type: 'NARRATION', content: 'Darkness swallows you.', minute: 5 },
  { id: 'cmu06', turn: 2, type: 'SYSTEM', content: 'Ada joined the room.', minute: 6 },
  { id: 'cmt07', turn: 3, type: 'ACTION', content: 'I light a torch.', minute: 7 },
  { id: 'cms08', turn: 3, type: 'DICE', content: 'd20: 3', minute: 8 },
  { id: 'cmr09', turn: 3, type: 'NARRATION', content: 'The torch sputters.', minute: 9 },
  // Turn 4 opens with a system note before the player's action: the input is the ACTION, not the first row.
  { id: 'cmq10', turn: 4, type: 'SYSTEM', content: 'Round 4 begins.', minute: 10 },
  { id: 'cmp11', turn: 4, type: 'ACTION', content: 'I read the runes.', minute: 11 },
  { id: 'cmo12', turn: 4, type: 'NARRATION', content: 'The runes glow.', minute: 12 },
  // The game skipped turns 5 and 6 (its own numbering has gaps).
  { id: 'cmn13', turn: 7, type: 'ACTION', content: 'I run.', minute: 13 },
  { id: 'cmm14', turn: 7, type: 'NARRATION', content: 'You escape.', minute: 14 },
];

/** Reactions by id and the entry they react to. */
export const REACTIONS = [
  { id: 'cr1', entry: 'cmx03', emoji: 'door' },
  { id: 'cr2', entry: 'cmt07', emoji: 'fire' },
  { id: 'cr3', entry: 'cmr09', emoji: 'sad' },
  { id: 'cr4', entry: 'cmo12', emoji: 'star' },
];

/** The rows of the Prisma-style game, inserted in reverse so that neither insertion nor key order is turn order. */
export function narrativeData(keys: NarrativeKeys = 'text'): string {
  const k = (id: string): string => keyOf(id, keys);
  return `
  INSERT INTO "Room" VALUES ('${k(ROOM)}', 'The Crypt'), ('${k(OTHER_ROOM)}', 'Elsewhere');
  INSERT INTO "NarrativeEntry" (id, "roomId", turn, type, content, "createdAt") VALUES
    ${[...ENTRIES]
      .reverse()
      .map(
        (entry) =>
          `('${k(entry.id)}', '${k(ROOM)}', ${entry.turn}, '${entry.type}', '${entry.content}', '2025-01-01 10:${String(entry.minute).padStart(2, '0')}:00.123')`,
      )
      .join(',\n    ')},
    ('${k('cmother1')}', '${k(OTHER_ROOM)}', 1, 'ACTION', 'Other room.', '2025-01-01 09:00:00'),
    ('${k('cmother2')}', '${k(OTHER_ROOM)}', 1, 'NARRATION', 'Other narration.', '2025-01-01 09:01:00');
  INSERT INTO "Reaction" VALUES ${REACTIONS.map((r) => `('${k(r.id)}', '${k(r.entry)}', '${r.emoji}')`).join(', ')};
`;
}

/** The rows of the Prisma-style game with text ids. */
export const NARRATIVE_DATA = narrativeData('text');

/** The game config of the Prisma-style game. */
export const NARRATIVE_CONFIG: TurnkitConfigInput = {
  game: {
    root: { table: 'Room', key: 'id' },
    turns: {
      table: 'NarrativeEntry',
      order: 'createdAt',
      input: ['content'],
      turn: 'turn',
      role: { column: 'type', input: ['ACTION'], labels: { NARRATION: 'GM', DICE: 'Dice' } },
    },
    shared: [],
    exclude: [],
  },
};

/** The ids of ROOM's entries that `pick` selects, sorted as the fixture sorts rows (by key). */
export function entryIds(pick: (entry: (typeof ENTRIES)[number]) => boolean): string[] {
  return ENTRIES.filter(pick)
    .map((entry) => entry.id)
    .sort();
}

/** The chat game: conversations and their messages, a turn starting at each user message. */
export const CHAT_SCHEMA = `
  CREATE TABLE conversations (id serial PRIMARY KEY, title text NOT NULL);
  CREATE TABLE messages (
    id serial PRIMARY KEY, conversation_id integer NOT NULL REFERENCES conversations ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('user', 'assistant')), content text NOT NULL, created_at timestamptz NOT NULL);
`;

/** The messages of conversation 1 in time order: a prologue, then turns of a user message and the replies. */
export const MESSAGES: { id: number; role: 'user' | 'assistant'; content: string }[] = [
  { id: 8, role: 'assistant', content: 'Welcome to the crypt.' },
  { id: 3, role: 'user', content: 'Hello?' },
  { id: 6, role: 'assistant', content: 'A voice answers.' },
  { id: 1, role: 'user', content: 'Who is there?' },
  { id: 7, role: 'assistant', content: 'A ghost.' },
  { id: 2, role: 'assistant', content: 'It smiles.' },
  { id: 5, role: 'user', content: 'I flee.' },
  { id: 4, role: 'assistant', content: 'You get away.' },
];

/** Conversation 1's messages (ids out of time order) and conversation 2's. */
export const CHAT_DATA = `
  INSERT INTO conversations VALUES (1, 'Crypt'), (2, 'Other');
  INSERT INTO messages VALUES
    ${MESSAGES.map((m, i) => `(${m.id}, 1, '${m.role}', '${m.content}', '2025-01-01 10:00:0${i}+00')`).join(',\n    ')},
    (9, 2, 'user', 'Elsewhere.', '2025-01-01 09:00:00+00');
  SELECT setval('messages_id_seq', 9);
  SELECT setval('conversations_id_seq', 2);
`;

/** The game config of the chat game: no turn column, a turn starts at each user message. */
export const CHAT_CONFIG: TurnkitConfigInput = {
  game: {
    root: { table: 'conversations', key: 'id' },
    turns: {
      table: 'messages',
      order: 'created_at',
      input: ['content'],
      role: { column: 'role', input: ['user'], labels: { assistant: 'GM' } },
    },
    shared: [],
    exclude: [],
  },
};
