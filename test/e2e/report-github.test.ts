import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli-in-process.js';
import { HOSTILE_NOTE, makeCiRun } from '../helpers/ci-run.js';
import { escapeCommandData, escapeCommandProperty } from '../../src/report/github-annotations.js';

describe('turnkit report --format github', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-github-'));
    // Target 0.5. base: 0 of 4 (interval [0, 0.49]): missed, certain. base-fixed: 6 of 6 ([0.61, 1]): met, certain.
    // far: 4 of 6 ([0.30, 0.90]): met, uncertain.
    await makeCiRun(join(folder, 'run'), 0.5, {
      base: [['fail', HOSTILE_NOTE], ['fail', 'no deck'], ['fail'], ['fail', 'deck 9'], ['error'], ['na']],
      'base-fixed': [['pass'], ['pass'], ['pass'], ['pass'], ['pass'], ['pass']],
      far: [['pass'], ['fail', 'lost'], ['pass'], ['pass'], ['pass'], ['fail']],
    });
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('escapes workflow-command values: %, CR and LF; in properties also : and ,', () => {
    expect(escapeCommandData('100%\r\n::x, y')).toBe('100%25%0D%0A::x, y');
    expect(escapeCommandProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
  });

  it('prints an ::error per missed fixture, a ::warning per uncertain verdict, and appends the step summary', async () => {
    const summary = join(folder, 'summary.md');
    await writeFile(summary, 'an earlier step wrote this\n');
    const json = await runInProcess(['report', 'run', '--json'], { cwd: folder });
    const verdicts = JSON.parse(json.stdout).report.fixtures.map((f: { verdict: string; uncertain: boolean }) => [
      f.verdict,
      f.uncertain,
    ]);
    expect(verdicts).toEqual([
      ['missed', false],
      ['met', false],
      ['met', true],
    ]);

    const result = await runInProcess(['report', 'run', '--format', 'github'], {
      cwd: folder,
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      `::error file=fixtures/base.json,title=places%3A base missed the target::0 pass, 4 fail, 1 na, 1 error, 0 blank; rate 0.00 (0/4, errors excluded), 95%25 interval [0.00, 0.49], 2 passes needed for target 0.5%0Arep 1: said deck 3 %250A::error::owned%0D%0A<b>&amp;</b>, a:b%0Arep 2: no deck%0Arep 3: (no note)%0Aand 1 more failing rep(s)`,
      `::warning file=fixtures/far.json,title=places%3A far met%2C uncertain::met, but the 95%25 interval holds the target 0.5: more reps would tell. 4 pass, 2 fail, 0 na, 0 error, 0 blank; rate 0.67 (4/6, errors excluded), 95%25 interval [0.30, 0.90], 3 passes needed for target 0.5`,
      'places: 2 met, 1 missed, 0 pending of 3 fixture(s); target 0.5',
    ]);
    // No line but the commands starts with "::": the hostile note's line break did not start a command of its own.
    expect(lines.filter((line) => line.startsWith('::'))).toHaveLength(2);

    // The step summary is the Markdown report, then the held-out line of this look (on stderr in the log: stdout is
    // the workflow's commands). The Markdown report made after it counts one look more.
    const looks = /^held-out set: looked at \d+ time\(s\) [^\n]*$/m.exec(result.stderr)?.[0];
    expect(looks).toBeDefined();
    expect(result.stdout).not.toContain('held-out set');
    const markdown = await runInProcess(['report', 'run', '--md', '--full'], { cwd: folder });
    const withoutLooks = markdown.stdout.replace(/^held-out set: looked at \d+ time\(s\) [^\n]*\n/m, '');
    expect(withoutLooks).not.toBe(markdown.stdout);
    expect(await readFile(summary, 'utf8')).toBe(`an earlier step wrote this\n${withoutLooks}\n${looks}\n\n`);
    // The ledger is the project's, beside its runs, never a folder above it.
    expect((await readFile(join(folder, 'heldout-ledger.jsonl'), 'utf8')).trim().split('\n').length).toBeGreaterThan(0);
  });

  it('with GITHUB_STEP_SUMMARY empty it prints the commands only; --check still exits 1 on the miss', async () => {
    const result = await runInProcess(['report', 'run', '--format', 'github', '--check'], {
      cwd: folder,
      env: { GITHUB_STEP_SUMMARY: '' },
    });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toMatch(/^::error file=fixtures\/base\.json,/);
    const [heldout, ...rest] = result.stderr.split('\n');
    expect(heldout).toMatch(
      /^held-out set: looked at \d+ time\(s\) by 1 person\(s\) since it was frozen at \S+ \(heldout-ledger\.jsonl\)$/,
    );
    expect(rest.join('\n')).toBe(
      '--check: 1 of 3 fixture(s) did not meet the target\nbase (dev): missed: 0/4 passed, 2 needed for target 0.5\n',
    );
  });

  it('--format with --md is wrong usage', async () => {
    const result = await runInProcess(['report', 'run', '--format', 'github', '--md'], { cwd: folder });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe("error: option '--format <format>' cannot be used with option '--md'");
  });
});
