import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copySampleFiles } from '../helpers/sample-project.js';
import { runInProcess } from '../helpers/cli-in-process.js';

// `turnkit plan` reads only the question: no database, no rep, before anything runs.
describe('turnkit plan', () => {
  let project: string;
  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-plan-'));
    await copySampleFiles(project);
  });
  afterAll(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it("prints what the sample question's reps can show, and the reps to tell a pair of rates apart", async () => {
    const result = await runInProcess(['plan', 'questions/places.yaml', '--from', '0.2', '--to', '0.8'], {
      cwd: project,
    });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('plan for places: target 0.88, 10 reps per fixture');
    expect(lines).toContain(
      'what the target demands: 9 passes of 10 (1 fail(s) tolerated); every lost rep (error, na) counts against that',
    );
    expect(lines).toContain('  base 0.10: detects a constructed rate of 0.78 or more (+0.68)');
    expect(lines).toContain('  base 0.50: no constructed rate is detectable');
    expect(lines).toContain("to tell 0.20 from 0.80: 12 reps per fixture (Fisher's exact test)");
    const json = await runInProcess(['plan', 'questions/places.yaml', '--reps', '30', '--json'], { cwd: project });
    const plan = JSON.parse(json.stdout);
    expect(plan.reps).toBe(30);
    expect(plan.demand).toEqual({ n: 30, passesNeeded: 27, failsTolerated: 3 });
    expect(plan.verdict.map((entry: { rate: number }) => entry.rate)).toEqual([0.68, 0.78, 0.83, 0.93, 0.98]);
  });

  it('refuses --from without --to, and a missing question, in one line with exit codes 2 and 1', async () => {
    const lone = await runInProcess(['plan', 'questions/places.yaml', '--from', '0.2'], { cwd: project });
    expect(lone).toMatchObject({ code: 2, stdout: '' });
    expect(lone.stderr).toBe('give --from and --to together\n');
    const missing = await runInProcess(['plan', 'questions/nope.yaml'], { cwd: project });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toContain('questions/nope.yaml');
  });

  it("names the question's own reps where they are written when they are more than a plan computes", async () => {
    const text = await readFile(join(project, 'questions/places.yaml'), 'utf8');
    const line = text.split('\n').findIndex((l) => l.startsWith('reps:')) + 1;
    await writeFile(join(project, 'questions/many.yaml'), text.replace(/^reps: .*$/m, 'reps: 2000'));
    const many = await runInProcess(['plan', 'questions/many.yaml'], { cwd: project });
    expect(many).toMatchObject({ code: 1, stdout: '' });
    expect(many.stderr).toBe(
      `questions/many.yaml:${line}:7: $.reps: expected a whole number of reps from 1 to 1000 to plan; give fewer with --reps\n`,
    );
    const option = await runInProcess(['plan', 'questions/places.yaml', '--reps', '1001'], { cwd: project });
    expect(option).toMatchObject({ code: 2, stderr: '--reps 1001: expected a whole number of reps from 1 to 1000\n' });
  });
});
