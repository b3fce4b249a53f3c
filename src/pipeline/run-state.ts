import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { TurnkitError } from '../errors.js';
import { parseJsonText, parseWithSchema } from '../util/json-source.js';
import { shownPath } from '../construct/load-fixture.js';
import { manifestSchema, type Manifest } from './manifest.js';
import type { RepRecord } from './rep-record.js';

/** A rep of a run: which fixture, which rep. */
export interface RepKey {
  fixture: string;
  rep: number;
}

/** What a run directory holds: its manifest and which reps are complete or errored (by `fixture\0rep`). */
export interface RunState {
  manifest: Manifest;
  completed: Set<string>;
  /** Errored reps with their one-line cause, for marks.csv's note. */
  errored: Map<string, string>;
}

/** Reads a run directory's manifest and rep records (the manifest given, when the caller holds a newer one). */
export async function readRunState(dir: string, manifest?: Manifest): Promise<RunState> {
  const manifestFile = join(dir, 'manifest.json');
  if (!manifest) {
    if (!existsSync(manifestFile)) throw new TurnkitError('NOT_FOUND', `${shownPath(dir)}: not a run directory (no manifest.json)`);
    manifest = parseWithSchema(manifestSchema, parseJsonText(await readFile(manifestFile, 'utf8'), shownPath(manifestFile)), shownPath(manifestFile));
  }
  const completed = new Set<string>();
  const errored = new Map<string, string>();
  const repsDir = join(dir, 'reps');
  if (existsSync(repsDir)) {
    for (const fixture of await readdir(repsDir)) {
      for (const name of await readdir(join(repsDir, fixture))) {
        if (!name.endsWith('.json')) continue;
        const file = join(repsDir, fixture, name);
        const record = JSON.parse(await readFile(file, 'utf8')) as RepRecord;
        const id = `${record.fixture}\u0000${record.rep}`;
        if (record.error) errored.set(id, `${record.error.stage}: ${record.error.cause}: ${record.error.message}`.slice(0, 200));
        else completed.add(id);
      }
    }
  }
  return { manifest, completed, errored };
}
