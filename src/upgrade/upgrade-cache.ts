import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixtureStanding, configuredMigrationTable, driftedFrom } from '../fixture/turns/fixture-standing.js';
import { introspect } from '../db/introspect.js';
import { readMigrationState } from '../fixture/capture/migration-state.js';
import { parseFixtureText } from '../fixture/read-fixture.js';
import { withProjectDb, type ProjectContext } from '../project/project-context.js';
import { fixtureFile } from '../fixture/capture/fixture-files.js';
import { TurnkitError } from '../errors.js';
import { upgrade, type UpgradeInput } from './upgrade-fixtures.js';

/** Where a run's upgraded copies live: under the project's `.turnkit`, never beside the fixtures. */
export const UPGRADE_CACHE_DIR = '.turnkit/upgraded';

/** One fixture a run uses: the file, and the copy to seed from when it was upgraded for the run. */
export interface CachedUpgrade {
  file: string;
  /** The upgraded copy (absent when the fixture is current). */
  upgraded?: string;
  /** The migrations the copy went through. */
  migrations?: string[];
}

/**
 * Upgrades stale fixtures into a cache keyed by the fixture's bytes and the live migration state, leaving every
 * fixture file as it is (`run --upgrade`): a copy made before is reused; a current fixture is used as it is.
 */
export async function upgradeIntoCache(
  project: ProjectContext,
  files: readonly string[],
  options: Pick<UpgradeInput, 'scrubKey' | 'allowSensitive' | 'signal'> = {},
): Promise<CachedUpgrade[]> {
  const { live, catalog } = await withProjectDb(project, async (db) => ({
    live: await readMigrationState(db.pool, configuredMigrationTable(project.config)),
    catalog: await introspect(db.pool),
  }));
  const results: CachedUpgrade[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    const fixture = parseFixtureText(text, file);
    const standing = fixtureStanding(fixture, live);
    // One that recorded no migration state is upgraded when its schema is not the database's (upgrade finds its state).
    const unrecorded = live !== undefined && !fixture.source.migrations && driftedFrom(fixture, catalog);
    if (standing.kind !== 'stale' && !unrecorded) {
      results.push({ file });
      continue;
    }
    const key = createHash('sha256')
      .update(text)
      .update('\0')
      .update(live!.applied.join('\n'))
      .digest('hex')
      .slice(0, 24);
    const dir = join(project.paths.baseDir, UPGRADE_CACHE_DIR, key);
    const cached = fixtureFile(dir, fixture.name);
    if (!existsSync(cached)) {
      const outcome = await upgrade(project, { ...options, files: [file], out: dir });
      const entry = outcome.fixtures[0];
      if (entry?.status !== 'upgraded')
        throw new TurnkitError('FIXTURE', entry?.why ?? `${file}: not upgraded`, entry?.problems);
    }
    // The copy's last upgrade names its migrations (what the fixture lacked, also when it recorded no state).
    const copy = parseFixtureText(await readFile(cached, 'utf8'), cached);
    const migrations = standing.kind === 'stale' ? standing.pending : (copy.source.upgrades?.at(-1)?.migrations ?? []);
    results.push({ file, upgraded: cached, migrations });
  }
  return results;
}
