import { CHAT_CONFIG, CHAT_DATA, CHAT_SCHEMA } from '../narrative-schema.js';
import type { Convention } from './index.js';

// A chat-style game (test/helpers/narrative-schema.ts): messages are the turns, a turn starting at each user message
// (no turn column), several messages per turn, and a prologue (the assistant's greeting before the first one).

/** The chat convention. */
export const CHAT: Convention = {
  name: 'chat',
  schema: CHAT_SCHEMA,
  data: CHAT_DATA,
  config: CHAT_CONFIG,
  campaign: '1',
  // The prologue (8), turn 1 (3, 6), turn 2 (1, 7, 2) and turn 3's user message (5); not its reply (4).
  rows: { conversations: 1, messages: 7 },
  narration: 'content',
  // A played turn is the user's message and the reply: two rows, one turn.
  writeTurn: `INSERT INTO messages (conversation_id, role, content, created_at)
    SELECT $1::int, v.role, v.content, now() + v.o * interval '1 millisecond'
    FROM (VALUES ('user', 'sut input', 0), ('assistant', 'sut narration', 1)) AS v(role, content, o) WHERE $2::int > 0`,
  outputRole: 'assistant',
  // Turn 3's user message is the fixture's own: turnkit writes the reply, then each later turn's message and reply.
  rolloutRows: [1, 2, 2],
};
