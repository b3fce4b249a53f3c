#!/usr/bin/env node
// The sample game's stand-in for an LLM game master: a `command` SUT as turnkit runs it. It reads the request on
// stdin, reads its scratch campaign through DATABASE_URL (like a real game master reads its game state), answers
// the player's question about the way to the mess hall, and plays its turn by writing it into the campaign.
//
// It is deterministic for a seed (fixture, rep and TURNKIT_SEED), and it believes recent narration over the world
// facts: when a recent turn put the mess hall on deck 3 (the sample campaign's turn 19 does) it gives the wrong
// route most of the time; otherwise it is right most of the time. That is the upstream error the constructed
// fixture `constructed/meridian-turn-23-deck-fixed.json` corrects.
import pg from 'pg';

const request = JSON.parse(
  await new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk) => (text += chunk));
    process.stdin.on('end', () => resolve(text));
  }),
);

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
try {
  const recent = await client.query(
    'SELECT turn_number, narration FROM turns WHERE campaign_id = $1 ORDER BY turn_number DESC LIMIT 8',
    [request.campaign],
  );
  const misled = recent.rows.some((row) => /mess hall[^.]*deck 3/i.test(row.narration ?? ''));
  // `turnkit attribute` runs looks of reps numbered from 1 again: TURNKIT_LOOK (2, 3, ...) makes each look draw afresh.
  const look = process.env.TURNKIT_LOOK && process.env.TURNKIT_LOOK !== '1' ? `/look-${process.env.TURNKIT_LOOK}` : '';
  const random = seeded(`${request.fixture}/${request.rep}/${process.env.TURNKIT_SEED ?? 'sample'}${look}`);
  const wrong = misled ? random() < 0.8 : random() < 0.1;
  const response = wrong
    ? 'You step out of engineering and walk the short corridor past the machine shop: the mess hall is right here on deck 3, and Dr. Hale is inside.'
    : 'You take the lift up from engineering to deck 2 and walk past the crew berths to the mess hall, where Dr. Hale is nursing a cup of tea.';
  // The game master plays its turn: the answer becomes turn N of its campaign (turnkit records it and removes it).
  const last = recent.rows[0];
  await client.query(
    `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute)
     VALUES ($1, $2, $3, $4, now(), 0)`,
    [request.campaign, (last?.turn_number ?? 0) + 1, Object.values(request.input).join(' '), response],
  );
  process.stdout.write(`${JSON.stringify({ response })}\n`);
} finally {
  await client.end();
}

// mulberry32 over a string hash: the same seed gives the same answers on every machine.
function seeded(text) {
  let state = 0;
  for (const char of text) state = (Math.imul(state, 31) + char.charCodeAt(0)) | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
