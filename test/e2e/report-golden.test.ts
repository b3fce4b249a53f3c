import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli-in-process.js';
import { makeReportRun } from '../helpers/report-run.js';

// The report command's output, byte for byte, on a fixed run (every part of the report: constructed pairs, a
// held-out fixture, every kind of mark, the checks' marks and a blind re-mark). Its start-up was made lean (only what
// the report reads is loaded, a manifest read without the SUT kinds' schemas): these files say that what it prints
// did not move. A deliberate change of the report's output updates them with `npx vitest run -u THIS_FILE`.
describe('report: output unchanged on a fixed run', () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'turnkit-report-golden-'));
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const cases: [string, string[]][] = [
    ['text', []],
    ['text-full', ['--full']],
    ['md', ['--md', '--full']],
    ['json', ['--json']],
    ['github', ['--format', 'github']],
    ['checks-then-human', ['--marks', 'marks.checks.csv,marks.csv']],
  ];
  it.each(cases)('report run %s', async (name, args) => {
    // A run of its own per case: each report is a look at the held-out set, counted in the run's ledger.
    const cwd = join(folder, name);
    await makeReportRun(join(cwd, 'run'));
    // The step summary is the environment's: none here, whatever the machine running the suite has.
    const result = await runInProcess(['report', 'run', ...args], { cwd, env: { GITHUB_STEP_SUMMARY: '' } });
    expect(result.code, result.stderr).toBe(0);
    // What differs between two runs of this file: the temporary folder (JSON names the run by its absolute path) and
    // when the ledger froze the held-out set (at this first look).
    const printed = `${result.stdout}--- stderr\n${result.stderr}`
      .split(cwd)
      .join('<folder>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<frozen-at>');
    await expect(printed).toMatchFileSnapshot(`golden/report-${name}.txt`);
  });
});
