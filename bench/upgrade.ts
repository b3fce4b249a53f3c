// `npm run bench:upgrade`: upgrading N fixtures of T turns that share one fingerprint (one campaign each, so one
// rebuilt database serves them all) through one migration, against capturing the same N fixtures fresh from the
// migrated live database. Prints the ratio; the goal is within 2x. BENCH_UPGRADE_FIXTURES and BENCH_UPGRADE_TURNS
// make it smaller (defaults 50 and 500). Runs on DATABASE_URL's server when set, else the embedded database.
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../src/db/migrate.js';
import { capture } from '../src/fixture/capture-fixtures.js';
import { projectPaths } from '../src/project/open-project.js';
import type { ProjectContext } from '../src/project/project-context.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { upgrade } from '../src/upgrade/upgrade-fixtures.js';
import { BENCH_SCRUB_KEY, withBenchDatabase } from './bench-database.js';

const fixtures = Number(process.env.BENCH_UPGRADE_FIXTURES ?? 50);
const turns = Number(process.env.BENCH_UPGRADE_TURNS ?? 500);

const MIGRATION = `import { sql } from 'kysely';
export async function up(db) {
  await sql\`ALTER TABLE turns ADD COLUMN word_count integer;
    UPDATE turns SET word_count = coalesce(array_length(regexp_split_to_array(btrim(player_input), '\\\\s+'), 1), 0);
    ALTER TABLE turns ALTER COLUMN word_count SET NOT NULL\`.execute(db);
}
export async function down() {}
`;

await withBenchDatabase(async (db, config) => {
  const migrations = join(config.baseDir, 'migrations');
  await mkdir(migrations);
  // The migrations import kysely from the project's node_modules.
  await symlink(
    fileURLToPath(new URL('../node_modules', import.meta.url)),
    join(config.baseDir, 'node_modules'),
    'dir',
  );
  await cp(SAMPLE_MIGRATIONS_DIR, migrations, { recursive: true });
  const project: ProjectContext = {
    config: { ...config, migrations: 'migrations' },
    paths: projectPaths(config),
    db,
  };
  const campaigns: string[] = [];
  for (let i = 0; i < fixtures; i++) campaigns.push(await createSampleCampaign(db, { turns, seed: i + 1 }));
  for (const [i, campaign] of campaigns.entries())
    await capture(project, { campaign, turns: { turn: turns }, name: `f-${i}`, scrubKey: BENCH_SCRUB_KEY });
  await writeFile(join(migrations, '20261299000000_word_count.mjs'), MIGRATION);
  await migrate(db, migrations);

  let started = performance.now();
  for (const [i, campaign] of campaigns.entries())
    await capture(project, {
      campaign,
      turns: { turn: turns },
      name: `f-${i}`,
      out: 'fresh',
      scrubKey: BENCH_SCRUB_KEY,
    });
  const freshMs = performance.now() - started;

  started = performance.now();
  const result = await upgrade(project, { scrubKey: BENCH_SCRUB_KEY });
  const upgradeMs = performance.now() - started;
  const upgraded = result.fixtures.filter((entry) => entry.status === 'upgraded').length;
  if (upgraded !== fixtures)
    throw new Error(`upgraded ${upgraded} of ${fixtures}: ${JSON.stringify(result.fixtures[0])}`);
  const files = (await readdir(join(config.baseDir, 'fixtures'))).filter((name) => name.startsWith('f-')).length;
  console.log(
    `upgrade: ${fixtures} fixtures of ${turns} turns, one fingerprint, ${result.builds} rebuilt database(s), ${files} files`,
  );
  console.log(`  fresh capture of all: ${(freshMs / 1000).toFixed(2)} s`);
  console.log(`  upgrade of all:       ${(upgradeMs / 1000).toFixed(2)} s`);
  console.log(`  ratio upgrade / fresh capture: ${(upgradeMs / freshMs).toFixed(2)}x (goal: within 2x)`);
});
