import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { sampleRunProject } from '../helpers/sample-project.js';
import type { MarkRow } from '../../src/run-dir/marks/marks-file.js';
import { formatMarks } from '../../src/run-dir/marks/format-marks.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import type { Report } from '../../src/report/build-report.js';

const REPS = 4;

describe('turnkit report --marks a,b: a run marked by a person for half its reps and by checks for the rest', () => {
  let project: string;
  let run: string;
  let person: MarkRow[];
  let checks: MarkRow[];
  const cli = (args: string[]): Promise<CliResult> => runInProcess(args, { cwd: project });

  beforeAll(async () => {
    project = await sampleRunProject('turnkit-e2e-precedence-');
    const result = await cli(['run', 'questions/places.yaml', '--reps', String(REPS), '--json']);
    expect(result.code, result.stderr).toBe(0);
    run = (JSON.parse(result.stdout) as { dir: string }).dir;
    expect(await cli(['judge', run, '--checks'])).toMatchObject({ code: 0 });
    checks = parseMarks(await readFile(join(project, run, 'marks.checks.csv'), 'utf8'));
    // The person marks reps 1 and 2 of each fixture, against what the checks said of rep 1 where they can, so that
    // a report that took the checks' mark for a rep the person marked shows a different count; 3 and 4 stay blank.
    const blank = parseMarks(await readFile(join(project, run, 'marks.csv'), 'utf8'));
    person = blank.map((row) => {
      if (row.rep > 2) return row;
      const checked = checks.find((other) => other.fixture === row.fixture && other.rep === row.rep)!;
      const mark = row.rep === 1 ? (checked.mark === 'pass' ? 'fail' : 'pass') : 'na';
      return { ...row, mark, note: 'by hand', grader: 'ann' };
    });
    await writeFile(join(project, run, 'marks.csv'), formatMarks(person));
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('each rep takes the first file that marks it: rates and per-source counts from the two files', async () => {
    const result = await cli(['report', run, '--marks', 'marks.csv,marks.checks.csv', '--json']);
    expect(result.stderr).not.toContain('Error');
    const { report } = JSON.parse(result.stdout) as { report: Report };
    expect(report.fixtures.length).toBe(2);
    for (const fixture of report.fixtures) {
      // The expected counts, from the files themselves: the person's rows where marked, else the checks' rows.
      const mine = person.filter((row) => row.fixture === fixture.fixture && row.mark !== '');
      const theirs = checks.filter((row) => row.fixture === fixture.fixture && row.rep > 2);
      const chosen = [...mine, ...theirs];
      expect(mine).toHaveLength(2);
      expect(fixture.pass, fixture.fixture).toBe(chosen.filter((row) => row.mark === 'pass').length);
      expect(fixture.fail, fixture.fixture).toBe(chosen.filter((row) => row.mark === 'fail').length);
      expect(fixture.na, fixture.fixture).toBe(1);
      expect(fixture.blank).toBe(0);
      const sources = report.marksSources!.fixtures.find((entry) => entry.fixture === fixture.fixture)!.sources;
      const count = (name: string): number => sources.find((source) => basename(source.file) === name)?.marks ?? 0;
      expect(count('marks.csv')).toBe(2);
      expect(count('marks.checks.csv')).toBe(2);
    }
    // The other order: the checks mark every rep, so the person's marks are never reached.
    const reversed = JSON.parse(
      (await cli(['report', run, '--marks', 'marks.checks.csv,marks.csv', '--json'])).stdout,
    ) as {
      report: Report;
    };
    for (const fixture of reversed.report.fixtures) {
      const all = checks.filter((row) => row.fixture === fixture.fixture);
      expect(fixture.pass).toBe(all.filter((row) => row.mark === 'pass').length);
      expect(fixture.na).toBe(0);
    }
  });

  it('the text report shows the marks by source and says the precedence', async () => {
    const result = await cli(['report', run, '--marks', 'marks.csv,marks.checks.csv', '--full']);
    expect(result.stdout).toContain(
      "Marks by precedence: each rep's mark comes from the first of marks.csv, marks.checks.csv that marks it.",
    );
    // Across the two dev fixtures: 4 marks from the person and 4 from the checks (the last table's total row).
    expect(
      result.stdout
        .split('\n')
        .filter((line) => line.startsWith('total (dev) '))
        .at(-1)!
        .split(/\s{2,}/)
        .slice(1),
    ).toEqual(['4', '4']);
  });
});
