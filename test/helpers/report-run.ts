import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MarkRow } from '../../src/run-dir/marks/marks-file.js';
import { formatMarks } from '../../src/run-dir/marks/format-marks.js';
import { makeMarkRun, type MarkRepSpec } from './mark-run.js';

/** A mark of a hand-made marks file: [mark, note]. */
type Given = [MarkRow['mark'], string?];

/**
 * A run with every part of the report: a base and its constructed fixture (dev), a held-out fixture, marks.csv with
 * pass, fail, na, error and blank, the checks' marks and a blind re-mark (agreements). 6 reps per fixture.
 */
export async function makeReportRun(
  dir: string,
  options: { responses?: Partial<Record<string, MarkRepSpec[]>> } = {},
): Promise<string> {
  const reps = (name: string, fallback: MarkRepSpec[]): MarkRepSpec[] => options.responses?.[name] ?? fallback;
  await makeMarkRun({
    dir,
    fixtures: [
      {
        name: 'base',
        reps: reps('base', [
          'deck 3',
          'deck 3',
          'deck 2',
          'deck 3',
          { error: 'sut', message: 'exited with code 1' },
          'deck 3',
        ]),
      },
      { name: 'base-fixed', reps: reps('base-fixed', ['deck 2', 'deck 2', 'deck 2', 'deck 2', 'deck 2', 'deck 3']) },
      {
        name: 'far',
        reps: reps('far', ['deck 2 far', 'no idea', 'deck 2 far', 'deck 2 far', 'deck 2 far', 'deck 2 far']),
      },
    ],
  });
  const manifestFile = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
  const base = manifest.fixtures[0];
  manifest.fixtures[0].tag = 'dev';
  manifest.fixtures[1].tag = 'dev';
  manifest.fixtures[1].bases = [base.file];
  manifest.fixtures[2].tag = 'heldout';
  await writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  const human: Record<string, Given[]> = {
    base: [['fail', 'says deck 3'], ['fail'], ['pass'], ['fail'], ['error', 'sut: exit'], ['na', 'off topic']],
    'base-fixed': [['pass'], ['pass'], ['pass'], ['pass', 'good'], ['pass'], ['fail']],
    far: [['pass'], ['fail'], ['pass'], ['pass'], [''], ['']],
  };
  const checks: Record<string, Given[]> = {
    base: [['fail'], ['fail'], ['pass'], ['pass', 'contains deck 2?'], ['error'], ['fail']],
    'base-fixed': [['pass'], ['pass'], ['pass'], ['pass'], ['pass'], ['fail']],
    far: [['pass'], ['fail'], ['pass'], ['fail', 'missing deck 2'], ['pass'], ['pass']],
  };
  const blind: Record<string, Given[]> = {
    base: [['fail'], ['pass', 'changed my mind'], ['pass'], ['fail'], ['error'], ['na']],
    'base-fixed': [['pass'], ['pass'], ['pass'], ['pass'], ['pass'], ['fail']],
    far: [['pass'], ['fail'], ['pass'], ['pass'], ['pass'], ['pass']],
  };
  const rows = (marks: Record<string, Given[]>): MarkRow[] =>
    Object.entries(marks).flatMap(([fixture, given]) =>
      given.map(([mark, note], i) => ({ fixture, rep: i + 1, mark, note: note ?? '' })),
    );
  await writeFile(join(dir, 'marks.csv'), formatMarks(rows(human)));
  await writeFile(join(dir, 'marks.checks.csv'), formatMarks(rows(checks)));
  await writeFile(join(dir, 'marks.blind.csv'), formatMarks(rows(blind)));
  return dir;
}
