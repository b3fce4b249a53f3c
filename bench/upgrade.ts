// `npm run bench:upgrade`: upgrading N fixtures of T turns that share one fingerprint (one campaign each, so one
// rebuilt database serves them all) through one migration, against capturing the same N fixtures fresh from the
// migrated live database, in interleaved rounds (which goes first alternates). Prints each round and the median
// ratio with its range; the goal is within 2x. The embedded database always (BENCH_UPGRADE_EMBEDDED_FIXTURES and
// BENCH_UPGRADE_EMBEDDED_TURNS, defaults 10 and 500), then DATABASE_URL's server when set (BENCH_UPGRADE_FIXTURES
// and BENCH_UPGRADE_TURNS, defaults 50 and 500); BENCH_ROUNDS rounds each (default 3), BENCH_UPGRADE_BACKENDS
// (`embedded`, `postgres`, or both, comma-separated) to run one only.
import { cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../src/db/migrate.js';
import { capture } from '../src/fixture/capture/capture-fixtures.js';
import { projectPaths } from '../src/project/open-project.js';
import type { ProjectContext } from '../src/project/project-context.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { upgrade } from '../src/upgrade/upgrade-fixtures.js';
import { BENCH_SCRUB_KEY, withBenchDatabase } from './bench-database.js';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const serverUrl = process.env.DATABASE_URL;
const wanted = (process.env.BENCH_UPGRADE_BACKENDS ?? 'embedded,postgres').split(',');

const MIGRATION = `import { sql } from 'kysely';
export async function up(db) {
  await sql\`ALTER TABLE turns ADD COLUMN word_count integer;
    UPDATE turns SET word_count = coalesce(array_length(regexp_split_to_array(btrim(player_input), '\\\\s+'), 1), 0);
    ALTER TABLE turns ALTER COLUMN word_count SET NOT NULL\`.execute(db);
}
export async function down() {}
`;

interface Round {
  freshMs: number;
  upgradeMs: number;
}

async function benchBackend(backend: string, fixtures: number, turns: number): Promise<void> {
  // withBenchDatabase takes DATABASE_URL's server when it is set: unset for the embedded run.
  if (backend === 'embedded') delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = serverUrl;
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

    const fresh = async (round: number): Promise<number> => {
      const started = performance.now();
      for (const [i, campaign] of campaigns.entries())
        await capture(project, {
          campaign,
          turns: { turn: turns },
          name: `f-${i}`,
          out: `fresh-${round}`,
          scrubKey: BENCH_SCRUB_KEY,
        });
      return performance.now() - started;
    };
    // Into a folder of its own, so that every round upgrades the same stale fixtures.
    const upgraded = async (round: number): Promise<number> => {
      const started = performance.now();
      const result = await upgrade(project, { scrubKey: BENCH_SCRUB_KEY, out: `upgraded-${round}` });
      const ms = performance.now() - started;
      const done = result.fixtures.filter((entry) => entry.status === 'upgraded').length;
      if (done !== fixtures || result.builds !== 1)
        throw new Error(`upgraded ${done} of ${fixtures} in ${result.builds}: ${JSON.stringify(result.fixtures[0])}`);
      const files = (await readdir(join(config.baseDir, `upgraded-${round}`))).filter((name) => name.startsWith('f-'));
      if (files.length !== fixtures) throw new Error(`${files.length} files written, not ${fixtures}`);
      return ms;
    };
    console.log(`${backend}: ${fixtures} fixtures of ${turns} turns, one fingerprint, one rebuilt database`);
    const seen: Round[] = [];
    for (let round = 0; round < rounds; round++) {
      const freshFirst = round % 2 === 0;
      let freshMs: number;
      let upgradeMs: number;
      if (freshFirst) {
        freshMs = await fresh(round);
        upgradeMs = await upgraded(round);
      } else {
        upgradeMs = await upgraded(round);
        freshMs = await fresh(round);
      }
      seen.push({ freshMs, upgradeMs });
      console.log(
        `  round ${round + 1} (${freshFirst ? 'fresh first' : 'upgrade first'}): fresh capture ${(freshMs / 1000).toFixed(2)} s, ` +
          `upgrade ${(upgradeMs / 1000).toFixed(2)} s, ${(upgradeMs / freshMs).toFixed(2)}x`,
      );
    }
    const ratios = seen.map((round) => round.upgradeMs / round.freshMs).sort((a, b) => a - b);
    console.log(
      `  ratio upgrade / fresh capture: median ${median(ratios).toFixed(2)}x, range ${ratios[0]!.toFixed(2)}-${ratios.at(-1)!.toFixed(2)}x over ${rounds} round(s) (goal: within 2x)`,
    );
  });
}

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

if (wanted.includes('embedded'))
  await benchBackend(
    'embedded',
    Number(process.env.BENCH_UPGRADE_EMBEDDED_FIXTURES ?? 10),
    Number(process.env.BENCH_UPGRADE_EMBEDDED_TURNS ?? 500),
  );
if (wanted.includes('postgres')) {
  if (serverUrl)
    await benchBackend(
      'PostgreSQL',
      Number(process.env.BENCH_UPGRADE_FIXTURES ?? 50),
      Number(process.env.BENCH_UPGRADE_TURNS ?? 500),
    );
  else console.log('PostgreSQL: skipped (set DATABASE_URL to a server turnkit may create databases on)');
}
