import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';

describe.each(BACKENDS)('scratch campaigns of the sample game on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let session: ScratchSession;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 40, turn: 23, otherTurns: 12 }));
    session = new ScratchSession(t.db, { game: t.config.game });
  });
  afterAll(async () => t?.cleanup());

  it('seeds a campaign under new keys whose re-capture equals the fixture modulo keys', async () => {
    const scratch = await session.seed(fixture);
    try {
      expect(scratch.key).not.toBe(fixture.source.root.value);
      // Every foreign key the teardown deletes through has its index in the sample game.
      expect(session.warnings).toEqual([]);
      const check = await session.check(scratch, fixture);
      expect(check.differences).toEqual([]);
      const recaptured = (
        await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign: scratch.key, turns: { latest: true } })
      ).fixtures[0]!;
      // The scratch campaign has played turns 1..22: --latest makes turn 22 the input, so 21 turns of state.
      expect(recaptured.source.latestTurn).toBe(22);
      expect(recaptured.input.values.player_input).toBe(fixture.tables.turns!.rows.at(-1)!.player_input);
      expect(recaptured.tables.turns!.rows.map((row) => row.narration)).toEqual(
        fixture.tables.turns!.rows.slice(0, 21).map((row) => row.narration),
      );
      expect(recaptured.tables.users).toEqual(fixture.tables.users);
    } finally {
      await scratch.teardown();
    }
  });

  it('leaves every live row and the registry as they were after seed and teardown cycles', async () => {
    const before = await tableChecksums(t.db);
    for (let i = 0; i < 5; i++) {
      const scratch = await session.seed(fixture);
      const report = await scratch.teardown();
      expect(report.deleted.turns).toBe(22);
    }
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it('deletes what the SUT added under the scratch campaign', async () => {
    const before = await tableChecksums(t.db);
    const scratch = await session.seed(fixture);
    await t.db.pool.query(
      `INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute)
       VALUES ($1, 23, 'x', 'the SUT speaks', now(), 1)`,
      [scratch.key],
    );
    const report = await scratch.teardown();
    expect(report.addedBySut).toEqual({ turns: 1 });
    expect(report.deleted.turns).toBe(23);
    expect(await tableChecksums(t.db)).toEqual(before);
  });
});
