// npm run bench:rollout — the rollout part of bench:run alone (bench/rollout.ts), for a quicker loop on it.
// Uses DATABASE_URL when set (a scratch database is created and dropped there), else a fresh embedded database.
// BENCH_ROLLOUT_LONG=0 leaves out the 5,000-turn campaign.
// The baseline a rollout's own time per turn is held to is what a minimal rollout written by hand does per turn
// (bench/rollout.ts, handRollout): the same SUT script spawned, then one hand-written statement of its own (per table
// one scan for the count and the rows written since the horizon, the next horizon, and for a SUT that only answers the
// turn row's insert), prepared on PostgreSQL; plus the rep's (seed + teardown) / 10. None of turnkit's per-turn code
// (TurnEffectsReader, named-statement.ts) is in it, so a cut to turnkit's reader no longer moves its baseline too.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withBenchDatabase } from './bench-database.js';
import { benchRollout } from './rollout.js';

await withBenchDatabase(async (db, config) => {
  const dir = config.baseDir;
  console.log(`rollout benchmark on ${db.backend === 'embedded' ? 'the embedded database' : db.displayUrl}`);
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await writeFile(join(dir, 'rubric.md'), 'r\n');
  await writeFile(join(dir, 'case.md'), '# {{fixture.name}}\n\n{{input}}\n\n{{recent_turns:5}}\n');
  await benchRollout(db, config, db.backend === 'postgres' ? db.url : undefined);
});
