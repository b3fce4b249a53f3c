import type pg from 'pg';
import type { Db } from '../db/connect.js';
import { inTransaction } from '../db/transaction.js';
import { CHARACTERS, CONNECTIONS, DECKS, LOCATIONS, OPENING_FACTS, OPENING_NARRATION } from './ship-plan.js';
import { planTurns } from './turn-script.js';
import { mulberry32 } from '../util/seeded-random.js';

/** The sample player's sign-in address (a live game's players have one; capture scrubs it). */
export const SAMPLE_PLAYER_EMAIL = 'ripley.sample@meridian-crew.net';
/** The sample player's password hash: bcrypt-shaped, of no password anyone uses. */
export const SAMPLE_PLAYER_PASSWORD_HASH = '$2b$12$Q9mB7cKx2yT4vW6zA8dE1uH3jL5nP7rS9tV1xZ3bD5fG7hJ9kM1oq';

/** Options for a sample campaign. */
export interface SampleOptions {
  turns: number;
  /** Seed of the session's randomness (same seed, same session). */
  seed?: number;
  /** Start of the session; turn times follow it. */
  startedAt?: Date;
}

/**
 * Inserts one sample campaign that looks like a session played for N turns, in one transaction, with one
 * statement per table (rows passed as a single JSON parameter), so 5,000 turns take a moment. Returns its key.
 */
export async function createSampleCampaign(db: Db, options: SampleOptions): Promise<string> {
  const seed = options.seed ?? 7;
  const started = options.startedAt ?? new Date('2026-03-14T19:30:00.000Z');
  return inTransaction(db, 'BEGIN', async (client) => {
    const key = await insertCampaign(client, seed, started);
    await insertRows(client, key, seed, options.turns, started);
    return key;
  });
}

async function insertCampaign(client: pg.PoolClient, seed: number, started: Date): Promise<string> {
  await client.query(
    `INSERT INTO users (handle, display_name, email, password_hash) VALUES ('sample-player', 'Sample Player', $1, $2)
     ON CONFLICT (handle) DO NOTHING`,
    // What a live game holds, so the sample exercises scrubbing: the sample config replaces both at capture.
    [SAMPLE_PLAYER_EMAIL, SAMPLE_PLAYER_PASSWORD_HASH],
  );
  const settings = {
    difficulty: 'hard',
    tone: 'grim',
    safety: { lines: ['spiders'], veils: ['vacuum exposure'] },
    dice: '2d6',
  };
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO campaigns (user_id, title, ship_name, opening_narration, rng_seed, settings, started_at)
     SELECT id, $1, 'Meridian', $2, $3::int8, $4::jsonb, $5 FROM users WHERE handle = 'sample-player'
     RETURNING id::text`,
    // Past 2^53 on purpose: a fixture must keep every digit.
    [
      'The Long Dark of the Meridian',
      OPENING_NARRATION,
      (9007199254740993n + BigInt(seed)).toString(),
      JSON.stringify(settings),
      started.toISOString(),
    ],
  );
  return rows[0]!.id;
}

async function insertRows(
  client: pg.PoolClient,
  campaign: string,
  seed: number,
  turnCount: number,
  started: Date,
): Promise<void> {
  const json = (value: unknown): string => JSON.stringify(value);
  await client.query(
    `INSERT INTO decks (campaign_id, deck_number, name) SELECT $1, r.n, r.name FROM jsonb_to_recordset($2::jsonb) AS r(n int, name text)`,
    [campaign, json(DECKS.map((deck) => ({ n: deck.number, name: deck.name })))],
  );
  const located = await client.query<{ id: string; name: string }>(
    `INSERT INTO locations (campaign_id, deck_number, name, description, tags)
     SELECT $1, r.deck, r.name, r.description, r.tags FROM jsonb_to_recordset($2::jsonb) AS r(deck int, name text, description text, tags text[])
     RETURNING id::text, name`,
    [campaign, json(LOCATIONS)],
  );
  const ids = new Map(located.rows.map((row) => [row.name, row.id]));
  await client.query(
    `UPDATE locations l SET parent_location_id = r.parent FROM jsonb_to_recordset($1::jsonb) AS r(id int8, parent int8) WHERE l.id = r.id`,
    [json(LOCATIONS.filter((l) => l.parent).map((l) => ({ id: ids.get(l.name), parent: ids.get(l.parent!) })))],
  );
  await client.query(
    `INSERT INTO location_connections (from_location_id, to_location_id, kind, travel_minutes)
     SELECT r.a, r.b, r.kind, r.minutes FROM jsonb_to_recordset($1::jsonb) AS r(a int8, b int8, kind text, minutes numeric)`,
    [json(CONNECTIONS.map((c) => ({ a: ids.get(c.from), b: ids.get(c.to), kind: c.kind, minutes: c.minutes })))],
  );
  const random = mulberry32(seed ^ 0x5eed);
  const portrait = (): string | null =>
    random() < 0.2
      ? null
      : `\\x00${Array.from({ length: 15 }, () =>
          Math.floor(random() * 256)
            .toString(16)
            .padStart(2, '0'),
        ).join('')}`;
  await client.query(
    `INSERT INTO characters (campaign_id, name, role, location_id, hit_points, max_hit_points, traits, portrait)
     SELECT $1, r.name, r.role, r.location, r.hp, r.max_hp, r.traits, r.portrait::bytea
     FROM jsonb_to_recordset($2::jsonb) AS r(name text, role text, location int8, hp int, max_hp int, traits jsonb, portrait text)`,
    [
      campaign,
      json(
        CHARACTERS.map((c) => ({
          name: c.name,
          role: c.role,
          location: ids.get(c.location),
          hp: c.hitPoints,
          max_hp: c.maxHitPoints,
          traits: c.traits,
          portrait: portrait(),
        })),
      ),
    ],
  );
  const planned = planTurns(turnCount, seed);
  const turnRows = await client.query<{ id: string; turn_number: number }>(
    `INSERT INTO turns (campaign_id, turn_number, player_input, narration, location_id, played_at, ship_minute, tokens_used, dice_rolls)
     SELECT $1, r.n, r.input, r.narration, r.location, $3::timestamptz + make_interval(secs => r.n * 83.25), r.minute, r.tokens, r.dice
     FROM jsonb_to_recordset($2::jsonb) AS r(n int, input text, narration text, location int8, minute int, tokens int8, dice int[])
     RETURNING id::text, turn_number`,
    [
      campaign,
      json(
        planned.map((t) => ({
          n: t.turnNumber,
          input: t.input,
          narration: t.narration,
          location: ids.get(t.location),
          minute: t.shipMinute,
          tokens: t.tokensUsed,
          dice: t.diceRolls,
        })),
      ),
      started.toISOString(),
    ],
  );
  const turnIds = new Map(turnRows.rows.map((row) => [row.turn_number, row.id]));
  const facts = [
    ...OPENING_FACTS.map((fact) => ({ ...fact, turn: null })),
    ...planned.filter((t) => t.fact).map((t) => ({ ...t.fact!, turn: turnIds.get(t.turnNumber) })),
  ];
  await client.query(
    `INSERT INTO world_facts (campaign_id, introduced_at_turn_id, subject, fact, certainty, details)
     SELECT $1, r.turn, r.subject, r.fact, r.certainty, r.details FROM jsonb_to_recordset($2::jsonb) AS r(turn int8, subject text, fact text, certainty numeric, details jsonb)`,
    [campaign, json(facts)],
  );
  const last = planned.at(-1);
  const current = last ? ids.get(last.location) : ids.get('Crew Berths');
  await client.query(`UPDATE campaigns SET current_location_id = $2 WHERE id = $1`, [campaign, current]);
}
