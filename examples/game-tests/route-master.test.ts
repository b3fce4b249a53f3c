import pg from 'pg';
import { describe, expect } from 'vitest';
import { answerRoute } from './route-master.js';
import { test } from './test-context.js';

const INPUT = 'I leave engineering and go to the mess hall to find Dr. Hale. How do I get there?';

/** Plays the route answer against the campaign through its own connection, as the game does. */
async function play(databaseUrl: string, key: string): Promise<Awaited<ReturnType<typeof answerRoute>>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await answerRoute(client, key, INPUT);
  } finally {
    await client.end();
  }
}

describe('the route master on the captured turn 23 (turn 19 put the mess hall on deck 3)', () => {
  test.concurrent('believes the misleading narration and sends the player to deck 3', async ({ campaign }) => {
    expect((await play(campaign.databaseUrl, campaign.key)).deck).toBe(3);
  });

  test.concurrent('writes its answer as turn 23 of the campaign', async ({ campaign }) => {
    await play(campaign.databaseUrl, campaign.key);
    const { rows } = await campaign.db.pool.query(
      'SELECT turn_number, player_input FROM turns WHERE campaign_id = $1 ORDER BY turn_number DESC LIMIT 1',
      [campaign.key],
    );
    expect(rows[0]).toEqual({ turn_number: 23, player_input: INPUT });
  });
});

describe('the route master on the constructed fix (turn 19 corrected, nothing else)', () => {
  test.override({ fixture: 'constructed/meridian-turn-23-deck-fixed.json' });

  test.concurrent('sends the player to deck 2, as the world facts say', async ({ campaign }) => {
    expect((await play(campaign.databaseUrl, campaign.key)).deck).toBe(2);
  });

  test.concurrent('each test has a campaign of its own: a turn played here is not in another test', async ({
    campaign,
  }) => {
    const count = async (): Promise<number> =>
      Number(
        (await campaign.db.pool.query('SELECT count(*) FROM turns WHERE campaign_id = $1', [campaign.key])).rows[0]
          .count,
      );
    expect(await count()).toBe(22);
    await play(campaign.databaseUrl, campaign.key);
    expect(await count()).toBe(23);
  });
});
