// npm run bench:outside — what detecting writes to other campaigns' rows costs a rep: a rep's seed, before-SUT read
// and teardown with effects, with the write horizon (the xmin scan of the owned tables) and without, interleaved.
// The other campaigns hold LIVE_TURNS turns between them, so the scan has rows to read.
import { performance } from 'node:perf_hooks';
import { withBenchDatabase } from './bench-database.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { captureFromDb } from '../src/fixture/capture/capture.js';
import { ScratchSession } from '../src/scratch/scratch-session.js';

const REPS = Number(process.env.BENCH_REPS ?? 15);
const LIVE_TURNS = Number(process.env.BENCH_LIVE_TURNS ?? 2000);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

await withBenchDatabase(async (db, config) => {
  console.log(
    `outside-writes benchmark on ${db.backend === 'embedded' ? 'the embedded database' : db.displayUrl}, ${LIVE_TURNS} live turns`,
  );
  await createSampleCampaign(db, { turns: LIVE_TURNS, seed: 3 });
  const campaign = await createSampleCampaign(db, { turns: 40 });
  const fixture = (await captureFromDb(db, config, { campaign, turns: { turn: 23 } })).fixtures[0]!;
  const session = new ScratchSession(db, { game: config.game });
  const times = { with: [] as number[], without: [] as number[] };
  for (let i = 0; i < REPS * 2 + 2; i++) {
    const detect = i % 2 === 0;
    const started = performance.now();
    const scratch = await session.seed(fixture);
    const before = await session.beforeSut(scratch, fixture);
    const report = await scratch.teardown({ effects: true, horizon: detect ? before.horizon : undefined });
    if (detect && (report.effects?.outside ?? []).length > 0)
      throw new Error(`false outside change: ${report.effects!.outside![0]}`);
    // The first round of each warms the caches.
    if (i >= 2) times[detect ? 'with' : 'without'].push(performance.now() - started);
  }
  await session.close();
  const w = median(times.with);
  const wo = median(times.without);
  console.log(
    `rep (seed + before-SUT read + teardown with effects), median of ${REPS}: ${wo.toFixed(1)} ms without, ${w.toFixed(1)} ms with detection: +${(w - wo).toFixed(1)} ms (${(w / wo).toFixed(2)}x)`,
  );
});
