import type { CalibrationCounts } from './calibration.js';
import { mulberry32 } from '../util/seeded-random.js';
import { betaDraw } from './seeded-random.js';
import type { Interval } from './stats.js';

/** The verdict a corrected interval gives against the target. */
export type CorrectedVerdict = 'met' | 'missed' | 'uncertain';

/** Draws of the parametric bootstrap: enough for the 2.5th and 97.5th percentiles to settle to two decimals. */
export const BOOTSTRAP_DRAWS = 2000;

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
 * A 95% interval for the Rogan-Gladen rate over the three binomials it rests on (after Lang and Reiczigel 2014): the
 * judge's passes of n, and the calibration's sensitivity and specificity counts, each rate drawn from its Jeffreys
 * posterior, Beta(x + 1/2, n - x + 1/2); the 2.5th and 97.5th percentiles of the corrected rates (draws at chance are
 * left out). A parametric bootstrap redrew each binomial at its observed rate, which at 0 or n passes is 0 or 1 on
 * every draw: 10 of 10 gave [1.00, 1.00] where the data allow [0.72, 1.00]. The Jeffreys draws keep the uncertainty
 * a count of 10 leaves, and cost the same for any count. The stream is seeded, so the interval is the same on every
 * read.
 */
export function roganGladenInterval(
  judgePass: number,
  n: number,
  counts: CalibrationCounts,
  seed: number,
  draws = BOOTSTRAP_DRAWS,
): Interval | null {
  const positives = counts.truePass + counts.falseFail;
  const negatives = counts.falsePass + counts.trueFail;
  if (n === 0 || positives === 0 || negatives === 0) return null;
  // The bootstrap draws the same numbers on every machine and every run: a report read twice is byte-identical.
  const random = mulberry32(seed);
  const rates: number[] = [];
  for (let i = 0; i < draws; i++) {
    const qi = betaDraw(judgePass + 0.5, n - judgePass + 0.5, random);
    const sei = betaDraw(counts.truePass + 0.5, counts.falseFail + 0.5, random);
    const spi = betaDraw(counts.trueFail + 0.5, counts.falsePass + 0.5, random);
    const rate = roganGladen(qi, sei, spi);
    if (rate !== null) rates.push(rate);
  }
  if (rates.length === 0) return null;
  rates.sort((a, b) => a - b);
  return { low: percentile(rates, 0.025), high: percentile(rates, 0.975) };
}

/** The verdict from an interval: met when it lies at or above the target, missed when below, else uncertain. */
export function intervalVerdict(interval: Interval, target: number): CorrectedVerdict {
  if (interval.low >= target) return 'met';
  if (interval.high < target) return 'missed';
  return 'uncertain';
}

/** The q-th quantile of sorted values by linear interpolation between order statistics (R's type 7). */
export function percentile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}
