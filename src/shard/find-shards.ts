import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { TurnkitError } from '../errors.js';
import { shownPath } from '../util/shown-path.js';
import { readManifest } from '../run-dir/run-state.js';

// Deep enough for runs/QUESTION/RUN (and a CI artifact's folder above it), shallow enough not to walk a project.
const DEPTH = 4;

/**
 * The shard directories that `turnkit merge` arguments name: a run directory as it is; a glob, each directory it
 * matches; a folder that is not a run (a shared volume, downloaded CI artifacts), every shard directory inside it.
 * A folder or glob holding no shard is an error naming it.
 */
export async function findShardDirs(args: readonly string[], cwd: string): Promise<string[]> {
  const dirs: string[] = [];
  for (const arg of args) {
    if (isDynamicPattern(arg)) {
      const matches = (await glob(arg, { cwd, absolute: true, onlyDirectories: true, expandDirectories: false }))
        .map((dir) => dir.replace(/\/+$/, ''))
        .sort();
      const found = (await Promise.all(matches.map((dir) => shardsIn(dir, DEPTH)))).flat();
      if (found.length === 0) throw new TurnkitError('NOT_FOUND', `${arg}: matches no shard directory`);
      dirs.push(...found);
      continue;
    }
    const dir = resolve(cwd, arg);
    if (existsSync(join(dir, 'manifest.json')) || !statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      // A run directory (or something that is not a folder, which reading it as a run reports).
      dirs.push(dir);
      continue;
    }
    const found = await shardsIn(dir, DEPTH);
    if (found.length === 0)
      throw new TurnkitError(
        'NOT_FOUND',
        `${shownPath(dir)}: holds no shard directory (turnkit run --shard I/N), and is not a run directory (no manifest.json)`,
      );
    dirs.push(...found);
  }
  // A directory named twice stays twice: merge says so rather than merging it once.
  return dirs;
}

// Directories with a manifest of a shard, under `dir` (itself included), sorted; merged runs and unsharded ones left.
async function shardsIn(dir: string, depth: number): Promise<string[]> {
  if (existsSync(join(dir, 'manifest.json'))) {
    const manifest = await readManifest(dir).catch(() => undefined);
    return manifest?.shard && !manifest.merged ? [dir] : [];
  }
  if (depth === 0) return [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
    if (entry.isDirectory() && !entry.name.startsWith('.'))
      found.push(...(await shardsIn(join(dir, entry.name), depth - 1)));
  return found;
}
