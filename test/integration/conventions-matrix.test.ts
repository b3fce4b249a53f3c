import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { CONVENTIONS } from '../helpers/conventions/index.js';
import { captureFromDb } from '../../src/fixture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { summarizeFixture } from '../../src/fixture/show-fixture.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';

// Schemas written after each ORM's conventions, none of them shaped like the sample game: each is captured, shown,
// seeded with both strategies (several reps at once) and torn down, leaving every table as it was.
describe.each(BACKENDS)('the conventions matrix on %s', (backend) => {
  describe.each(CONVENTIONS)('$name', (convention) => {
    let t: TestDb;
    let fixture: Fixture;

    beforeAll(async () => {
      t = await createTestDb(backend, convention.config);
      await t.db.pool.query(convention.schema);
      await t.db.pool.query(convention.data);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('captures turn 3 with exactly the hand-counted rows, and shows it', async () => {
      const outcome = await captureFromDb(t.db, t.config, { campaign: convention.campaign, turns: { turn: 3 } });
      fixture = outcome.fixtures[0]!;
      const counts = Object.fromEntries(
        Object.entries(fixture.tables).map(([name, table]) => [
          name,
          table.rows.length + (table.sharedRows?.length ?? 0),
        ]),
      );
      expect(counts).toEqual(convention.rows);
      const summary = summarizeFixture(fixture);
      expect(summary.turn).toBe(3);
      expect(summary.turnsKept).toBe(2);
      expect(Object.keys(summary.input)).toEqual(convention.config.game.turns.input);
    });

    it('seeds 4 reps at once with remap, each equal to the fixture, and tears them down to the same checksums', async () => {
      const before = await tableChecksums(t.db);
      const sessions = Array.from({ length: 4 }, () => new ScratchSession(t.db, { game: t.config.game }));
      const campaigns = await Promise.all(sessions.map((session) => session.seed(fixture)));
      try {
        expect(new Set([convention.campaign, ...campaigns.map((campaign) => campaign.key)]).size).toBe(5);
        for (const [i, campaign] of campaigns.entries())
          expect((await sessions[i]!.check(campaign, fixture)).differences).toEqual([]);
      } finally {
        await Promise.all(campaigns.map((campaign) => campaign.teardown()));
      }
      expect(await tableChecksums(t.db)).toEqual(before);
      expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    });

    it.runIf(backend === 'postgres')(
      'seeds with the database strategy and tears down to the same checksums',
      async () => {
        const before = await tableChecksums(t.db);
        const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
        try {
          const scratch = await session.seed(fixture);
          expect(scratch.key).toBe(convention.campaign);
          expect((await session.check(scratch, fixture)).differences).toEqual([]);
          await scratch.teardown();
        } finally {
          await session.close();
        }
        expect(await tableChecksums(t.db)).toEqual(before);
      },
    );
  });
});
