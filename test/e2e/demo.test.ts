import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliResult } from '../helpers/cli.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import type { Report } from '../../src/report/build-report.js';

const BASE = 'meridian-turn-23';
const FIXED = 'meridian-turn-23-deck-fixed';

/** What `turnkit demo --json` prints. */
interface DemoJson {
  dir: string;
  campaign: string;
  run: { dir: string; status: string; total: number; ran: number; errors: number; pending: number };
  checks: { pass: number; fail: number; error: number; notRun: number };
  report: Report;
  html: string;
}

describe('turnkit demo through the built binary, in a fresh folder', () => {
  let folder: string;
  let text: CliResult;
  let json: CliResult;
  // The demo must pick the embedded database whatever the developer's environment says.
  const env = { DATABASE_URL: '' };

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-e2e-demo-'));
    text = await runCli(['demo', '--dir', 'D'], { cwd: folder, env });
    json = await runCli(['demo', '--json', '--dir', 'D2'], { cwd: folder, env });
  }, 240_000);
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('ends with a short rollout: the fix keeps every turn right, the base fails from turn 23 on', async () => {
    expect(text.stdout).toMatch(/^A rollout from the same fixtures \(D\/runs\/places-rollout\/[^ )]+\):$/m);
    expect(text.stdout).toMatch(new RegExp(`^  ${FIXED}\\s+3/3\\s+3/3\\s+3/3\\s+3/3\\s+none failed$`, 'm'));
    const survival = (
      JSON.parse(json.stdout) as {
        rollout: {
          survival: {
            fixtures: { fixture: string; steps: { surviving: number }[]; medianFirstFailingTurn: number | null }[];
          };
        };
      }
    ).rollout.survival;
    const base = survival.fixtures.find((entry) => entry.fixture === BASE)!;
    const fixed = survival.fixtures.find((entry) => entry.fixture === FIXED)!;
    expect(fixed.steps.map((step) => step.surviving)).toEqual([3, 3, 3, 3]);
    // A base rep misled at turn 23 stays misled: its own wrong narration is in the campaign for the turns after.
    expect(base.medianFirstFailingTurn).toBe(23);
    expect(base.steps.at(-1)!.surviving).toBeLessThan(3);
  });

  it('runs the whole loop and prints the report, the base missing and the constructed fixture meeting the target', async () => {
    expect(text.code, text.stderr).toBe(0);
    const runDir =
      /^Run (D\/runs\/places\/[^ ]+) \(complete\); marks from marks\.checks\.csv; rubric version 1; target 0\.88, 10 reps per fixture\.$/m.exec(
        text.stdout,
      )?.[1];
    expect(runDir, text.stdout).toBeDefined();
    expect(text.stdout).toMatch(new RegExp(`^${BASE}\\s+\\d+\\s+\\d+\\s+0\\s+0\\s+0\\s+.*\\smissed\\s`, 'm'));
    expect(text.stdout).toMatch(
      new RegExp(`^${FIXED}\\s+\\d+\\s+\\d+\\s+0\\s+0\\s+0\\s+.*\\smet( \\(uncertain\\))?\\s`, 'm'),
    );
    expect(text.stdout).toMatch(
      new RegExp(`^${FIXED}\\s+${BASE}\\s+.* vs .*\\+0\\.\\d\\d\\s+(<0\\.001|0\\.0[0-4]\\d)$`, 'm'),
    );
    expect(text.stdout).toMatch(
      /^The constructed fixture changes one upstream narration and nothing else; its rate moved by \+0\.\d\d \(Fisher exact p (< 0\.001|= 0\.0[0-4]\d)\)\.$/m,
    );
    expect(text.stdout).toContain(`  turnkit report ${runDir} --marks marks.checks.csv`);
    // It ends with the report as a page, and how to read and mark the reps in a browser.
    expect(text.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      `The report as a page (open it in a browser): ${runDir}/report.html`,
      `Read and mark the reps in a browser: turnkit view ${runDir}`,
    ]);
    expect((await readFile(join(folder, runDir!, 'report.html'), 'utf8')).startsWith('<!doctype html>')).toBe(true);
    // Steps and progress go to stderr, one line each; 20 reps in all.
    const lines = text.stderr.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('- '))).toHaveLength(6);
    expect(lines.filter((line) => /^ {2}\[\d+\/20\] /.test(line))).toHaveLength(20);
    expect(text.stderr).not.toMatch(/[\r\x1b]/);

    // The report agrees with the files the demo left.
    const report = await runCli(['report', runDir!, '--marks', 'marks.checks.csv'], { cwd: folder, env });
    expect(report.code, report.stderr).toBe(0);
    const table = (stdout: string): string[] =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith(BASE))
        .map((line) =>
          line
            .split(/\s{2,}/)
            .slice(0, 9)
            .join('|'),
        );
    expect(table(report.stdout)).toEqual(table(text.stdout));
    // The report fits a screen: the fixture tables, the comparison and the findings; the rest is behind --full.
    const reportLines = report.stdout.trimEnd().split('\n');
    expect(reportLines.length, report.stdout).toBeLessThanOrEqual(40);
    expect(reportLines.at(-1)).toBe(
      'Also in the full report (--full): screens, what the target demands, consistency, the question as a whole.',
    );
    const full = await runCli(['report', runDir!, '--marks', 'marks.checks.csv', '--full'], { cwd: folder, env });
    for (const section of ['Screens', 'What 0.88 demands of 10 reps', 'Consistency', 'The question as a whole'])
      expect(full.stdout.split('\n'), section).toContain(section);
    expect(report.stdout).not.toContain('What 0.88 demands');
  });

  it('leaves the fixture, the constructed fixture and a complete run with marks.csv and marks.checks.csv in its folder', async () => {
    const dir = join(folder, 'D');
    expect(existsSync(join(dir, 'fixtures', `${BASE}.json`))).toBe(true);
    expect(existsSync(join(dir, 'constructed', `${FIXED}.json`))).toBe(true);
    const fixture = JSON.parse(await readFile(join(dir, 'fixtures', `${BASE}.json`), 'utf8')) as {
      format: string;
      source: { turn: number };
      input: { turn: number };
    };
    expect(fixture).toMatchObject({ format: 'turnkit.fixture/1', source: { turn: 23 }, input: { turn: 23 } });
    const constructed = JSON.parse(await readFile(join(dir, 'constructed', `${FIXED}.json`), 'utf8')) as {
      format: string;
      turn: number;
      base: { path: string };
    };
    expect(constructed).toMatchObject({ format: 'turnkit.constructed/1', turn: 19 });
    expect(constructed.base.path).toMatch(new RegExp(`${BASE}\\.json$`));

    const runs = await readdir(join(dir, 'runs', 'places'));
    expect(runs).toHaveLength(1);
    const run = join(dir, 'runs', 'places', runs[0]!);
    expect((await readdir(run)).sort()).toEqual(
      expect.arrayContaining(['case-files', 'manifest.json', 'marks.checks.csv', 'marks.csv', 'reps']),
    );
    const manifest = JSON.parse(await readFile(join(run, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest).toMatchObject({
      status: 'complete',
      question: { id: 'places', reps: 10 },
      database: { backend: 'embedded' },
    });
    expect(manifest.fixtures.map((entry) => [entry.name, entry.tag])).toEqual([
      [BASE, 'dev'],
      [FIXED, 'dev'],
    ]);
    expect(manifest.checks).toMatchObject({ mustContain: ['deck 2'], mustNotContain: ['deck 3'] });
    // The human's marks.csv is blank, ready to mark by hand; the checks' file has a mark and a reason per rep.
    const marks = parseMarks(await readFile(join(run, 'marks.csv'), 'utf8'));
    expect(marks).toHaveLength(20);
    expect(marks.every((row) => row.mark === '')).toBe(true);
    const checks = parseMarks(await readFile(join(run, 'marks.checks.csv'), 'utf8'));
    expect(checks).toHaveLength(20);
    expect(checks.every((row) => (row.mark === 'pass' || row.mark === 'fail') && row.note !== '')).toBe(true);
    for (const fixture of [BASE, FIXED])
      expect((await readdir(join(run, 'reps', fixture))).filter((name) => name.endsWith('.json'))).toHaveLength(10);
  });

  it('prints the result as JSON: the constructed fixture well above its base, with p < 0.05', async () => {
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as DemoJson;
    expect(result.dir).toBe('D2');
    expect(result.campaign).toBe('1');
    expect(result.run).toMatchObject({ status: 'complete', total: 20, ran: 20, errors: 0, pending: 0 });
    expect(result.run.dir).toMatch(/^D2\/runs\/places\/[^/]+$/);
    expect(result.html).toBe(`${result.run.dir}/report.html`);
    expect(result.checks).toMatchObject({ error: 0, notRun: 0 });
    expect(result.checks.pass + result.checks.fail).toBe(20);
    const { report } = result;
    expect(report.complete).toBe(true);
    const rate = (name: string): number => report.fixtures.find((fixture) => fixture.fixture === name)!.rate!;
    expect(report.fixtures.map((fixture) => [fixture.fixture, fixture.reps, fixture.blank])).toEqual([
      [BASE, 10, 0],
      [FIXED, 10, 0],
    ]);
    expect(rate(FIXED) - rate(BASE)).toBeGreaterThanOrEqual(0.5);
    expect(report.fixtures.find((fixture) => fixture.fixture === BASE)!.verdict).toBe('missed');
    expect(report.pairs).toHaveLength(1);
    expect(report.pairs[0]).toMatchObject({ constructed: FIXED, base: BASE });
    expect(report.pairs[0]!.delta).toBeCloseTo(rate(FIXED) - rate(BASE), 12);
    expect(report.pairs[0]!.p).toBeLessThan(0.05);
    // The sample SUT is deterministic per fixture and rep: both demos mark the same.
    const first = parseMarks(
      await readFile(join(folder, await firstRun(join(folder, 'D')), 'marks.checks.csv'), 'utf8'),
    );
    const second = parseMarks(await readFile(join(folder, result.run.dir, 'marks.checks.csv'), 'utf8'));
    expect(second.map((row) => `${row.fixture},${row.rep},${row.mark}`)).toEqual(
      first.map((row) => `${row.fixture},${row.rep},${row.mark}`),
    );
  });

  it('stays on the embedded database when DATABASE_URL names another server, and says so; --reps sets the reps', async () => {
    const result = await runCli(['demo', '--dir', 'D3', '--reps', '2', '--json'], {
      cwd: folder,
      env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/unreachable' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(
      'the demo runs on the embedded database; --database-url and DATABASE_URL are not used',
    );
    const printed = JSON.parse(result.stdout) as DemoJson;
    // Every rep reached the SUT, which was given the embedded server's URL, not the unreachable one.
    expect(printed.run).toMatchObject({ status: 'complete', total: 4, errors: 0 });
    expect(printed.report.reps).toBe(2);
    const manifest = JSON.parse(await readFile(join(folder, printed.run.dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest).toMatchObject({ question: { reps: 2 }, database: { backend: 'embedded' } });
  });

  it('refuses to run again into the same non-empty folder, with one line, touching nothing', async () => {
    const before = (await readdir(join(folder, 'D'), { recursive: true })).sort();
    const again = await runCli(['demo', '--dir', 'D'], { cwd: folder, env });
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe('D: not empty; the demo starts in a folder of its own\n');
    expect((await readdir(join(folder, 'D'), { recursive: true })).sort()).toEqual(before);
  });
});

async function firstRun(dir: string): Promise<string> {
  const runs = await readdir(join(dir, 'runs', 'places'));
  return join('D', 'runs', 'places', runs[0]!);
}
