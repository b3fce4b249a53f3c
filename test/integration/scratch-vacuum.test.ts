import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';

// Bytes of the game's and the registry's tables, indexes included: what the reps' dead rows would grow.
async function tableBytes(t: TestDb): Promise<number> {
  const { rows } = await t.db.pool.query<{ bytes: string }>(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname IN ('public', 'turnkit')`,
  );
  return Number(rows[0]!.bytes);
}

describe.each(BACKENDS)('vacuuming what reps churn on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 30, turn: 23, otherTurns: 15 }));
  });
  afterAll(async () => t?.cleanup());

  it('vacuums only while none of its campaigns is live, and the tables stay the same size run after run', async () => {
    let live = 0;
    const vacuums: { tables: string[]; liveThen: number }[] = [];
    const sizes: number[] = [];
    // Five "runs" of 40 reps, three in flight at a time, each a session of its own that closes at its end.
    for (let run = 0; run < 5; run++) {
      const session = new ScratchSession(t.db, {
        game: t.config.game,
        vacuumEvery: 15,
        onVacuum: (tables) => vacuums.push({ tables, liveThen: live }),
      });
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next++ < 40) {
          const scratch = await session.seed(fixture);
          live++;
          try {
            // The SUT's time: the other workers' seeds and teardowns go on meanwhile.
            await t.db.pool.query('SELECT pg_sleep(0.002)');
          } finally {
            live--;
            await scratch.teardown({ effects: true });
          }
        }
      };
      await Promise.all([worker(), worker(), worker()]);
      await session.close();
      sizes.push(await tableBytes(t));
    }
    if (backend === 'embedded') {
      // 200 reps' worth of dead rows would be several times the first run's; vacuumed, the space is reused.
      for (const size of sizes.slice(1)) expect(size).toBeLessThanOrEqual(sizes[0]! * 1.15);
      // Every 15 reps and at each run's end, never with a campaign of the session seeded and not yet torn down.
      expect(vacuums.length).toBeGreaterThanOrEqual(5 * 3);
      expect(vacuums.filter((vacuum) => vacuum.liveThen !== 0)).toEqual([]);
      expect(vacuums[0]!.tables).toEqual(expect.arrayContaining(['"public"."turns"', '"turnkit"."scratch_campaigns"']));
    } else {
      // A real server runs autovacuum itself: turnkit never does.
      expect(vacuums).toEqual([]);
    }
  });
});
