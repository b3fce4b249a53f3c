import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli-in-process.js';
import { makeCiRun } from '../helpers/ci-run.js';
import type { Report } from '../../src/report/build-report.js';

describe('report: consistency (pass^k per fixture, all-pass share per tag)', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-consistency-'));
    await makeCiRun(join(folder, 'run'), 0.9, {
      // 1 pass, 3 fail (one error, one na): 4 qualified of 6 reps.
      base: [['fail'], ['fail'], ['pass'], ['fail'], ['error'], ['na']],
      'base-fixed': [['pass'], ['pass'], ['pass'], ['pass'], ['pass'], ['pass']],
      // 3 pass, 1 fail, 2 blank.
      far: [['pass'], ['fail'], ['pass'], ['pass'], [''], ['']],
    });
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('gives pass^k for k = 1..reps from the counts in --json, undefined (null) where k > qualified', async () => {
    const result = await runInProcess(['report', 'run', '--json'], { cwd: folder });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout).report as Report;
    const byName = Object.fromEntries(report.fixtures.map((fixture) => [fixture.fixture, fixture.passK]));
    // base: C(1,1)/C(4,1) = 1/4, then C(1,k) = 0 for k = 2..4, undefined for 5 and 6.
    expect(byName.base).toEqual([0.25, 0, 0, 0, null, null]);
    expect(byName['base-fixed']).toEqual([1, 1, 1, 1, 1, 1]);
    // far: 3/4, C(3,2)/C(4,2) = 0.5, C(3,3)/C(4,3) = 0.25, 0, undefined, undefined.
    expect(byName.far).toEqual([0.75, 0.5, 0.25, 0, null, null]);
    expect(report.tags.map((tag) => [tag.tag, tag.consistency])).toEqual([
      ['dev', { allPassed: 1, of: 2, share: 0.5 }],
      ['heldout', { allPassed: 0, of: 1, share: 0 }],
    ]);
  });

  it('shows them in the text and Markdown reports, with "n/a" where k > qualified', async () => {
    const text = await runInProcess(['report', 'run', '--full'], { cwd: folder });
    const lines = text.stdout.split('\n');
    const at = lines.indexOf('Consistency');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 2, at + 6).map((line) => line.split(/\s+/))).toEqual([
      ['fixture', 'pass^1', 'pass^2', 'pass^3', 'pass^5', 'pass^6'],
      ['base', '0.250', '0.000', '0.000', 'n/a', 'n/a'],
      ['base-fixed', '1.000', '1.000', '1.000', '1.000', '1.000'],
      ['far', '0.750', '0.500', '0.250', 'n/a', 'n/a'],
    ]);
    expect(lines).toContain('dev: 1 of 2 fixture(s) with qualified reps passed every one (0.50)');
    expect(lines).toContain('heldout: 0 of 1 fixture(s) with qualified reps passed every one (0.00)');
    const md = await runInProcess(['report', 'run', '--md', '--full'], { cwd: folder });
    expect(md.stdout).toContain('## Consistency');
    expect(md.stdout).toMatch(/\| base +\| +0\.250 \| +0\.000 \| +0\.000 \| +n\/a \| +n\/a \|/);
  });
});
