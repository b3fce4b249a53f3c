import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '../../src/run-dir/manifest.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { makeJudgeRun } from './judge-run.js';

/** One rep of a hand-made screens run: its response, whether it inserted a notes row, or that it errored. */
export type ScreensRep = { response: string; notes?: boolean } | { error: true };

/** A hand-made run whose manifest records checks (and skips, and an errors policy) and whose reps record effects. */
export interface ScreensRunSpec {
  dir: string;
  checks: Manifest['checks'];
  errors?: 'exclude' | 'fail';
  target?: number;
  fixtures: { name: string; tag?: 'dev' | 'heldout'; skip?: string[]; reps: ScreensRep[] }[];
}

/** Writes the run: the judge tests' run, then its manifest and rep records patched with checks and effects. */
export async function makeScreensRun(spec: ScreensRunSpec): Promise<string> {
  const dir = await makeJudgeRun({
    dir: spec.dir,
    fixtures: spec.fixtures.map((fixture) => ({
      name: fixture.name,
      reps: fixture.reps.map((rep) =>
        'error' in rep ? { error: 'sut' as const, message: 'exited with code 1' } : rep.response,
      ),
    })),
  });
  const manifestFile = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as Manifest;
  manifest.checks = spec.checks;
  if (spec.errors) manifest.question.errors = spec.errors;
  if (spec.target !== undefined) manifest.question.target = spec.target;
  manifest.fixtures = manifest.fixtures.map((entry, index) => {
    const fixture = spec.fixtures[index]!;
    return { ...entry, ...(fixture.tag ? { tag: fixture.tag } : {}), ...(fixture.skip ? { skip: fixture.skip } : {}) };
  });
  await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  for (const fixture of spec.fixtures)
    for (const [index, rep] of fixture.reps.entries()) {
      if ('error' in rep) continue;
      const file = join(dir, 'reps', fixture.name, `rep-${String(index + 1).padStart(2, '0')}.json`);
      const record = JSON.parse(await readFile(file, 'utf8')) as RepRecord;
      record.effects = rep.notes
        ? { inserted: { notes: 1 }, updated: {}, deleted: {}, insertedRows: { notes: [{ id: index + 1, body: 'x' }] } }
        : { inserted: {}, updated: {}, deleted: {}, insertedRows: {} };
      await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
    }
  return dir;
}
