// A small piece of a game, as a team would have it in its own code: the game master's answer to "how do I get to
// the mess hall?", read from the campaign's state, played as the campaign's next turn.
import type pg from 'pg';

/** What the game master said and where it put the mess hall. */
export interface RouteAnswer {
  deck: number;
  narration: string;
}

/**
 * Answers from the campaign as it stands: the latest narration that places the mess hall wins over the world
 * facts (as a model believes recent narration), and the answer is written as the next turn.
 */
export async function answerRoute(client: pg.ClientBase, campaign: string, input: string): Promise<RouteAnswer> {
  const narrated = await client.query<{ narration: string }>(
    `SELECT narration FROM turns WHERE campaign_id = $1 AND narration ~* 'mess hall[^.]*deck [0-9]'
     ORDER BY turn_number DESC LIMIT 1`,
    [campaign],
  );
  const fact = await client.query<{ deck: number }>(
    `SELECT (details->>'deck')::int AS deck FROM world_facts WHERE campaign_id = $1 AND subject = 'Mess Hall'`,
    [campaign],
  );
  const fromNarration = /mess hall[^.]*deck (\d)/i.exec(narrated.rows[0]?.narration ?? '')?.[1];
  const deck = fromNarration ? Number(fromNarration) : fact.rows[0]!.deck;
  const narration = `You take the lift to deck ${deck}; the mess hall is there, and Dr. Hale is inside.`;
  await client.query(
    `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute)
     SELECT $1, coalesce(max(turn_number), 0) + 1, $2, $3, now(), 0 FROM turns WHERE campaign_id = $1`,
    [campaign, input, narration],
  );
  return { deck, narration };
}
