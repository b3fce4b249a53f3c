import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build-report.js';
import { formatReport } from '../../src/report/format-report.js';
import { buildRunView } from '../../src/view/build-run-view.js';
import { makeReportRun } from '../helpers/report-run.js';

let root: string;
let run: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-combined-'));
  run = await makeReportRun(join(root, 'run'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('--marks a,b', () => {
  it("takes the person's mark where there is one and the checks' elsewhere, counting each source", async () => {
    const report = await buildReport(run, { marks: 'marks.csv,marks.checks.csv' });
    // far: the person marked reps 1-4 (P, F, P, P) and left 5 and 6 blank; the checks pass both.
    const far = report.fixtures.find((fixture) => fixture.fixture === 'far')!;
    expect([far.pass, far.fail, far.blank]).toEqual([5, 1, 0]);
    expect(far.verdict).toBe('missed');
    const sources = new Map(report.marksSources!.fixtures.map((entry) => [entry.fixture, entry.sources]));
    expect(sources.get('far')).toEqual([
      { file: 'marks.csv', marks: 4 },
      { file: 'marks.checks.csv', marks: 2 },
    ]);
    // base and base-fixed: every rep marked by the person (error and na are marks too).
    expect(sources.get('base')).toEqual([{ file: 'marks.csv', marks: 6 }]);
    const text = formatReport(report, 'text', undefined, { full: true });
    const at = text.indexOf('Marks by source');
    expect(text.slice(at + 2, at + 3)[0]).toMatch(/^fixture\s+marks\.csv\s+marks\.checks\.csv$/);
    expect(text.find((line) => line.startsWith('total (heldout)'))).toMatch(/^total \(heldout\)\s+4\s+2$/);
    expect(text.join('\n')).toContain('marks from marks.csv, marks.checks.csv');
    const view = await buildRunView({ cwd: process.cwd(), dir: run, marks: 'marks.csv,marks.checks.csv' });
    expect(view.report.marksSources!.fixtures).toHaveLength(3);
  });

  it('reads one file as before, with no sources key', async () => {
    expect((await buildReport(run)).marksSources).toBeUndefined();
  });
});
