import type { CalibrationCounts } from './calibration.js';
import { mulberry32 } from '../util/seeded-random.js';
import { betaDraw } from './random-draws.js';
import type { Interval } from './stats.js';

/** The verdict a corrected interval gives against the target. */
export type CorrectedVerdict = 'met' | 'missed' | 'uncertain';

/** Draws per interval: the 2.5th and 97.5th percentiles settle to about 0.01, in a few milliseconds. */
const BOOTSTRAP_DRAWS = 2000;

/**
 * The Rogan-Gladen estimator (Rogan and Gladen 1978): the true pass rate from a judge's apparent rate q and its
 * sensitivity and specificity, (q + Sp - 1) / (Se + Sp - 1), clipped to [0, 1]. Null when Se + Sp = 1 (at chance).
 */
export function roganGladen(apparent: number, sensitivity: number, specificity: number): number | null {
  const youden = sensitivity + specificity - 1;
  if (Math.abs(youden) < 1e-12) return null;
  return Math.min(1, Math.max(0, (apparent + specificity - 1) / youden));
}

/**
 * A 95% interval for the Rogan-Gladen rate over the three binomials it rests on (after Lang and Reiczigel 2014): each
 * seeded draw takes sensitivity and specificity from their Jeffreys posteriors, Beta(k + 1/2, m - k + 1/2), and the
 * judge's rate from the Beta distributions of the exact (Clopper-Pearson) bounds, Beta(x, n - x + 1) for the low end
 * and Beta(x + 1, n - x) for the high end; the interval is the 2.5th and 97.5th percentiles of their corrected rates
 * (draws at chance left out). With a perfect judge it is the exact interval of x of n, so it never claims more than
 * the judge's own passes allow (a bootstrap at the observed rate gave 10 of 10 the interval [1.00, 1.00]).
 */
export function roganGladenInterval(
  judgePass: number,
  n: number,
  counts: CalibrationCounts,
  seed: number,
  draws = BOOTSTRAP_DRAWS,
): Interval | null {
  const positives = counts.truePass + counts.falseFail;
  const negatives = counts.trueFail + counts.falsePass;
  if (n === 0 || positives === 0 || negatives === 0) return null;
  // The draws are the same on every machine and every run: a report read twice is byte-identical.
  const random = mulberry32(seed);
  const lows: number[] = [];
  const highs: number[] = [];
  for (let i = 0; i < draws; i++) {
    const se = betaDraw(counts.truePass + 0.5, counts.falseFail + 0.5, random);
    const sp = betaDraw(counts.trueFail + 0.5, counts.falsePass + 0.5, random);
    // Beta(0, n + 1) and Beta(n + 1, 0) are point masses at 0 and 1: the exact bounds at 0 and n passes.
    const qLow = judgePass === 0 ? 0 : betaDraw(judgePass, n - judgePass + 1, random);
    const qHigh = judgePass === n ? 1 : betaDraw(judgePass + 1, n - judgePass, random);
    const low = roganGladen(qLow, se, sp);
    const high = roganGladen(qHigh, se, sp);
    if (low !== null) lows.push(low);
    if (high !== null) highs.push(high);
  }
  if (lows.length === 0 || highs.length === 0) return null;
  lows.sort((a, b) => a - b);
  highs.sort((a, b) => a - b);
  return { low: percentile(lows, 0.025), high: percentile(highs, 0.975) };
}

/** The verdict from an interval: met when it lies at or above the target, missed when below, else uncertain. */
export function intervalVerdict(interval: Interval, target: number): CorrectedVerdict {
  if (interval.low >= target) return 'met';
  if (interval.high < target) return 'missed';
  return 'uncertain';
}

/** The q-th quantile of sorted values by linear interpolation between order statistics (R's type 7). */
function percentile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}
