// npm run bench:rollout — the rollout part of bench:run alone (bench/rollout.ts), for a quicker loop on it.
// Uses DATABASE_URL when set (a scratch database is created and dropped there), else a fresh embedded database.
// BENCH_ROLLOUT_LONG=0 leaves out the 5,000-turn campaign.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withBenchDatabase } from './bench-database.js';
import { benchRollout } from './rollout.js';

await withBenchDatabase(async (db, config) => {
  const dir = config.baseDir;
  console.log(`rollout benchmark on ${db.backend === 'embedded' ? 'the embedded database (PGlite)' : db.displayUrl}`);
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await writeFile(join(dir, 'rubric.md'), 'r\n');
  await writeFile(join(dir, 'case.md'), '# {{fixture.name}}\n\n{{input}}\n\n{{recent_turns:5}}\n');
  await benchRollout(db, config, db.backend === 'postgres' ? db.url : undefined);
});
