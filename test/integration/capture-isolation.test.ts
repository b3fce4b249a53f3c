import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { captureFromDb, type CaptureOutcome } from '../../src/fixture/capture/capture.js';
import { checkFixture } from '../../src/fixture/check-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';

// Rows of other campaigns that point into ours, and a shared row that points at a later turn: none of them may
// bring another campaign or the future into the fixture.
describe.each(BACKENDS)('capture keeps other campaigns and later turns out on %s', (backend) => {
  let t: TestDb;
  let ours: string;
  let fork: string;
  let outcome: CaptureOutcome;
  let fixture: Fixture;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    await t.db.pool.query(`
      ALTER TABLE campaigns ADD COLUMN forked_from bigint REFERENCES campaigns (id);
      ALTER TABLE users ADD COLUMN last_turn_id bigint REFERENCES turns (id);`);
    ours = await createSampleCampaign(t.db, { turns: 30 });
    fork = await createSampleCampaign(t.db, { turns: 45, seed: 9 });
    await t.db.pool.query(`UPDATE campaigns SET forked_from = $1 WHERE id = $2`, [ours, fork]);
    // A character of the fork stands in one of our rooms; one of our turns' rows is the user's last turn.
    await t.db.pool.query(
      `UPDATE characters SET location_id = (SELECT min(id) FROM locations WHERE campaign_id = $1) WHERE campaign_id = $2`,
      [ours, fork],
    );
    await t.db.pool.query(
      `UPDATE users SET last_turn_id = (SELECT id FROM turns WHERE campaign_id = $1 AND turn_number = 28)`,
      [ours],
    );
    outcome = await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: ours, turns: { turn: 23 } });
    fixture = outcome.fixtures[0]!;
  });
  afterAll(async () => t?.cleanup());

  it('does not own a fork of the campaign or rows of the fork that point into it', () => {
    expect(fixture.tables.campaigns!.rows.map((row) => row.id)).toEqual([ours]);
    expect(fixture.source.latestTurn).toBe(30);
    for (const table of ['characters', 'turns', 'locations', 'world_facts']) {
      expect(
        fixture.tables[table]!.rows.every((row) => row.campaign_id === ours),
        table,
      ).toBe(true);
      expect(fixture.tables[table]!.sharedRows, table).toBeUndefined();
    }
    expect(fixture.tables.characters!.rows).toHaveLength(6);
  });

  it('does not bring a later turn back through a shared row: the reference is nulled and reported', () => {
    expect(fixture.tables.turns!.rows.map((row) => row.turn_number)).toEqual(
      Array.from({ length: 22 }, (_, i) => i + 1),
    );
    expect(fixture.tables.turns!.sharedRows).toBeUndefined();
    expect(fixture.tables.users!.rows).toEqual([
      expect.objectContaining({ handle: expect.stringMatching(/^\S+_[0-9a-f]{4}$/), last_turn_id: null }),
    ]);
    expect(outcome.warnings).toContain(
      `campaign-${ours}-turn-23: "users".last_turn_id pointed at turn 23 or later and was set to null`,
    );
    expect(checkFixture(fixture)).toEqual([]);
  });

  it('keeps a shared reference to an earlier turn as it is', async () => {
    await t.db.pool.query(
      `UPDATE users SET last_turn_id = (SELECT id FROM turns WHERE campaign_id = $1 AND turn_number = 5)`,
      [ours],
    );
    const again = (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: ours, turns: { turn: 23 } }))
      .fixtures[0]!;
    const turn5 = again.tables.turns!.rows.find((row) => row.turn_number === 5)!;
    expect(again.tables.users!.rows[0]!.last_turn_id).toBe(turn5.id);
  });
});
