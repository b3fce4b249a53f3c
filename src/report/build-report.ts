import { rolloutReport, type RolloutReport } from './rollout-report.js';
import type { PlayerIdentity } from '../rollout/player-identity.js';
import { isAbsolute, join, resolve } from 'node:path';
import type { Manifest } from '../run-dir/manifest.js';
import { planReps } from '../run-dir/rep-order.js';
import { repId, type RunState } from '../run-dir/run-state.js';
import type { ReadMark } from '../run-dir/marks/read-marks.js';
import { readRun, type Run } from '../run-dir/read-run.js';
import { runAgreements, type RunAgreement } from './run-agreements.js';
import { passPowers, tagConsistency, type TagConsistency } from '../stats/consistency.js';
import { countSources, readCombinedMarks } from './combined-marks.js';
import { trustReport, type TrustReport } from './trust-report.js';
import { errorsPolicyOf, ratesOf, screenReport, type ErrorsPolicy, type ScreenReport } from './screen-report.js';
import { readJudgeSpends, repsSpend, totalSpend, type RunSpend, type SpendSplit } from './report-spend.js';
import {
  fisherExact,
  lowerMedian,
  nearestRank,
  passesNeeded,
  targetDemand,
  wilsonInterval,
  type Interval,
} from '../stats/stats.js';

/**
 * A fixture's verdict: pending while any rep is unmarked, else met or missed; `none` when every rep is marked and
 * none qualifies for a rate (all errored, or all n/a): there is nothing to compare with the target.
 */
type Verdict = 'met' | 'missed' | 'pending' | 'none';

/** Counts of marks, and the rate they give. */
export interface MarkCounts {
  pass: number;
  fail: number;
  na: number;
  error: number;
  /** Not marked yet (including reps not run). */
  blank: number;
  /** pass / (pass + fail), or pass / (pass + fail + error) under `errors: fail`; null when nothing qualified. */
  rate: number | null;
  /** Wilson 95% interval of the rate; null when nothing qualified. */
  wilson: Interval | null;
  /** The rate's denominator under the run's policy: pass + fail, plus error under `errors: fail`. */
  n?: number;
  /** Both readings whatever the run's policy: errors left out of the rate, and errors counted as fails. */
  rates?: { exclude: number | null; fail: number | null };
}

/** One fixture's line of the report. */
export interface FixtureReport extends MarkCounts {
  fixture: string;
  /** sha256 of the fixture file the run used (comparisons warn when it differs). */
  sha256: string;
  tag: 'dev' | 'heldout' | null;
  reps: number;
  /** Reps with no record at all (an interrupted run). */
  notRun: number;
  verdict: Verdict;
  /** The Wilson interval contains the target: more reps would be needed to tell. */
  uncertain: boolean;
  /** For the reps that can still qualify (pass, fail and blank): passes needed and fails tolerated. */
  passesNeeded: number;
  failsTolerated: number;
  /** Milliseconds the SUT took, over every rep that called it (errors included). */
  latency: { median: number | null; p95: number | null; reps: number };
  /** Tokens and cost of the fixture's reps: the SUT's calls and the judges' apart. */
  spend: SpendSplit;
  /** pass^k for k = 1..reps (index k - 1): all of k reps drawn without replacement pass; null when k > pass + fail. */
  passK: (number | null)[];
}

/** Totals of one tag's fixtures, pooled (never pooled across tags). */
export interface TagTotals extends MarkCounts {
  tag: 'dev' | 'heldout' | 'untagged';
  fixtures: number;
  met: number;
  missed: number;
  pending: number;
  /** The share of the tag's fixtures whose every qualified rep passed. */
  consistency: TagConsistency;
}

/** A constructed fixture beside its base in the same run: the controlled experiment's result. */
export interface BasePair {
  constructed: string;
  base: string;
  /** rate(constructed) - rate(base); null unless both have qualified reps. */
  delta: number | null;
  /** Two-sided Fisher exact p of the two fixtures' pass/fail counts; null unless both have qualified reps. */
  p: number | null;
}

/**
 * A run read for its numbers: per fixture the rate pass / (pass + fail) (na, error and blank counted, never in it),
 * the verdict (pending while a rep is unmarked, else met when rate >= target, else missed) and the Wilson interval.
 */
export interface Report {
  dir: string;
  question: { id: string; text: string };
  status: Manifest['status'];
  /** How errored reps count in every rate: left out (`exclude`, the default) or as failed tasks (`fail`). */
  errors?: ErrorsPolicy;
  /** Every rep has a record (completed or errored). */
  complete: boolean;
  marksFile: string;
  rubricVersion: string;
  target: number;
  reps: number;
  shard: { index: number; count: number } | null;
  fixtures: FixtureReport[];
  tags: TagTotals[];
  /** What the target demands of the question's reps as reps are lost to na or error. */
  demands: { lost: number; n: number; passesNeeded: number; failsTolerated: number }[];
  pairs: BasePair[];
  /** The run's other marks files against the human's (a blind re-mark: the human against themself). */
  agreements: RunAgreement[];
  /** Tokens and cost of the run: the SUT's calls, the judges', and both. */
  spend: RunSpend;
  warnings: string[];
  /** With `--marks a,b`: the files in order of precedence and, per fixture, how many marks came from each. */
  marksSources?: { files: string[]; fixtures: { fixture: string; sources: { file: string; marks: number }[] }[] };
  /** A rollout run (`turns: K`): survival per fixture and per turn; absent for one-turn runs. */
  rollout?: RolloutReport;
  /** Each screen of the checks with its own denominator, per fixture and per tag, once `judge --checks` has run. */
  screens?: ScreenReport;
  /** Question-level statistics, the ceiling verdicts and a judge's corrected rates (docs/guides/can-i-trust-this-number.md). */
  trust: TrustReport;
}

/** Options of `buildReport`. */
export interface ReportOptions {
  /** A marks file (default: the run's marks.csv); a bare file name is looked up in the run directory. */
  marks?: string | undefined;
  /** The folder a marks path with a folder in it is relative to (default: none, so a relative path is as Node takes it). */
  cwd?: string | undefined;
  /** The run when the caller has opened it already (the HTML report reads every rep record once). */
  run?: Run | undefined;
  /** A calibration file to correct a judge's rates with (else the run's own marks.csv, where it overlaps). */
  calibration?: string | undefined;
}

/** Reads a run directory and its marks and computes every number the report shows. */
export async function buildReport(dir: string, options: ReportOptions = {}): Promise<Report> {
  const run = options.run ?? (await readRun(dir));
  const state = await run.reps();
  const { manifest } = run;
  // `--marks a,b`: several files by precedence; the first names the report's marks file.
  const marksFiles = (options.marks ?? 'marks.csv')
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => marksPath(dir, { ...options, marks: part.trim() }));
  const marksFile = marksFiles[0] ?? marksPath(dir, options);
  const names = manifest.fixtures.map((fixture) => fixture.name);
  const shard = manifest.shard;
  const combined = marksFiles.length > 1 ? await readCombinedMarks(run, marksFiles) : undefined;
  const marks = combined?.marks ?? (await run.marks(marksFile));
  const keys = planReps(names, manifest.question.reps, shard);
  const target = manifest.question.target;
  const errors = errorsPolicyOf(manifest);
  const judgeSpends = await readJudgeSpends(run);
  const idsOf = (fixture: string): string[] => keys.filter((key) => key.fixture === fixture).map(repId);
  // A shard may hold no rep of a fixture (fewer reps than shards): it has nothing to say about it.
  const fixtures = manifest.fixtures.flatMap((entry) => {
    const ids = idsOf(entry.name);
    return ids.length === 0
      ? []
      : [
          {
            ...fixtureReport(entry.name, entry.file.sha256, entry.tag ?? null, ids, marks, state, target, errors),
            spend: repsSpend(ids, state, judgeSpends),
          },
        ];
  });
  const missing = keys.filter((key) => !state.records.has(repId(key))).length;
  const { agreements, warnings } = await runAgreements(run);
  const pairs = basePairs(manifest, fixtures);
  const rollout = rolloutReport(
    state,
    keys,
    names,
    pairs,
    marks,
    (manifest.rollout?.player as PlayerIdentity | undefined) ?? {
      type: (manifest.rollout?.players ?? 'recorded') as PlayerIdentity['type'],
    },
  );
  const screens = await screenReport(run, state, keys);
  const trust = await trustReport({
    run,
    target,
    keys,
    fixtures,
    pairs,
    agreements,
    marksFile,
    marks,
    calibrationFile: options.calibration,
  });
  return {
    dir,
    question: { id: manifest.question.id, text: manifest.question.text },
    status: manifest.status,
    errors,
    complete: missing === 0 && manifest.status === 'complete',
    marksFile,
    rubricVersion: manifest.rubric.version,
    target,
    reps: manifest.question.reps,
    shard: shard ?? null,
    fixtures,
    tags: tagTotals(fixtures, errors),
    demands: [0, 1, 2, 3]
      .filter((lost) => lost < manifest.question.reps)
      .map((lost) => ({ lost, ...targetDemand(target, manifest.question.reps - lost) })),
    pairs,
    agreements,
    spend: totalSpend(fixtures),
    warnings,
    ...(rollout ? { rollout } : {}),
    ...(screens ? { screens } : {}),
    ...(combined
      ? {
          marksSources: {
            files: marksFiles,
            fixtures: fixtures.map((fixture) => ({
              fixture: fixture.fixture,
              sources: countSources(idsOf(fixture.fixture), combined.sourceOf, marksFiles),
            })),
          },
        }
      : {}),
    trust,
  };
}

function marksPath(dir: string, options: ReportOptions): string {
  if (options.marks === undefined) return join(dir, 'marks.csv');
  if (isAbsolute(options.marks)) return options.marks;
  // `--marks marks.checks.csv` means the run's own file; a path with a folder is taken as given.
  return /[\\/]/.test(options.marks) ? resolve(options.cwd ?? '', options.marks) : join(dir, options.marks);
}

/** Counts marks and derives the rate and its interval; under `errors: fail` an error is a failed task. */
function countMarks(marks: readonly (ReadMark | undefined)[], errors: ErrorsPolicy): MarkCounts & { n: number } {
  const counts = { pass: 0, fail: 0, na: 0, error: 0, blank: 0 };
  for (const mark of marks) counts[mark?.mark || 'blank']++;
  return withRate(counts, errors);
}

/** The rate of counts under a policy, its Wilson interval, and both readings. */
function withRate(
  counts: Pick<MarkCounts, 'pass' | 'fail' | 'na' | 'error' | 'blank'>,
  errors: ErrorsPolicy,
): MarkCounts & { n: number } {
  const { n, rate, rates } = ratesOf(counts, errors);
  return { ...counts, rate, wilson: wilsonInterval(counts.pass, n) ?? null, n, rates };
}

function fixtureReport(
  fixture: string,
  sha256: string,
  tag: FixtureReport['tag'],
  ids: string[],
  marks: Map<string, ReadMark>,
  state: RunState,
  target: number,
  errors: ErrorsPolicy,
): Omit<FixtureReport, 'spend'> {
  const counts = countMarks(
    ids.map((id) => marks.get(id)),
    errors,
  );
  const { n } = counts;
  const open = n + counts.blank;
  const needed = passesNeeded(target, open);
  // Met when the passes reach ceil(target * n): the same exact arithmetic as "passes needed", so the two never disagree.
  const verdict: Verdict =
    counts.blank > 0 ? 'pending' : n === 0 ? 'none' : counts.pass >= passesNeeded(target, n) ? 'met' : 'missed';
  // A rep whose seed failed never reached the SUT: it has no latency to count.
  const latencies = ids.flatMap((id) => {
    const record = state.records.get(id);
    return record && record.error?.stage !== 'seed' ? [record.timings.sutMs] : [];
  });
  return {
    fixture,
    sha256,
    tag,
    reps: ids.length,
    notRun: ids.filter((id) => !state.records.has(id)).length,
    ...counts,
    verdict,
    uncertain: counts.wilson !== null && counts.wilson.low <= target && target <= counts.wilson.high,
    passesNeeded: needed,
    failsTolerated: Math.max(0, open - needed),
    passK: passPowers(counts.pass, counts.fail, ids.length),
    latency: {
      median: lowerMedian(latencies) ?? null,
      p95: nearestRank(latencies, 0.95) ?? null,
      reps: latencies.length,
    },
  };
}

/** Pooled counts per tag, in the order dev, heldout, untagged; a tag with no fixtures is left out. */
function tagTotals(fixtures: readonly Omit<FixtureReport, 'spend'>[], errors: ErrorsPolicy = 'exclude'): TagTotals[] {
  const order: TagTotals['tag'][] = ['dev', 'heldout', 'untagged'];
  return order.flatMap((tag) => {
    const members = fixtures.filter((fixture) => (fixture.tag ?? 'untagged') === tag);
    if (members.length === 0) return [];
    const sum = (field: 'pass' | 'fail' | 'na' | 'error' | 'blank'): number =>
      members.reduce((total, fixture) => total + fixture[field], 0);
    return [
      {
        tag,
        fixtures: members.length,
        met: members.filter((fixture) => fixture.verdict === 'met').length,
        missed: members.filter((fixture) => fixture.verdict === 'missed').length,
        pending: members.filter((fixture) => fixture.verdict === 'pending').length,
        consistency: tagConsistency(members),
        ...withRate(
          { pass: sum('pass'), fail: sum('fail'), na: sum('na'), error: sum('error'), blank: sum('blank') },
          errors,
        ),
      },
    ];
  });
}

function basePairs(manifest: Manifest, fixtures: readonly FixtureReport[]): BasePair[] {
  const byName = new Map(fixtures.map((fixture) => [fixture.fixture, fixture]));
  return manifest.fixtures.flatMap((entry) => {
    const recordedBase = entry.bases?.[0];
    // The same file and the same bytes: a base recaptured since is another fixture, not this one's base.
    const baseEntry = recordedBase
      ? manifest.fixtures.find(
          (other) => other.file.path === recordedBase.path && other.file.sha256 === recordedBase.sha256,
        )
      : undefined;
    const constructed = byName.get(entry.name);
    const base = baseEntry && byName.get(baseEntry.name);
    if (!constructed || !base) return [];
    return [{ constructed: constructed.fixture, base: base.fixture, ...rateDifference(constructed, base) }];
  });
}

/** rate(a) - rate(b) and the two-sided Fisher exact p of their pass/fail counts; null unless both have a rate. */
export function rateDifference(
  a: Pick<MarkCounts, 'pass' | 'fail' | 'rate'>,
  b: Pick<MarkCounts, 'pass' | 'fail' | 'rate'>,
): { delta: number | null; p: number | null } {
  if (a.rate === null || b.rate === null) return { delta: null, p: null };
  return { delta: a.rate - b.rate, p: fisherExact(a.pass, a.fail, b.pass, b.fail) };
}
