import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { loadFixture } from '../fixture/load-fixture.js';
import { readConstructed } from '../fixture/constructed/read-constructed.js';
import { changePath } from '../fixture/constructed/column-change.js';
import { valueDiff } from '../fixture/constructed/word-diff.js';
import { sha256 } from '../util/sha256.js';
import type { DiffView } from './view-data.js';

/**
 * A constructed fixture's recorded diff, word by word as the editor shows it, from the file the run used. The
 * manifest records its path relative to the project (the run's grandparent's parent, or the working folder) and
 * its sha256: a file changed since the run is not this run's diff, and says so instead.
 */
export async function constructedDiff(
  runDir: string,
  file: { path: string; sha256: string },
  cwd: string,
): Promise<DiffView | string> {
  const candidates = [resolve(runDir, '..', '..', '..', file.path), resolve(cwd, file.path)];
  const at = candidates.findIndex((candidate) => existsSync(candidate));
  const path = candidates[at];
  // The project the manifest's paths are relative to: the base is named from there, as the run names its fixtures.
  const project = at === 0 ? resolve(runDir, '..', '..', '..') : cwd;
  if (!path) return `${file.path} is not beside the run: its diff cannot be shown`;
  if (sha256(await readFile(path)) !== file.sha256)
    return `${file.path} changed since the run: its diff is not this run's`;
  try {
    const constructed = await readConstructed(path);
    // The base gives each row's primary key names, as the editor writes the path; without it the recorded key reads.
    const primaryKeys = await loadFixture(path)
      .then((loaded) => loaded.constructed?.base.fixture.tables)
      .catch(() => undefined);
    return {
      why: constructed.document.why,
      turn: constructed.document.turn,
      base: relative(project, constructed.basePath).split(sep).join('/'),
      changes: constructed.changes.map((change) => ({
        path: primaryKeys?.[change.table]
          ? changePath(change, primaryKeys[change.table]!.primaryKey)
          : `${change.table}[${change.row}].${change.column}`,
        segments: valueDiff(change.oldValue, change.value),
      })),
    };
  } catch (error) {
    return `${file.path}: ${(error as Error).message}`;
  }
}
