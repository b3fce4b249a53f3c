import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnkitError } from '../../src/errors.js';
import { buildReport, type Report } from '../../src/report/build-report.js';
import { compareReports } from '../../src/report/compare-runs.js';
import { formatComparison, formatReport, pValue } from '../../src/report/format-report.js';
import { githubAnnotations } from '../../src/report/github-annotations.js';
import { incompleteRun, outcomeError, targetProblems } from '../../src/report/outcome.js';
import type { RunResult } from '../../src/app/run-question.js';
import { manifestSchema } from '../../src/run-dir/manifest.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { inShard, interleave, parseShard, planReps } from '../../src/run-dir/rep-order.js';
import { repId } from '../../src/run-dir/run-state.js';

/** One fixture of a hand-made run: a mark per rep ('' is blank), and optionally per-rep SUT ms and errors. */
interface FixtureSpec {
  name: string;
  marks: string[];
  tag?: 'dev' | 'heldout';
  sha256?: string;
  bases?: { path: string; sha256: string }[];
  sutMs?: number[];
  errors?: Record<number, 'seed' | 'sut'>;
}

interface RunSpec {
  id?: string;
  target: number;
  fixtures: FixtureSpec[];
  status?: 'complete' | 'interrupted';
  rubricVersion?: string;
  /** Reps with no record (`fixture\0rep` ids). */
  notRun?: string[];
  /** The question's `errors:` policy. */
  errors?: 'fail';
}

const fakeSha = (name: string): string => name.padEnd(64, '0').slice(0, 64);
const fixturePath = (name: string): string => `fixtures/${name}.json`;

let root: string;
let count = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-report-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes a run directory (manifest.json checked against manifestSchema, reps/F/rep-NN.json, marks.csv). */
async function makeRun(spec: RunSpec): Promise<string> {
  const dir = join(root, `run-${++count}`);
  const reps = spec.fixtures[0]!.marks.length;
  const manifest = manifestSchema.parse({
    format: 'turnkit.run/1',
    status: spec.status ?? 'complete',
    startedAt: '2025-01-01T00:00:00.000Z',
    turnkit: '0.1.0',
    node: 'v20.0.0',
    question: {
      id: spec.id ?? 'places',
      text: 'Where is the mess hall?',
      file: { path: 'questions/places.yaml', sha256: fakeSha('q') },
      target: spec.target,
      reps,
      ...(spec.errors ? { errors: spec.errors } : {}),
    },
    rubric: { path: 'questions/places-rubric.md', version: spec.rubricVersion ?? '1', sha256: fakeSha('r') },
    caseFileTemplate: { path: 'questions/case-file.md', sha256: fakeSha('c') },
    fixtures: spec.fixtures.map((f) => ({
      name: f.name,
      file: { path: fixturePath(f.name), sha256: f.sha256 ?? fakeSha(f.name) },
      ...(f.tag ? { tag: f.tag } : {}),
      ...(f.bases ? { bases: f.bases } : {}),
    })),
    sut: { type: 'command', command: ['node', 'sut.mjs'] },
    database: { backend: 'embedded', serverVersion: '17', strategy: 'remap' },
    concurrency: 1,
    order: [],
  });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const lines = ['fixture,rep,mark,note'];
  for (const f of spec.fixtures) {
    await mkdir(join(dir, 'reps', f.name), { recursive: true });
    for (let rep = 1; rep <= reps; rep++) {
      lines.push(`${f.name},${rep},${f.marks[rep - 1]},`);
      if (spec.notRun?.includes(repId({ fixture: f.name, rep }))) continue;
      const stage = f.errors?.[rep];
      const record: RepRecord = {
        fixture: f.name,
        rep,
        attempt: 1,
        startedAt: '2025-01-01T00:00:01.000Z',
        request: { campaign: '4', turn: 23, input: { player_input: 'go' }, caseFile: '# case', fixture: f.name, rep },
        response: stage ? null : 'You take the lift to deck 2.',
        error: stage ? { stage, cause: 'exit', message: 'exited with code 1' } : null,
        exit: stage === 'seed' ? null : { code: stage ? 1 : 0, signal: null },
        timings: { seedMs: 5, sutMs: f.sutMs?.[rep - 1] ?? 100, teardownMs: 5, totalMs: 200 },
        scratch: { id: `s-${rep}`, strategy: 'remap' },
        effects: null,
      };
      await writeFile(join(dir, 'reps', f.name, `rep-${String(rep).padStart(2, '0')}.json`), JSON.stringify(record));
    }
  }
  await writeFile(join(dir, 'marks.csv'), `${lines.join('\n')}\n`);
  return dir;
}

const repeat = (mark: string, n: number): string[] => Array.from({ length: n }, () => mark);
const eightOfNine = [...repeat('pass', 4), 'fail', ...repeat('pass', 4)];
const fixture = (report: Report, name: string) => report.fixtures.find((f) => f.fixture === name)!;

describe('buildReport: verdicts and what the target demands', () => {
  it('8 of 9 meets 0.88 (needs 8, tolerates 1) and misses 0.90 (needs 9, tolerates 0)', async () => {
    const met = fixture(
      await buildReport(await makeRun({ target: 0.88, fixtures: [{ name: 'a', marks: eightOfNine }] })),
      'a',
    );
    expect(met).toMatchObject({
      pass: 8,
      fail: 1,
      na: 0,
      error: 0,
      blank: 0,
      verdict: 'met',
      passesNeeded: 8,
      failsTolerated: 1,
      reps: 9,
      notRun: 0,
    });
    expect(met.rate).toBeCloseTo(8 / 9, 12);
    // Wilson 8/9 is [0.5650, 0.9801] (see report-stats.test.ts): it contains 0.88, so more reps would be needed to tell.
    expect(met.uncertain).toBe(true);
    const missed = fixture(
      await buildReport(await makeRun({ target: 0.9, fixtures: [{ name: 'a', marks: eightOfNine }] })),
      'a',
    );
    expect(missed).toMatchObject({ verdict: 'missed', passesNeeded: 9, failsTolerated: 0 });
  });

  it('a fixture whose reps all errored has no verdict (not missed with 0/0), and --check names it', async () => {
    const marks = ['error', 'error', 'na'];
    const report = await buildReport(
      await makeRun({ target: 0.9, fixtures: [{ name: 'a', marks, errors: { 1: 'sut', 2: 'sut' } }] }),
    );
    expect(fixture(report, 'a')).toMatchObject({ pass: 0, fail: 0, error: 2, na: 1, verdict: 'none', rate: null });
    expect(targetProblems(report)).toEqual(['a: no verdict: no rep qualified (1 na, 2 error) for target 0.9']);
  });

  it('a fixture with no verdict is counted apart in the total, the findings and the CI summary', async () => {
    const report = await buildReport(
      await makeRun({
        target: 0.5,
        fixtures: [
          { name: 'ok', marks: ['pass', 'pass', 'pass'] },
          { name: 'broken', marks: ['error', 'error', 'error'], errors: { 1: 'sut', 2: 'sut', 3: 'sut' } },
        ],
      }),
    );
    const lines = formatReport(report, 'text');
    // The total read "1 met, 0 missed" of 2 fixtures: the second was in no count.
    const total = lines
      .find((line) => line.startsWith('total (2 fixtures)'))!
      .trimEnd()
      .split(/\s{2,}/);
    expect(total.at(-1)).toBe('1 met, 0 missed, 1 no verdict');
    expect(lines).toContain('broken: no verdict: no rep qualified for a rate (0 na, 3 error)');
    expect(githubAnnotations(report, new Map()).at(-1)).toBe(
      'places: 1 met, 0 missed, 0 pending, 1 no verdict of 2 fixture(s); target 0.5',
    );
  });

  it("checks that agree with every person's mark correct 10 of 10 to an interval no narrower than the raw one", async () => {
    const dir = await makeRun({
      target: 0.88,
      fixtures: [
        { name: 'all', marks: repeat('pass', 10) },
        { name: 'some', marks: [...repeat('pass', 2), ...repeat('fail', 8)] },
      ],
    });
    // The checks marked every rep as the person did: sensitivity 12/12, specificity 8/8, the demo's calibration.
    await copyFile(join(dir, 'marks.csv'), join(dir, 'marks.checks.csv'));
    const report = await buildReport(dir, { marks: 'marks.checks.csv' });
    const raw = fixture(report, 'all');
    expect([raw.verdict, raw.uncertain, raw.wilson!.low.toFixed(2)]).toEqual(['met', true, '0.72']);
    const corrected = report.trust.correction!.estimates.find((entry) => entry.name === 'all')!;
    // It read 1.00 [1.00, 1.00] met beside the raw [0.72, 1.00] met (uncertain): a correction by a perfect judge
    // added certainty the ten reps do not hold. Now its low end is at or under the raw one, and the verdict agrees.
    expect(corrected.rate).toBe(1);
    expect(corrected.interval!.high).toBe(1);
    expect(corrected.interval!.low).toBeLessThanOrEqual(raw.wilson!.low);
    expect(corrected.verdict).toBe('uncertain');
  });

  it('10 reps at 0.90 with one error and one na: 8 qualify, 8 needed (ceil 7.2), none tolerated', async () => {
    const marks = [...repeat('pass', 7), 'fail', 'error', 'na'];
    const report = await buildReport(
      await makeRun({ target: 0.9, fixtures: [{ name: 'a', marks, errors: { 9: 'sut' } }] }),
    );
    expect(fixture(report, 'a')).toMatchObject({
      pass: 7,
      fail: 1,
      error: 1,
      na: 1,
      passesNeeded: 8,
      failsTolerated: 0,
      verdict: 'missed',
      rate: 7 / 8,
    });
    expect(report.demands).toEqual([
      { lost: 0, n: 10, passesNeeded: 9, failsTolerated: 1 },
      { lost: 1, n: 9, passesNeeded: 9, failsTolerated: 0 },
      { lost: 2, n: 8, passesNeeded: 8, failsTolerated: 0 },
      { lost: 3, n: 7, passesNeeded: 7, failsTolerated: 0 },
    ]);
  });

  it("under errors: fail, --check's line counts an errored rep as its verdict does", async () => {
    const marks = ['pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'pass', 'fail', 'error', 'error'];
    const report = await buildReport(
      await makeRun({
        target: 0.8,
        errors: 'fail',
        fixtures: [{ name: 'f', marks, errors: { 10: 'sut', 11: 'sut' } }],
      }),
    );
    expect(fixture(report, 'f')).toMatchObject({ verdict: 'missed', n: 11 });
    expect(targetProblems(report)).toEqual(['f: missed: 8/11 passed, 9 needed for target 0.8']);
  });

  it('a blank mark keeps a fixture pending, whatever the rest say', async () => {
    const report = await buildReport(
      await makeRun({
        target: 0.5,
        fixtures: [
          { name: 'a', marks: ['pass', 'pass', ''] },
          { name: 'b', marks: ['fail', 'fail', 'fail'] },
        ],
      }),
    );
    expect(fixture(report, 'a')).toMatchObject({ verdict: 'pending', blank: 1, pass: 2, rate: 1 });
    expect(targetProblems(report)).toEqual([
      'a: pending: 1 rep(s) not marked for target 0.5',
      'b: missed: 0/3 passed, 2 needed for target 0.5',
    ]);
  });

  it('targetProblems names missed and pending fixtures, with tags, and not met ones', async () => {
    const report = await buildReport(
      await makeRun({
        target: 0.88,
        fixtures: [
          { name: 'met', tag: 'dev', marks: eightOfNine },
          { name: 'low', tag: 'heldout', marks: [...repeat('pass', 7), 'fail', 'fail'] },
          { name: 'open', marks: [...repeat('pass', 8), ''] },
        ],
      }),
    );
    expect(report.fixtures.map((f) => f.verdict)).toEqual(['met', 'missed', 'pending']);
    expect(targetProblems(report)).toEqual([
      'low (heldout): missed: 7/9 passed, 8 needed for target 0.88',
      'open: pending: 1 rep(s) not marked for target 0.88',
    ]);
  });
});

describe('buildReport: tags, latency, pairs, marks file', () => {
  it('totals dev and heldout separately, each pooling only its own fixtures', async () => {
    const report = await buildReport(
      await makeRun({
        target: 0.5,
        fixtures: [
          { name: 'd1', tag: 'dev', marks: ['pass', 'pass', 'fail', 'na'] },
          { name: 'h1', tag: 'heldout', marks: ['fail', 'fail', 'fail', 'pass'] },
          { name: 'd2', tag: 'dev', marks: ['pass', 'error', 'pass', 'pass'] },
          { name: 'h2', tag: 'heldout', marks: ['fail', 'pass', '', 'fail'] },
        ],
      }),
    );
    expect(report.tags.map((t) => t.tag)).toEqual(['dev', 'heldout']);
    const [dev, heldout] = report.tags;
    expect(dev).toMatchObject({
      fixtures: 2,
      pass: 5,
      fail: 1,
      na: 1,
      error: 1,
      blank: 0,
      met: 2,
      missed: 0,
      pending: 0,
      rate: 5 / 6,
    });
    expect(heldout).toMatchObject({
      fixtures: 2,
      pass: 2,
      fail: 5,
      na: 0,
      error: 0,
      blank: 1,
      met: 0,
      missed: 1,
      pending: 1,
      rate: 2 / 7,
    });
    // No row pools across tags: all 16 reps are accounted for once, by their own tag.
    const total = (t: (typeof report.tags)[number]) => t.pass + t.fail + t.na + t.error + t.blank;
    expect(total(dev!) + total(heldout!)).toBe(16);
  });

  it('latency: lower median and nearest-rank p95 of sutMs; seed errors out, SUT errors in', async () => {
    // 6 reps: 10, 60, 30, 999 (seed error: never reached the SUT), 50, 20 (SUT error: it did).
    const report = await buildReport(
      await makeRun({
        target: 0.5,
        fixtures: [
          {
            name: 'a',
            marks: ['pass', 'pass', 'pass', 'error', 'pass', 'error'],
            sutMs: [10, 60, 30, 999, 50, 20],
            errors: { 4: 'seed', 6: 'sut' },
          },
        ],
      }),
    );
    // Sorted: 10, 20, 30, 50, 60 → lower median 30; p95 rank ceil(0.95 × 5) = 5 → 60.
    expect(fixture(report, 'a').latency).toEqual({ median: 30, p95: 60, reps: 5 });
  });

  it('pairs a constructed fixture with its base when bases[0] is the base file with the same bytes', async () => {
    const base = { name: 'base', marks: [...repeat('fail', 8), 'pass', 'pass'] };
    const pairedRun = await makeRun({
      target: 0.8,
      fixtures: [
        base,
        {
          name: 'fixed',
          marks: [...repeat('pass', 9), 'fail'],
          bases: [{ path: fixturePath('base'), sha256: fakeSha('base') }],
        },
      ],
    });
    const { pairs } = await buildReport(pairedRun);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({ constructed: 'fixed', base: 'base' });
    expect(pairs[0]!.delta).toBeCloseTo(0.9 - 0.2, 12);
    // [[9, 1], [2, 8]]: 23/4199 by the exact-fraction computation described in report-stats.test.ts.
    expect(pairs[0]!.p).toBeCloseTo(0.0054774946, 8);
    const recaptured = await makeRun({
      target: 0.8,
      fixtures: [
        base,
        { name: 'fixed', marks: repeat('pass', 10), bases: [{ path: fixturePath('base'), sha256: fakeSha('other') }] },
      ],
    });
    expect((await buildReport(recaptured)).pairs).toEqual([]);
  });

  it('a pair where one fixture has no qualified reps has delta and p null, and the text report prints "-" for both', async () => {
    const bases = [{ path: fixturePath('base'), sha256: fakeSha('base') }];
    // The base is all na: no pass or fail to compare with.
    const dir = await makeRun({
      target: 0.5,
      fixtures: [
        { name: 'base', marks: repeat('na', 3) },
        { name: 'fixed', marks: ['pass', 'pass', 'fail'], bases },
      ],
    });
    const report = await buildReport(dir);
    expect(fixture(report, 'base').rate).toBeNull();
    expect(report.pairs).toEqual([{ constructed: 'fixed', base: 'base', delta: null, p: null }]);
    const lines = formatReport(report, 'text', undefined, { full: true });
    const at = lines.indexOf('Constructed fixtures against their bases');
    expect(at).toBeGreaterThan(0);
    const header = lines[at + 2]!.trimEnd().split(/\s{2,}/);
    const row = lines[at + 3]!.trimEnd().split(/\s{2,}/);
    expect(header).toEqual(['constructed', 'base', 'rates', 'delta', 'Fisher p']);
    expect(row).toEqual(['fixed', 'base', '0.67 (2/3) vs -', '-', '-']);
    const md = formatReport(report, 'md', undefined, { full: true }).find(
      (line) => line.includes('fixed') && line.includes(' vs '),
    )!;
    expect(
      md
        .split('|')
        .map((cell) => cell.trim())
        .filter((cell) => cell !== '')
        .slice(-2),
    ).toEqual(['-', '-']);
    // The constructed side with no qualified reps is the same.
    const other = await makeRun({
      target: 0.5,
      fixtures: [
        { name: 'base', marks: ['pass', 'fail', 'fail'] },
        { name: 'fixed', marks: ['na', 'error', ''], errors: { 2: 'sut' }, bases },
      ],
    });
    expect((await buildReport(other)).pairs).toEqual([{ constructed: 'fixed', base: 'base', delta: null, p: null }]);
    expect(pValue(null)).toBe('-');
  });

  it('--marks as a bare name reads that file from the run directory', async () => {
    const dir = await makeRun({ target: 0.5, fixtures: [{ name: 'a', marks: ['pass', 'pass'] }] });
    await writeFile(join(dir, 'marks.checks.csv'), 'fixture,rep,mark,note\na,1,fail,\na,2,fail,\n');
    const report = await buildReport(dir, { marks: 'marks.checks.csv', cwd: root });
    expect(report.marksFile).toBe(join(dir, 'marks.checks.csv'));
    expect(fixture(report, 'a')).toMatchObject({ pass: 0, fail: 2, verdict: 'missed' });
  });

  it('an interrupted run with a rep missing is incomplete, and the error says how to resume', async () => {
    const dir = await makeRun({
      target: 0.5,
      status: 'interrupted',
      fixtures: [{ name: 'a', marks: ['pass', ''] }],
      notRun: [repId({ fixture: 'a', rep: 2 })],
    });
    const report = await buildReport(dir);
    expect(report.complete).toBe(false);
    expect(fixture(report, 'a').notRun).toBe(1);
    const error = incompleteRun(report);
    expect(error).toBeInstanceOf(TurnkitError);
    expect(error!.message).toMatch(/interrupted with 1 rep\(s\) not run; finish it with: turnkit run --resume /);
    expect(
      incompleteRun(await buildReport(await makeRun({ target: 0.5, fixtures: [{ name: 'a', marks: ['pass'] }] }))),
    ).toBeUndefined();
  });
});

describe('compareReports', () => {
  it('refuses a run of another question, naming both', async () => {
    const here = await buildReport(
      await makeRun({ id: 'places', target: 0.5, fixtures: [{ name: 'a', marks: ['pass'] }] }),
    );
    const there = await buildReport(
      await makeRun({ id: 'routes', target: 0.5, fixtures: [{ name: 'a', marks: ['pass'] }] }),
    );
    expect(() => compareReports(here, there)).toThrow(TurnkitError);
    expect(() => compareReports(here, there)).toThrow(/"routes".*"places"/);
  });

  it('gives delta and Fisher p per fixture and warns on rubric version and fixture bytes', async () => {
    const here = await buildReport(
      await makeRun({
        target: 0.8,
        fixtures: [
          { name: 'a', marks: [...repeat('pass', 8), 'fail'] },
          { name: 'b', marks: ['pass', 'pass', 'pass', 'fail', 'pass', 'pass', 'pass', 'pass', 'pass'] },
        ],
      }),
    );
    const there = await buildReport(
      await makeRun({
        target: 0.8,
        rubricVersion: '2',
        fixtures: [
          { name: 'a', marks: ['pass', ...repeat('fail', 8)] },
          { name: 'b', sha256: fakeSha('b2'), marks: repeat('pass', 9) },
        ],
      }),
    );
    const comparison = compareReports(here, there);
    expect(comparison.warnings).toHaveLength(2);
    expect(comparison.warnings[0]).toBe('rubric versions differ: 1 here, 2 there; the marks may not mean the same');
    expect(comparison.warnings[1]).toMatch(/^b: the fixture file differs between the runs/);
    const [a, b] = comparison.fixtures;
    expect(a).toMatchObject({
      fixture: 'a',
      here: { pass: 8, fail: 1 },
      there: { pass: 1, fail: 8 },
      fixtureChanged: false,
    });
    expect(a!.delta).toBeCloseTo(7 / 9, 12);
    expect(a!.p).toBeCloseTo(0.0033730975, 8); // 41/12155, exact fractions
    expect(b).toMatchObject({ fixture: 'b', fixtureChanged: true });
    expect(b!.delta).toBeCloseTo(-1 / 9, 12);
    expect(b!.p).toBeCloseTo(1, 12);
  });
});

describe('compareReports: a fixture without pass or fail', () => {
  it('gives delta and p null when either run has no qualified reps of a fixture, and the text prints "-"', async () => {
    const here = await buildReport(
      await makeRun({
        target: 0.5,
        fixtures: [
          { name: 'a', marks: ['pass', 'fail', 'pass'] },
          { name: 'b', marks: ['pass', 'pass', 'pass'] },
        ],
      }),
    );
    const there = await buildReport(
      await makeRun({
        target: 0.5,
        fixtures: [
          { name: 'a', marks: ['na', 'na', ''] },
          { name: 'b', marks: ['pass', 'fail', 'fail'] },
        ],
      }),
    );
    const comparison = compareReports(here, there);
    const [a, b] = comparison.fixtures;
    expect(a).toMatchObject({
      fixture: 'a',
      here: { pass: 2, fail: 1 },
      there: { pass: 0, fail: 0, rate: null },
      delta: null,
      p: null,
    });
    // The other fixture still gets its numbers.
    expect(b!.p).not.toBeNull();
    expect(b!.delta).toBeCloseTo(2 / 3, 12);
    // The other way round too.
    expect(compareReports(there, here).fixtures[0]).toMatchObject({ fixture: 'a', delta: null, p: null });
    const lines = formatComparison(comparison, 'text');
    const row = lines
      .find((line) => line.startsWith('a '))!
      .trimEnd()
      .split(/\s{2,}/);
    expect(row).toEqual(['a', '0.67 (2/3)', '-', '-', '-']);
    const rowB = lines
      .find((line) => line.startsWith('b '))!
      .trimEnd()
      .split(/\s{2,}/);
    expect(rowB.at(-1)).toBe(pValue(b!.p));
    expect(rowB.at(-1)).not.toBe('-');
  });
});

describe('planReps and shards', () => {
  it.each([
    [['a', 'b', 'c'], 5, 2],
    [['a', 'b', 'c'], 5, 4],
    [['a'], 7, 3],
    [['a', 'b'], 10, 10],
    [['a', 'b', 'c', 'd'], 3, 5],
  ])('shards of %j × %i reps in %i slices cover the run once', (fixtures, reps, n) => {
    const all = planReps(fixtures, reps);
    expect(all).toEqual(interleave(fixtures, reps));
    const seen: string[] = [];
    for (let index = 1; index <= n; index++) {
      const slice = planReps(fixtures, reps, { index, count: n });
      for (const key of all)
        expect(inShard(fixtures, { index, count: n }, key)).toBe(
          slice.some((k) => k.fixture === key.fixture && k.rep === key.rep),
        );
      seen.push(...slice.map(repId));
    }
    expect(seen).toHaveLength(all.length);
    expect(new Set(seen)).toEqual(new Set(all.map(repId)));
  });

  it('parseShard reads I/N and refuses what is not 1 <= I <= N', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(() => parseShard('3/2')).toThrow('--shard 3/2: the shard must be between 1 and 2');
    expect(() => parseShard('0/2')).toThrow('--shard 0/2: the shard must be between 1 and 2');
    expect(() => parseShard('a/b')).toThrow('--shard a/b: expected I/N, for example 1/3 (shard 1 of 3)');
    expect(() => parseShard('1/0')).toThrow('--shard 1/0: the number of shards must be at least 1');
    for (const text of ['3/2', '0/2', 'a/b', '1/0'])
      expect(() => parseShard(text)).toThrow(expect.objectContaining({ code: 'USAGE' }));
  });
});

/** Writes a marks file of a run: a mark per rep of each fixture, in order ('' is blank). */
async function writeMarksFile(dir: string, name: string, marks: Record<string, string[]>): Promise<void> {
  const lines = [
    'fixture,rep,mark,note',
    ...Object.entries(marks).flatMap(([f, list]) => list.map((mark, i) => `${f},${i + 1},${mark},`)),
  ];
  await writeFile(join(dir, name), `${lines.join('\n')}\n`);
}

/** The cells of the "Agreement between graders" table rows in the text report (header first). */
function agreementRows(lines: string[]): string[][] {
  const at = lines.indexOf('Agreement between graders');
  expect(at).toBeGreaterThan(0);
  expect(lines[at + 1]).toBe('');
  const rows: string[][] = [];
  for (let i = at + 2; i < lines.length && lines[i] !== ''; i++) rows.push(lines[i]!.trimEnd().split(/\s{2,}/));
  return rows;
}

describe('buildReport: agreement between graders (run-agreements)', () => {
  // The human's marks.csv over 8 reps; a4 is na, so no grader can match it.
  const HUMAN = { a: ['pass', 'pass', 'fail', 'na'], b: ['pass', 'fail', 'fail', 'pass'] };
  const OTHERS: Record<string, Record<string, string[]>> = {
    // Against HUMAN: a1 P/P, a2 P/F, a3 F/F, a4 na (out), b1 P/P, b2 F/F, b3 F/P, b4 P/P.
    // matched 7: pp 3, pf 1, fp 1, ff 2 → agreed 5. passA = 4/7, passB = 4/7, chance = 16/49 + 9/49 = 25/49,
    // observed 35/49 → kappa = (10/49) / (24/49) = 5/12.
    'marks.blind.csv': { a: ['pass', 'fail', 'fail', 'pass'], b: ['pass', 'fail', 'pass', 'pass'] },
    // Against HUMAN: a1 P/P, a2 P/P, a3 F/P, a4 na (out), b1 P/F, b2 F/F, b3 F/F, b4 P/error (out).
    // matched 6: pp 2, pf 1, fp 1, ff 2 → agreed 4. passA = 3/6, passB = 3/6, chance = 1/4 + 1/4 = 1/2,
    // observed 4/6 → kappa = (2/3 - 1/2) / (1/2) = 1/3.
    'marks.judge-x.csv': { a: ['pass', 'pass', 'pass', 'fail'], b: ['fail', 'fail', 'fail', 'error'] },
    // The same as HUMAN on the 7 reps it grades (a4 fail against na: out). matched 7, agreed 7; passA = passB = 4/7,
    // chance 25/49 → kappa = (1 - 25/49) / (1 - 25/49) = 1.
    'marks.checks.csv': { a: ['pass', 'pass', 'fail', 'fail'], b: ['pass', 'fail', 'fail', 'pass'] },
    // Against HUMAN: a1 P/F, a2 P/P, a3 F/F, a4 na (out), b1 P/P, b2 F/P, b3 F/P, b4 P/P.
    // matched 7: pp 3, pf 1, fp 2, ff 1 → agreed 4. passA = 4/7, passB = 5/7, chance = 20/49 + 6/49 = 26/49,
    // observed 28/49 → kappa = (2/49) / (23/49) = 2/23.
    'marks.ann.csv': { a: ['fail', 'pass', 'fail', 'pass'], b: ['pass', 'pass', 'pass', 'pass'] },
    // Against marks.ann.csv (not marks.csv): a1 F/F, a2 P/P, a3 F/P, a4 P/P, b1 P/P, b2 P/P, b3 P/P, b4 P/na (out).
    // matched 7: pp 5, pf 0, fp 1, ff 1 → agreed 6. passA = 5/7, passB = 6/7, chance = 30/49 + 2/49 = 32/49,
    // observed 42/49 → kappa = (10/49) / (17/49) = 10/17.
    'marks.ann.blind.csv': { a: ['fail', 'pass', 'pass', 'pass'], b: ['pass', 'pass', 'pass', 'na'] },
  };

  async function gradedRun(others: Record<string, Record<string, string[]>> = OTHERS): Promise<string> {
    const dir = await makeRun({
      target: 0.5,
      fixtures: [
        { name: 'a', marks: HUMAN.a },
        { name: 'b', marks: HUMAN.b },
      ],
    });
    for (const [name, marks] of Object.entries(others)) await writeMarksFile(dir, name, marks);
    return dir;
  }

  // In the order of the file names; a blind re-mark against the file it re-marks.
  const EXPECTED = [
    { file: 'marks.ann.blind.csv', against: 'marks.ann.csv', self: true, matched: 7, agreed: 6, kappa: 10 / 17 },
    { file: 'marks.ann.csv', against: 'marks.csv', self: false, matched: 7, agreed: 4, kappa: 2 / 23 },
    { file: 'marks.blind.csv', against: 'marks.csv', self: true, matched: 7, agreed: 5, kappa: 5 / 12 },
    { file: 'marks.checks.csv', against: 'marks.csv', self: false, matched: 7, agreed: 7, kappa: 1 },
    { file: 'marks.judge-x.csv', against: 'marks.csv', self: false, matched: 6, agreed: 4, kappa: 1 / 3 },
  ];

  it('lists every marks file against marks.csv, a blind re-mark against its own grader, with hand-computed numbers', async () => {
    const report = await buildReport(await gradedRun());
    expect(report.warnings).toEqual([]);
    expect(report.agreements.map(({ kappa, ...rest }) => rest)).toEqual(EXPECTED.map(({ kappa, ...rest }) => rest));
    for (const [i, entry] of EXPECTED.entries())
      expect(report.agreements[i]!.kappa, entry.file).toBeCloseTo(entry.kappa, 12);
    // Only the blind re-marks are self-agreement.
    expect(report.agreements.filter((entry) => entry.self).map((entry) => entry.file)).toEqual([
      'marks.ann.blind.csv',
      'marks.blind.csv',
    ]);
  });

  it('lists a file with no rep marked pass or fail in common as such (matched 0, kappa null), not dropped', async () => {
    const report = await buildReport(
      await gradedRun({
        ...OTHERS,
        // Every rep na or blank: nothing to match.
        'marks.nothing.csv': { a: ['na', 'na', '', 'na'], b: ['', 'na', 'error', ''] },
        // Pass and fail only where the human has na (a4) or leaves nothing: a4 only, none in common.
        'marks.judge-y.csv': { a: ['', '', '', 'pass'], b: ['', '', '', ''] },
      }),
    );
    await writeFile(join(report.dir, 'marks.header-only.csv'), 'fixture,rep,mark,note\n');
    const again = await buildReport(report.dir);
    const none = (file: string) => ({ file, against: 'marks.csv', self: false, matched: 0, agreed: 0, kappa: null });
    expect(again.warnings).toEqual([]);
    expect(again.agreements.map((entry) => entry.file)).toEqual([
      'marks.ann.blind.csv',
      'marks.ann.csv',
      'marks.blind.csv',
      'marks.checks.csv',
      'marks.header-only.csv',
      'marks.judge-x.csv',
      'marks.judge-y.csv',
      'marks.nothing.csv',
    ]);
    for (const file of ['marks.header-only.csv', 'marks.judge-y.csv', 'marks.nothing.csv'])
      expect(again.agreements.find((entry) => entry.file === file)).toEqual(none(file));
    const rows = agreementRows(formatReport(again, 'text', undefined, { full: true }));
    expect(rows.find((row) => row[0] === 'marks.judge-y.csv')).toEqual([
      'marks.judge-y.csv',
      'marks.csv',
      'no pass/fail in common',
      'null',
    ]);
  });

  it('leaves every file out while marks.csv has no pass or fail: nothing to agree with yet', async () => {
    const dir = await gradedRun();
    await writeMarksFile(dir, 'marks.csv', { a: ['', 'na', '', ''], b: ['', '', '', ''] });
    const report = await buildReport(dir);
    // Only the blind re-mark of ann (against ann's own marks) is left.
    expect(report.agreements.map((entry) => entry.file)).toEqual(['marks.ann.blind.csv']);
    expect(report.warnings).toEqual([]);
  });

  it('leaves out a marks file that does not read, with a warning naming it, and still builds the report', async () => {
    const dir = await gradedRun();
    await writeFile(join(dir, 'marks.bad.csv'), 'fixture,rep,mark,note\na,1,maybe,\na,2,pass,\n');
    const report = await buildReport(dir);
    expect(report.agreements.map((entry) => entry.file)).toEqual(EXPECTED.map((entry) => entry.file));
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]).toMatch(
      /^marks\.bad\.csv is left out of the agreements: .*marks\.bad\.csv:2: unknown mark "maybe" for a rep 1/,
    );
    // The report's own numbers come from marks.csv as ever.
    expect(fixture(report, 'b')).toMatchObject({ pass: 2, fail: 2 });
    const text = formatReport(report, 'text', undefined, { full: true });
    expect(text).toContain(`warning: ${report.warnings[0]}`);
    expect(formatReport(report, 'md', undefined, { full: true })).toContain(`warning: ${report.warnings[0]}`);
  });

  it("a grader's file that does not read leaves out its blind re-mark too, with one warning naming the file", async () => {
    const dir = await gradedRun();
    await writeFile(join(dir, 'marks.ann.csv'), 'fixture,rep,mark,note\na,1,maybe,\n');
    const report = await buildReport(dir);
    expect(report.agreements.map((entry) => entry.file)).toEqual([
      'marks.blind.csv',
      'marks.checks.csv',
      'marks.judge-x.csv',
    ]);
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]).toMatch(/^marks\.ann\.csv is left out of the agreements: .*unknown mark "maybe"/);
  });

  it('without marks.csv nothing is measured against it; a blind re-mark of another grader still is', async () => {
    const dir = await gradedRun();
    await rm(join(dir, 'marks.csv'));
    const report = await buildReport(dir, { marks: 'marks.checks.csv' });
    expect(report.agreements.map(({ kappa, ...rest }) => rest)).toEqual([
      { file: 'marks.ann.blind.csv', against: 'marks.ann.csv', self: true, matched: 7, agreed: 6 },
    ]);
    expect(report.agreements[0]!.kappa).toBeCloseTo(10 / 17, 12);
    expect(report.warnings).toEqual([]);
    // With no blind re-mark of another grader either, there is no agreement at all, and no section.
    await rm(join(dir, 'marks.ann.blind.csv'));
    const none = await buildReport(dir, { marks: 'marks.checks.csv' });
    expect(none.agreements).toEqual([]);
    expect(none.warnings).toEqual([]);
    expect(formatReport(none, 'text', undefined, { full: true })).not.toContain('Agreement between graders');
    expect(formatReport(none, 'md', undefined, { full: true })).not.toContain('## Agreement between graders');
  });

  it('text and Markdown show the section, "self-agreement: the ceiling for any judge" on the blind rows only', async () => {
    const report = await buildReport(await gradedRun());
    const rows = agreementRows(formatReport(report, 'text', undefined, { full: true }));
    expect(rows).toEqual([
      ['marks file', 'against', 'agreement', 'kappa'],
      // 6/7 = 0.857, 10/17 = 0.588
      ['marks.ann.blind.csv', 'marks.ann.csv', '6/7 = 0.857', '0.588', 'self-agreement: the ceiling for any judge'],
      // 4/7 = 0.571, 2/23 = 0.087
      ['marks.ann.csv', 'marks.csv', '4/7 = 0.571', '0.087'],
      // 5/7 = 0.714, 5/12 = 0.417
      ['marks.blind.csv', 'marks.csv', '5/7 = 0.714', '0.417', 'self-agreement: the ceiling for any judge'],
      ['marks.checks.csv', 'marks.csv', '7/7 = 1.000', '1.000'],
      // 4/6 = 0.667, 1/3 = 0.333
      ['marks.judge-x.csv', 'marks.csv', '4/6 = 0.667', '0.333'],
    ]);
    const md = formatReport(report, 'md', undefined, { full: true });
    const at = md.indexOf('## Agreement between graders');
    expect(at).toBeGreaterThan(0);
    const cells = (line: string): string[] => line.replace(/^\| | \|$/g, '').split(' | ');
    expect(md.slice(at + 2, at + 4)).toEqual([
      '| marks file | against | agreement | kappa |  |',
      '| --- | --- | ---: | ---: | --- |',
    ]);
    expect(md.slice(at + 4, at + 9).map(cells)).toEqual([
      ['marks.ann.blind.csv', 'marks.ann.csv', '6/7 = 0.857', '0.588', 'self-agreement: the ceiling for any judge'],
      ['marks.ann.csv', 'marks.csv', '4/7 = 0.571', '0.087', ''],
      ['marks.blind.csv', 'marks.csv', '5/7 = 0.714', '0.417', 'self-agreement: the ceiling for any judge'],
      ['marks.checks.csv', 'marks.csv', '7/7 = 1.000', '1.000', ''],
      ['marks.judge-x.csv', 'marks.csv', '4/6 = 0.667', '0.333', ''],
    ]);
    // The table ends the report (no warnings, no comparison).
    expect(md).toHaveLength(at + 9);
    expect(md.filter((line) => line.includes('self-agreement: the ceiling for any judge'))).toHaveLength(2);
    expect(
      formatReport(report, 'text', undefined, { full: true }).filter((line) =>
        line.includes('self-agreement: the ceiling for any judge'),
      ),
    ).toHaveLength(2);
  });
});

describe('outcomeError: one policy for every caller', () => {
  const result = (over: Partial<RunResult>): RunResult => ({
    dir: '/tmp/runs/q/1',
    status: 'complete',
    total: 4,
    ran: 4,
    errors: 0,
    pending: 0,
    failures: [],
    seedErrors: { count: 0 },
    warnings: [],
    ...over,
  });

  it('gives a failed run, an incomplete report, a missed target and a judge failure codes of their own', async () => {
    expect(outcomeError({ run: result({}) })).toBeUndefined();
    const codes = [
      outcomeError({ run: result({ failures: ['reps/a/rep-01.json: cannot write (ENOSPC)'] }) }),
      outcomeError({ run: result({ pending: 2, status: 'interrupted' }) }),
      outcomeError({ run: result({ seedErrors: { count: 1, first: 'a rep 1: no table' } }) }),
      outcomeError({ run: result({ errors: 4, firstError: 'a rep 1: sut: exit' }) }),
      outcomeError({ judge: { judgeErrors: 2, file: '/tmp/runs/q/1/marks.judge-m.csv' } }),
    ].map((error) => error?.code);
    expect(codes).toEqual(['INCOMPLETE_RUN', 'INCOMPLETE_RUN', 'SEED_FAILED', 'SUT_FAILED', 'JUDGE_FAILED']);
    expect(outcomeError({ judge: { judgeErrors: 0, file: 'x' } })).toBeUndefined();

    const missed = await buildReport(
      await makeRun({ target: 0.9, fixtures: [{ name: 'a', marks: ['pass', 'fail'] }] }),
    );
    expect(outcomeError({ report: missed })).toBeUndefined();
    const error = outcomeError({ report: missed, check: true });
    expect(error?.code).toBe('TARGET_MISSED');
    expect(error?.problems).toEqual(['--check: 1 of 1 fixture(s) did not meet the target', ...targetProblems(missed)]);
    const interrupted = await buildReport(
      await makeRun({
        target: 0.5,
        status: 'interrupted',
        fixtures: [{ name: 'a', marks: ['pass', ''] }],
        notRun: [repId({ fixture: 'a', rep: 2 })],
      }),
    );
    expect(outcomeError({ report: interrupted, check: true })?.code).toBe('INCOMPLETE_RUN');
  });
});
