import { Z95 } from './normal.js';
import type { Interval } from './stats.js';

/** A prediction-powered estimate of a pass rate. */
export interface PpiEstimate {
  /** Reps with both a person's and the judge's pass or fail. */
  labeled: number;
  /** Reps with only the judge's. */
  unlabeled: number;
  rate: number;
  se: number;
  interval: Interval;
}

/**
 * Prediction-powered inference for a mean (Angelopoulos et al. 2023, "Prediction-powered inference", Science 382,
 * example 1): theta = mean of the judge's marks over the unlabeled reps + mean of (person - judge) over the labeled
 * ones (the rectifier), se^2 = var(judge on unlabeled) / N + var(person - judge on labeled) / n (sample variances),
 * interval theta ± 1.96 se clipped to [0, 1]. Undefined (undefined returned) with fewer than two labeled or two
 * unlabeled reps: a variance of one observation is not known. Marks are 1 for pass, 0 for fail.
 */
export function ppiMean(
  labeled: readonly { person: 0 | 1; judge: 0 | 1 }[],
  unlabeled: readonly (0 | 1)[],
): PpiEstimate | undefined {
  const n = labeled.length;
  const big = unlabeled.length;
  if (n < 2 || big < 2) return undefined;
  const f = unlabeled.map(Number);
  const rectifiers = labeled.map(({ person, judge }) => person - judge);
  const mean = (values: readonly number[]): number => values.reduce((sum, v) => sum + v, 0) / values.length;
  const variance = (values: readonly number[]): number => {
    if (values.length < 2) return 0;
    const m = mean(values);
    return values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1);
  };
  const raw = mean(f) + mean(rectifiers);
  const se = Math.sqrt(variance(f) / big + variance(rectifiers) / n);
  const rate = Math.min(1, Math.max(0, raw));
  return {
    labeled: n,
    unlabeled: big,
    rate,
    se,
    interval: { low: Math.max(0, raw - Z95 * se), high: Math.min(1, raw + Z95 * se) },
  };
}
