import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { sampleProject } from '../helpers/sample-project.js';
import type { MarkRow } from '../../src/run-dir/marks/marks-file.js';
import { formatMarks } from '../../src/run-dir/marks/format-marks.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import type { Report } from '../../src/report/build-report.js';
import type { Comparison } from '../../src/report/compare-runs.js';

const BASE = 'meridian-turn-23';
const FIXED = 'meridian-turn-23-deck-fixed';
const REPS = 4;

/** The cells of a fixture's row in the plain-text report table (columns are two or more spaces apart). */
function rowOf(stdout: string, fixture: string): string[] {
  const line = stdout.split('\n').find((candidate) => candidate.startsWith(`${fixture} `));
  expect(line, stdout).toBeDefined();
  return line!.split(/\s{2,}/);
}

/** pass, fail, na, error, blank and verdict of a fixture's row. */
function countsOf(
  stdout: string,
  fixture: string,
): { pass: number; fail: number; na: number; error: number; blank: number; verdict: string } {
  const cells = rowOf(stdout, fixture);
  const [pass, fail, na, error, blank] = cells.slice(1, 6).map(Number) as [number, number, number, number, number];
  return { pass, fail, na, error, blank, verdict: cells[8]! };
}

describe('turnkit judge --checks and turnkit report through the CLI', () => {
  let project: string;
  let runA: string;
  let runB: string;
  let checks: MarkRow[];
  const cli = (args: string[]): Promise<CliResult> => runInProcess(args, { cwd: project });
  const read = (path: string): Promise<string> => readFile(join(project, path), 'utf8');

  beforeAll(async () => {
    project = await sampleProject('turnkit-e2e-report-');
    const dirs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const result = await cli(['run', 'questions/places.yaml', '--reps', String(REPS), '--json']);
      expect(result.code, result.stderr).toBe(0);
      dirs.push((JSON.parse(result.stdout) as { dir: string }).dir);
    }
    [runA, runB] = dirs as [string, string];
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('judge --checks writes marks.checks.csv with a mark and a reason per rep, and leaves marks.csv byte for byte', async () => {
    const marks = await read(`${runA}/marks.csv`);
    const result = await cli(['judge', runA, '--checks']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    checks = parseMarks(await read(`${runA}/marks.checks.csv`));
    const pass = checks.filter((row) => row.mark === 'pass').length;
    const fail = checks.filter((row) => row.mark === 'fail').length;
    expect(result.stdout).toBe(
      `wrote ${runA}/marks.checks.csv: ${pass} pass, ${fail} fail, 0 error\nreport from it: turnkit report ${runA} --marks marks.checks.csv; agreement with your marks: turnkit agree ${runA}/marks.csv ${runA}/marks.checks.csv\n`,
    );
    expect(checks.map((row) => `${row.fixture}:${row.rep}`)).toEqual(
      [BASE, FIXED].flatMap((fixture) => [1, 2, 3, 4].map((rep) => `${fixture}:${rep}`)),
    );
    // Passing reps say how many checks passed; failing ones name each failed check.
    for (const row of checks) {
      if (row.mark === 'pass') expect(row.note).toBe('4 check(s) passed');
      else expect(row.note).toBe('does not contain "deck 2"; contains "deck 3"');
    }
    // The constructed fixture corrects the narration that misleads the sample SUT.
    expect(checks.filter((row) => row.fixture === FIXED).every((row) => row.mark === 'pass')).toBe(true);
    expect(checks.filter((row) => row.fixture === BASE && row.mark === 'fail').length).toBeGreaterThan(0);
    expect(await read(`${runA}/marks.csv`)).toBe(marks);
    // Each rep's reason agrees with its response.
    for (const row of checks) {
      const response = (
        JSON.parse(await read(`${runA}/reps/${row.fixture}/rep-0${row.rep}.json`)) as { response: string }
      ).response;
      expect(row.mark, response).toBe(response.includes('deck 2') && !response.includes('deck 3') ? 'pass' : 'fail');
    }

    // Judging again gives the same bytes; --json says what it wrote.
    const before = await read(`${runA}/marks.checks.csv`);
    const again = await cli(['judge', runA, '--checks', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      checks: {
        file: `${runA}/marks.checks.csv`,
        screensFile: `${runA}/screens.checks.jsonl`,
        pass,
        fail,
        na: 0,
        error: 0,
        notRun: 0,
      },
    });
    expect(await read(`${runA}/marks.checks.csv`)).toBe(before);
    expect(await read(`${runA}/marks.csv`)).toBe(marks);
  });

  it('judge without --checks is wrong usage, writes nothing', async () => {
    const result = await cli(['judge', runB]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      "say how to judge: --checks (the question's deterministic checks) and/or --model NAME or --judge FILE (an LLM), or name a judge in the config",
    );
    await expect(read(`${runB}/marks.checks.csv`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('judge --checks --question with a question of another id refuses, naming both', async () => {
    await writeFile(
      join(project, 'questions/other.yaml'),
      (await read('questions/places.yaml')).replace('id: places', 'id: other'),
    );
    const result = await cli(['judge', runB, '--checks', '--question', 'questions/other.yaml']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`questions/other.yaml: question "other", but ${runB} is a run of "places"\n`);
  });

  it('report with blank marks exits 0 and shows every fixture pending', async () => {
    const result = await cli(['report', runA]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(
      `Run ${runA} (complete); marks from marks.csv; rubric version 1; target 0.88, ${REPS} reps per fixture.`,
    );
    for (const fixture of [BASE, FIXED])
      expect(countsOf(result.stdout, fixture)).toEqual({
        pass: 0,
        fail: 0,
        na: 0,
        error: 0,
        blank: REPS,
        verdict: 'pending',
      });
    expect(result.stdout).toMatch(/^total \(2 fixtures\)\s.*0 met, 0 missed, 2 pending$/m);
  });

  it('report --marks marks.checks.csv exits 0: the base fixture missed, the constructed one met', async () => {
    const result = await cli(['report', runA, '--marks', 'marks.checks.csv', '--full']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('marks from marks.checks.csv');
    const count = (fixture: string, mark: string): number =>
      checks.filter((row) => row.fixture === fixture && row.mark === mark).length;
    expect(countsOf(result.stdout, BASE)).toEqual({
      pass: count(BASE, 'pass'),
      fail: count(BASE, 'fail'),
      na: 0,
      error: 0,
      blank: 0,
      verdict: 'missed',
    });
    // 4 of 4 meets 0.88, though the Wilson interval of 4 reps still holds the target.
    expect(countsOf(result.stdout, FIXED)).toEqual({
      pass: REPS,
      fail: 0,
      na: 0,
      error: 0,
      blank: 0,
      verdict: 'met (uncertain)',
    });
    expect(rowOf(result.stdout, FIXED)[6]).toBe('1.00 (4/4)');
    // The constructed fixture against its base, and what 0.88 demands of 4 reps.
    expect(result.stdout).toMatch(
      new RegExp(
        `^${FIXED}\\s+${BASE}\\s+1\\.00 \\(4/4\\) vs 0\\.\\d\\d \\(${count(BASE, 'pass')}/4\\)\\s+\\+0\\.\\d\\d\\s+\\d\\.\\d{3}$`,
        'm',
      ),
    );
    expect(result.stdout).toMatch(/^passes needed\s+4\s+3\s+2\s+1$/m);
    expect(result.stdout).toMatch(/^fails tolerated\s+0\s+0\s+0\s+0$/m);
  });

  it('report --check exits 1 after printing, naming the fixture that missed on stderr', async () => {
    const result = await cli(['report', runA, '--marks', 'marks.checks.csv', '--check']);
    expect(result.code).toBe(1);
    expect(countsOf(result.stdout, BASE).verdict).toBe('missed');
    const passed = checks.filter((row) => row.fixture === BASE && row.mark === 'pass').length;
    expect(result.stderr).toBe(
      `--check: 1 of 2 fixture(s) did not meet the target\n${BASE} (dev): missed: ${passed}/${REPS} passed, ${REPS} needed for target 0.88\n`,
    );

    // Unmarked reps are not a met target either.
    const pending = await cli(['report', runA, '--check']);
    expect(pending.code).toBe(1);
    expect(pending.stderr.split('\n')).toEqual([
      '--check: 2 of 2 fixture(s) did not meet the target',
      `${BASE} (dev): pending: ${REPS} rep(s) not marked for target 0.88`,
      `${FIXED} (dev): pending: ${REPS} rep(s) not marked for target 0.88`,
      '',
    ]);
  });

  it('report --check exits 0 when every fixture met, with marks from a file outside the run', async () => {
    const rows = checks.map((row) => ({ ...row, mark: 'pass' as const, note: 'by hand' }));
    await writeFile(join(project, 'all-pass.csv'), formatMarks(rows));
    const result = await cli(['report', runA, '--marks', './all-pass.csv', '--check']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('marks from all-pass.csv');
    for (const fixture of [BASE, FIXED]) expect(countsOf(result.stdout, fixture).verdict).toBe('met (uncertain)');
  });

  it('report --json prints the numbers: rates per fixture, the base pair', async () => {
    const result = await cli(['report', runA, '--marks', 'marks.checks.csv', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as { report: Report; comparison?: Comparison };
    expect(printed).not.toHaveProperty('comparison');
    const { report } = printed;
    const passed = checks.filter((row) => row.fixture === BASE && row.mark === 'pass').length;
    expect(report).toMatchObject({
      question: { id: 'places' },
      status: 'complete',
      complete: true,
      target: 0.88,
      reps: REPS,
      shard: null,
    });
    expect(
      report.fixtures.map((fixture) => [fixture.fixture, fixture.tag, fixture.rate, fixture.verdict, fixture.notRun]),
    ).toEqual([
      [BASE, 'dev', passed / REPS, 'missed', 0],
      [FIXED, 'dev', 1, 'met', 0],
    ]);
    expect(report.fixtures.every((fixture) => fixture.latency.reps === REPS)).toBe(true);
    expect(report.tags).toEqual([
      expect.objectContaining({ tag: 'dev', fixtures: 2, met: 1, missed: 1, pass: passed + REPS, fail: REPS - passed }),
    ]);
    expect(report.pairs).toEqual([
      expect.objectContaining({ constructed: FIXED, base: BASE, delta: 1 - passed / REPS }),
    ]);
    expect(report.pairs[0]!.p).toBeGreaterThan(0);
    expect(report.pairs[0]!.p).toBeLessThanOrEqual(1);
  });

  it('report --md prints Markdown tables', async () => {
    const result = await cli(['report', runA, '--marks', 'marks.checks.csv', '--md']);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^# places: /);
    expect(lines).toContain('## dev fixtures');
    const header = lines.findIndex((line) => line.startsWith('| fixture | pass |'));
    expect(header).toBeGreaterThan(0);
    expect(lines[header]).toBe(
      '| fixture | pass | fail | na | error | blank | rate (errors excluded) | 95% interval | verdict | passes needed/fails ok | SUT ms p50/p95 |',
    );
    expect(lines[header + 1]).toBe('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |');
    expect(lines[header + 3]).toMatch(
      new RegExp(`^\\| ${FIXED} \\| 4 \\| 0 \\| 0 \\| 0 \\| 0 \\| 1\\.00 \\(4/4\\) \\| `),
    );
    expect(lines).toContain('## Constructed fixtures against their bases');
  });

  it('report --compare with a second run of the same question exits 0 with deltas and Fisher p', async () => {
    // A grader marks run B by hand: every rep passes.
    const b = parseMarks(await read(`${runB}/marks.csv`));
    await writeFile(join(project, runB, 'marks.csv'), formatMarks(b.map((row) => ({ ...row, mark: 'pass' }))));
    // The other run's hand marks, named outright: by default --marks marks.checks.csv compares with its checks.
    const result = await cli([
      'report',
      runA,
      '--marks',
      'marks.checks.csv',
      '--compare',
      runB,
      '--compare-marks',
      `${runB}/marks.csv`,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`Against ${runB}`);
    expect(result.stdout).toMatch(/^fixture\s+tag\s+here\s+there\s+delta\s+Fisher p$/m);
    expect(result.stdout).toMatch(
      new RegExp(`^${FIXED}\\s+dev\\s+1\\.00 \\(4/4\\)\\s+1\\.00 \\(4/4\\)\\s+±0\\.00\\s+1\\.000$`, 'm'),
    );
    expect(result.stdout).not.toContain('warning:');

    const json = await cli([
      'report',
      runA,
      '--marks',
      'marks.checks.csv',
      '--compare',
      runB,
      '--compare-marks',
      `${runB}/marks.csv`,
      '--json',
    ]);
    expect(json.code, json.stderr).toBe(0);
    const { comparison } = JSON.parse(json.stdout) as { comparison: Comparison };
    const passed = checks.filter((row) => row.fixture === BASE && row.mark === 'pass').length;
    expect(
      comparison.fixtures.map((entry) => [
        entry.fixture,
        entry.here.rate,
        entry.there.rate,
        entry.delta,
        entry.fixtureChanged,
      ]),
    ).toEqual([
      [BASE, passed / REPS, 1, passed / REPS - 1, false],
      [FIXED, 1, 1, 0, false],
    ]);
    expect(comparison.fixtures[1]!.p).toBeCloseTo(1, 12);
    expect(comparison.fixtures[0]!.p).toBeLessThan(1);
    expect(comparison).toMatchObject({ onlyHere: [], onlyThere: [], warnings: [] });
  });

  it('report of an interrupted run prints the table, then exits 1 saying how to finish it', async () => {
    const copy = `${runA}-interrupted`;
    await cp(join(project, runA), join(project, copy), { recursive: true });
    const manifest = JSON.parse(await read(`${copy}/manifest.json`)) as Manifest;
    await writeFile(
      join(project, copy, 'manifest.json'),
      `${JSON.stringify({ ...manifest, status: 'interrupted' }, null, 2)}\n`,
    );
    await rm(join(project, copy, 'reps', FIXED, 'rep-04.json'));

    const result = await cli(['report', copy, '--marks', 'marks.checks.csv']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`Run ${copy} (interrupted, 1 rep(s) not run)`);
    expect(countsOf(result.stdout, BASE).verdict).toBe('missed');
    expect(result.stderr).toBe(
      `${copy}: the run is interrupted with 1 rep(s) not run; finish it with: turnkit run --resume ${copy}\n`,
    );

    const json = await cli(['report', copy, '--json']);
    expect(json.code).toBe(1);
    const { report } = JSON.parse(json.stdout) as { report: Report };
    expect(report).toMatchObject({ status: 'interrupted', complete: false });
    expect(report.fixtures.map((fixture) => fixture.notRun)).toEqual([0, 1]);

    // judge --checks leaves the missing rep blank and says so.
    const judged = await cli(['judge', copy, '--checks']);
    expect(judged.code, judged.stderr).toBe(0);
    expect(judged.stdout.split('\n')[0]).toMatch(/^wrote .*marks\.checks\.csv: \d pass, \d fail, 0 error, 1 not run$/);
    expect(
      parseMarks(await read(`${copy}/marks.checks.csv`)).find((row) => row.fixture === FIXED && row.rep === 4),
    ).toEqual({ fixture: FIXED, rep: 4, mark: '', note: 'not run' });
  });

  it('run --shard 1/2 and 2/2, then merge: the merged run judges and reports as the unsharded one', async () => {
    const shards: string[] = [];
    for (const shard of ['1/2', '2/2']) {
      const result = await cli(['run', 'questions/places.yaml', '--reps', String(REPS), '--shard', shard]);
      expect(result.code, result.stderr).toBe(0);
      const dir = new RegExp(
        `^(runs/places/[^:\\s]+-shard-${shard[0]}-of-2): complete, 4 rep\\(s\\) run, 0 error\\(s\\)$`,
        'm',
      ).exec(result.stdout)?.[1];
      expect(dir, result.stdout).toBeDefined();
      shards.push(dir!);
    }
    const shardReport = await cli(['report', shards[0]!]);
    expect(shardReport.code, shardReport.stderr).toBe(0);
    expect(shardReport.stdout).toContain(`Run ${shards[0]} (complete, shard 1/2); marks from marks.csv`);
    // Half of the 8 reps, none marked yet.
    expect(shardReport.stdout).toMatch(/^total \(2 fixtures\)\s+0\s+0\s+0\s+0\s+4\s/m);

    const missing = await cli(['merge', shards[1]!]);
    expect(missing).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'shard 1/2 missing: merge needs every shard of the run\n',
    });

    const merged = await cli(['merge', shards[1]!, shards[0]!]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stderr).toBe('');
    const dir = /^(runs\/places\/\S+-merged): 2 shard\(s\), 8 rep\(s\); merged marks\.csv$/.exec(
      merged.stdout.trimEnd(),
    )?.[1];
    expect(dir, merged.stdout).toBeDefined();
    const manifest = JSON.parse(await read(`${dir}/manifest.json`)) as Manifest;
    expect(manifest).toMatchObject({ status: 'complete', question: { reps: REPS } });
    expect(manifest).not.toHaveProperty('shard');
    // Relative to the merged run directory, which sits beside the shards.
    expect(manifest.merged!.map((entry) => [entry.dir, entry.shard])).toEqual([
      [`../${basename(shards[0]!)}`, { index: 1, count: 2 }],
      [`../${basename(shards[1]!)}`, { index: 2, count: 2 }],
    ]);

    const judged = await cli(['judge', dir!, '--checks']);
    expect(judged.code, judged.stderr).toBe(0);
    expect(await read(`${dir}/marks.checks.csv`)).toBe(await read(`${runA}/marks.checks.csv`));
    const report = await cli(['report', dir!, '--marks', 'marks.checks.csv', '--check']);
    expect(report.code).toBe(1);
    const tableRows = (stdout: string): string[] =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('meridian') || line.startsWith('total'))
        .map((line) =>
          line
            .split(/\s{2,}/)
            .slice(0, 9)
            .join('|'),
        );
    const plain = await cli(['report', runA, '--marks', 'marks.checks.csv', '--check']);
    expect(tableRows(report.stdout)).toEqual(tableRows(plain.stdout));
    expect(report.stderr).toBe(plain.stderr);

    // --out names the merged directory; an existing one is refused.
    const out = await cli(['merge', ...shards, '--out', 'merged-here', '--json']);
    expect(out.code, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({
      dir: 'merged-here',
      shards: 2,
      reps: 8,
      marksFiles: ['marks.csv'],
      judgeFiles: [],
      skipped: [],
    });
    const again = await cli(['merge', ...shards, '--out', 'merged-here']);
    expect(again).toMatchObject({ code: 1, stderr: 'merged-here: exists; a merged run is always a new directory\n' });
  });

  it('report of a folder that is not a run exits 1 naming it', async () => {
    const result = await cli(['report', 'fixtures']);
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: 'fixtures: not a run directory (no manifest.json)\n' });
  });
});
