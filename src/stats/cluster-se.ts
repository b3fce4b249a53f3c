import { Z95 } from './normal.js';
import type { Interval } from './stats.js';

/** A question's pass rate pooled over its fixtures, with the standard error that treats each fixture as a cluster. */
export interface PooledRate {
  pass: number;
  n: number;
  /** Fixtures with at least one qualified rep (the clusters). */
  clusters: number;
  rate: number | null;
  /**
   * Fixture-clustered standard error; null with fewer than three clusters: with one there is no spread to measure,
   * and with two the estimate rests on one degree of freedom (G / (G - 1) = 2), an interval like [0.00, 1.00] that
   * says nothing.
   */
  se: number | null;
  /** rate ± 1.96 se, clipped to [0, 1]; null when se is. */
  interval: Interval | null;
}

/** Fixtures a question-level interval needs (see PooledRate.se). */
export const MIN_CLUSTERS = 3;

/**
 * The pooled rate sum(pass) / sum(n) with the cluster-robust (sandwich) standard error of a ratio estimator, reps
 * clustered within fixtures (Miller 2024, "Adding Error Bars to Evals", eq. 4; Cameron and Miller 2015):
 * se^2 = G / (G - 1) * sum_g (pass_g - rate * n_g)^2 / (sum_g n_g)^2. Reps of one fixture share its difficulty,
 * so they are not independent evidence about the question; this se is wider than the naive one when fixtures differ.
 */
export function pooledClusteredRate(clusters: readonly { pass: number; n: number }[]): PooledRate {
  const used = clusters.filter((cluster) => cluster.n > 0);
  const pass = used.reduce((sum, cluster) => sum + cluster.pass, 0);
  const n = used.reduce((sum, cluster) => sum + cluster.n, 0);
  const g = used.length;
  if (n === 0) return { pass, n, clusters: g, rate: null, se: null, interval: null };
  const rate = pass / n;
  if (g < MIN_CLUSTERS) return { pass, n, clusters: g, rate, se: null, interval: null };
  const squares = used.reduce((sum, cluster) => sum + (cluster.pass - rate * cluster.n) ** 2, 0);
  const se = Math.sqrt(((g / (g - 1)) * squares) / (n * n));
  return {
    pass,
    n,
    clusters: g,
    rate,
    se,
    interval: { low: Math.max(0, rate - Z95 * se), high: Math.min(1, rate + Z95 * se) },
  };
}
