import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { LoadedFixture } from '../fixture/load-fixture.js';
import { parseFixtureText } from '../fixture/read-fixture.js';
import type { ProjectContext } from '../project/project-context.js';
import { upgradeIntoCache } from './upgrade-cache.js';
import type { UpgradeInput } from './upgrade-fixtures.js';

/** The upgraded copy a run seeds instead of a stale fixture's file (recorded in the manifest's `upgraded`). */
export interface RunUpgrade {
  /** Absolute path of the copy under `.turnkit/upgraded/`. */
  path: string;
  /** sha256 of the copy's bytes, hex. */
  sha256: string;
  /** The migrations the copy went through, oldest first. */
  migrations: string[];
}

/**
 * `run --upgrade`: each captured fixture of the run that is behind the live schema is upgraded into the cache
 * (`upgradeIntoCache`) and replaced, for this run only, by the upgraded copy; its file, path and hash stay those of
 * the fixture the question names, so that every file's bytes stay as they were and the manifest still says which
 * file the reps came from. A constructed fixture is left as it is: `turnkit upgrade` re-records it on its upgraded
 * base (its seed then says how it stands).
 */
export async function upgradeForRun<T extends { loaded: LoadedFixture }>(
  project: ProjectContext,
  fixtures: readonly T[],
  options: Pick<UpgradeInput, 'scrubKey' | 'allowSensitive' | 'signal'> = {},
): Promise<(T & { upgraded?: RunUpgrade })[]> {
  const captured = fixtures.filter(({ loaded }) => !loaded.constructed).map(({ loaded }) => loaded.path);
  if (captured.length === 0) return [...fixtures];
  const cached = new Map((await upgradeIntoCache(project, captured, options)).map((entry) => [entry.file, entry]));
  const result: (T & { upgraded?: RunUpgrade })[] = [];
  for (const item of fixtures) {
    const entry = cached.get(item.loaded.path);
    if (!entry?.upgraded) {
      result.push(item);
      continue;
    }
    const text = await readFile(entry.upgraded, 'utf8');
    const fixture = parseFixtureText(text, entry.upgraded);
    result.push({
      ...item,
      loaded: { ...item.loaded, fixture },
      upgraded: {
        path: entry.upgraded,
        sha256: createHash('sha256').update(text).digest('hex'),
        migrations: entry.migrations ?? [],
      },
    });
  }
  return result;
}
