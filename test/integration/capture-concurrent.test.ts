import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { checkFixture } from '../../src/fixture/check-fixture.js';

describe.each(BACKENDS)('capture while the game keeps writing on %s', (backend) => {
  let t: TestDb;
  let campaign: string;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    campaign = await createSampleCampaign(t.db, { turns: 30 });
  });
  afterAll(async () => t?.cleanup());

  /** Plays one more turn from another connection: a turn row and a fact introduced by it, committed together. */
  async function playTurn(turn: number): Promise<void> {
    const writer = new pg.Client({ connectionString: t.db.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      const { rows } = await writer.query<{ id: string }>(
        `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute)
         VALUES ($1, $2, 'I wait.', 'Time passes.', now(), $2) RETURNING id::text`,
        [campaign, turn],
      );
      await writer.query(
        `INSERT INTO world_facts (campaign_id, introduced_at_turn_id, subject, fact) VALUES ($1, $2, 'Clock', 'Time passed.')`,
        [campaign, rows[0]!.id],
      );
      await writer.query(`UPDATE characters SET hit_points = hit_points - 1 WHERE campaign_id = $1`, [campaign]);
      await writer.query('COMMIT');
    } finally {
      await writer.end();
    }
  }

  it('reads one consistent snapshot: turns, facts and characters all from before the concurrent turn', async () => {
    const before = await t.db.pool.query<{ hp: number }>(
      'SELECT sum(hit_points)::int AS hp FROM characters WHERE campaign_id = $1',
      [campaign],
    );
    let writing: Promise<void> | undefined;
    const { fixtures } = await captureFromDb(t.db, t.config, {
      scrub: TEST_SCRUB,
      campaign,
      turns: { latest: true },
      onSnapshot: async () => {
        writing = playTurn(31);
        // The server commits the new turn now, mid-capture (each connection is a session of its own).
        await writing;
      },
    });
    await writing;
    const fixture = fixtures[0]!;
    expect(fixture.source.latestTurn).toBe(30);
    expect(fixture.tables.turns!.rows).toHaveLength(29);
    expect(fixture.tables.world_facts!.rows.some((row) => row.subject === 'Clock')).toBe(false);
    const hp = fixture.tables.characters!.rows.reduce((sum, row) => sum + (row.hit_points as number), 0);
    expect(hp).toBe(before.rows[0]!.hp);
    expect(checkFixture(fixture)).toEqual([]);

    const after = (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { latest: true } }))
      .fixtures[0]!;
    expect(after.source.latestTurn).toBe(31);
    expect(after.tables.characters!.rows.reduce((sum, row) => sum + (row.hit_points as number), 0)).toBe(hp - 6);
  });
});
