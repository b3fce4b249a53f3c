import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TurnkitError } from '../errors.js';
import { fixtureFile } from '../fixture/capture/fixture-files.js';
import { readMigrationState } from '../fixture/capture/migration-state.js';
import type { Fixture } from '../fixture/format.js';
import type { LoadedFixture } from '../fixture/load-fixture.js';
import { parseFixtureText } from '../fixture/read-fixture.js';
import { configuredMigrationTable, driftedFrom, fixtureStanding } from '../fixture/turns/fixture-standing.js';
import { introspect } from '../db/introspect.js';
import { withProjectDb, type ProjectContext } from '../project/project-context.js';
import { upgrade, type UpgradeInput } from './upgrade-fixtures.js';

/** Where a run's upgraded copies live: under the project's `.turnkit`, never beside the fixtures. */
const UPGRADE_CACHE_DIR = '.turnkit/upgraded';

/** The upgraded copy a run seeds instead of a stale fixture's file (recorded in the manifest's `upgraded`). */
export interface RunUpgrade {
  /** Absolute path of the copy under `.turnkit/upgraded/`. */
  path: string;
  /** sha256 of the copy's bytes, hex. */
  sha256: string;
  /** The migrations the copy went through, oldest first. */
  migrations: string[];
}

/** One fixture a run uses: the file, and the copy to seed from when it was upgraded for the run. */
interface CachedUpgrade {
  file: string;
  upgraded?: RunUpgrade & { fixture: Fixture };
}

/**
 * `run --upgrade`: each stale captured fixture is replaced, for this run only, by its upgraded copy in the cache; its
 * file, path and hash stay the fixture's. A constructed one is left as it is (`turnkit upgrade` re-records it).
 */
export async function upgradeForRun<T extends { loaded: LoadedFixture }>(
  project: ProjectContext,
  fixtures: readonly T[],
  options: Pick<UpgradeInput, 'scrubKey' | 'allowSensitive' | 'signal'> = {},
): Promise<(T & { upgraded?: RunUpgrade })[]> {
  const captured = fixtures.filter(({ loaded }) => !loaded.constructed).map(({ loaded }) => loaded.path);
  if (captured.length === 0) return [...fixtures];
  const cached = new Map((await upgradeIntoCache(project, captured, options)).map((entry) => [entry.file, entry]));
  return fixtures.map((item) => {
    const upgraded = cached.get(item.loaded.path)?.upgraded;
    if (!upgraded) return item;
    const { fixture, ...copy } = upgraded;
    return { ...item, loaded: { ...item.loaded, fixture }, upgraded: copy };
  });
}

/**
 * Upgrades stale fixtures into a cache keyed by the fixture's bytes and the live migration state, leaving every
 * fixture file as it is: a copy made before is reused; a current fixture is used as it is.
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
    const path = fixtureFile(dir, fixture.name);
    if (!existsSync(path)) {
      const outcome = await upgrade(project, { ...options, files: [file], out: dir });
      const entry = outcome.fixtures[0];
      if (entry?.status !== 'upgraded')
        throw new TurnkitError('FIXTURE', entry?.why ?? `${file}: not upgraded`, entry?.problems);
    }
    const copyText = await readFile(path, 'utf8');
    const copy = parseFixtureText(copyText, path);
    // The copy's last upgrade names its migrations (what the fixture lacked, also when it recorded no state).
    const migrations = standing.kind === 'stale' ? standing.pending : (copy.source.upgrades?.at(-1)?.migrations ?? []);
    const sha256 = createHash('sha256').update(copyText).digest('hex');
    results.push({ file, upgraded: { path, sha256, migrations, fixture: copy } });
  }
  return results;
}
