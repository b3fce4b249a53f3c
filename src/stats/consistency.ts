import type { FixtureReport } from '../report/build-report.js';

/**
 * pass^k for k = 1..reps: the chance that k reps drawn without replacement from a fixture's qualified reps (pass
 * and fail) all pass, C(pass, k) / C(pass + fail, k). Null where k exceeds the qualified reps: undefined, not 0.
 * A game master right 90% of the time is wrong every tenth turn; pass^k says how often a run of k turns holds.
 */
export function passPowers(pass: number, fail: number, reps: number): (number | null)[] {
  const qualified = pass + fail;
  const powers: (number | null)[] = [];
  let chance = 1;
  for (let k = 1; k <= reps; k++) {
    if (k > qualified) {
      powers.push(null);
      continue;
    }
    // C(pass, k) / C(qualified, k) as a running product: (pass - i) / (qualified - i) for i < k.
    chance *= Math.max(0, pass - (k - 1)) / (qualified - (k - 1));
    powers.push(chance);
  }
  return powers;
}

/** Per tag: how many fixtures had every qualified rep pass, of those with any qualified rep. */
export interface TagConsistency {
  /** Fixtures whose qualified reps all passed (at least one qualified). */
  allPassed: number;
  /** Fixtures with at least one qualified rep. */
  of: number;
  /** allPassed / of; null when no fixture had a qualified rep. */
  share: number | null;
}

/** The consistency of a tag's fixtures: the share whose every qualified rep passed. */
export function tagConsistency(fixtures: readonly Pick<FixtureReport, 'pass' | 'fail'>[]): TagConsistency {
  const judged = fixtures.filter((fixture) => fixture.pass + fixture.fail > 0);
  const allPassed = judged.filter((fixture) => fixture.fail === 0).length;
  return { allPassed, of: judged.length, share: judged.length > 0 ? allPassed / judged.length : null };
}

/** The k shown in a report's table: 1, 2, 3, 5, 10 and every tenfold up to the reps, and the reps themselves. */
export function shownPowers(reps: number): number[] {
  const ks = new Set<number>([1, 2, 3, 5]);
  for (let k = 10; k < reps; k *= 10) ks.add(k);
  ks.add(reps);
  return [...ks].filter((k) => k <= reps).sort((a, b) => a - b);
}

/** The rows of the report's consistency table (fixture, then pass^k for the shown k) and a line per tag. */
export function consistencyLines(
  report: {
    reps: number;
    fixtures: readonly FixtureReport[];
    tags: readonly { tag: string; consistency: TagConsistency }[];
  },
  table: (rows: readonly (readonly string[])[], align: readonly ('left' | 'right')[]) => string[],
): string[] {
  if (report.fixtures.length === 0) return [];
  const ks = shownPowers(Math.max(...report.fixtures.map((fixture) => fixture.passK.length)));
  const cell = (value: number | null | undefined): string =>
    value === null || value === undefined ? 'n/a' : value.toFixed(3);
  const rows = [
    ['fixture', ...ks.map((k) => `pass^${k}`)],
    ...report.fixtures.map((fixture) => [fixture.fixture, ...ks.map((k) => cell(fixture.passK[k - 1]))]),
  ];
  const lines = table(rows, ['left', ...ks.map(() => 'right' as const)]);
  lines.push('');
  for (const { tag, consistency } of report.tags)
    lines.push(
      `${tag}: ${consistency.allPassed} of ${consistency.of} fixture(s) with qualified reps passed every one${consistency.share === null ? '' : ` (${consistency.share.toFixed(2)})`}`,
    );
  lines.push(
    '',
    'pass^k: the chance that k reps drawn from the qualified ones all pass; n/a where k > pass + fail (too few reps).',
  );
  return lines;
}
