import { chiSquare1Tail, Z95 } from './normal.js';
import type { Interval } from './stats.js';

/** One stratum (a fixture pair): the constructed fixture's passes and fails, and its base's. */
export interface PairedStratum {
  constructedPass: number;
  constructedFail: number;
  basePass: number;
  baseFail: number;
}

/** The stratum of two sides' pass and fail counts: the first side is the constructed one (or this run, or the player). */
export function pairedStratum(
  constructed: { pass: number; fail: number },
  base: { pass: number; fail: number },
): PairedStratum {
  return {
    constructedPass: constructed.pass,
    constructedFail: constructed.fail,
    basePass: base.pass,
    baseFail: base.fail,
  };
}

/** Constructed against base across several fixture pairs, each pair its own stratum. */
export interface MantelHaenszel {
  /** Strata with reps on both sides (the others say nothing). */
  strata: number;
  /** The Cochran-Mantel-Haenszel chi-square (1 df, with the 0.5 continuity correction); null when undefined. */
  statistic: number | null;
  p: number | null;
  /** The Mantel-Haenszel pooled risk difference rate(constructed) - rate(base); null when no stratum counts. */
  difference: number | null;
  /** Its 95% interval from a cluster-robust standard error, each pair a cluster; null with fewer than two pairs. */
  interval: Interval | null;
}

/**
 * The Cochran-Mantel-Haenszel test of constructed against base stratified by pair (Agresti, "Categorical Data
 * Analysis", 6.3.2; R's mantelhaen.test with correct = TRUE): with a = constructed passes, E(a) = n1 m1 / N and
 * Var(a) = n1 n0 m1 m0 / (N^2 (N - 1)) per stratum, X = (|sum(a - E a)| - 0.5)^2 / sum Var(a), p = P(chi2_1 >= X).
 * The pooled difference is the Mantel-Haenszel risk difference sum(w_k d_k) / sum(w_k) with w_k = n1 n0 / N, and its
 * standard error the sandwich over pairs: K / (K - 1) * sum w_k^2 (d_k - D)^2 / (sum w_k)^2.
 */
export function mantelHaenszel(strata: readonly PairedStratum[]): MantelHaenszel {
  const used = strata.filter((s) => s.constructedPass + s.constructedFail > 0 && s.basePass + s.baseFail > 0);
  let deviation = 0;
  let variance = 0;
  let weights = 0;
  let weighted = 0;
  const parts: { w: number; d: number }[] = [];
  for (const s of used) {
    const n1 = s.constructedPass + s.constructedFail;
    const n0 = s.basePass + s.baseFail;
    const total = n1 + n0;
    const m1 = s.constructedPass + s.basePass;
    const m0 = total - m1;
    deviation += s.constructedPass - (n1 * m1) / total;
    if (total > 1) variance += (n1 * n0 * m1 * m0) / (total * total * (total - 1));
    const w = (n1 * n0) / total;
    const d = s.constructedPass / n1 - s.basePass / n0;
    weights += w;
    weighted += w * d;
    parts.push({ w, d });
  }
  const k = used.length;
  const statistic = variance > 0 ? Math.max(0, Math.abs(deviation) - 0.5) ** 2 / variance : null;
  const difference = weights > 0 ? weighted / weights : null;
  let interval: Interval | null = null;
  if (difference !== null && k >= 2) {
    const squares = parts.reduce((sum, { w, d }) => sum + w * w * (d - difference) ** 2, 0);
    const se = Math.sqrt(((k / (k - 1)) * squares) / (weights * weights));
    interval = { low: Math.max(-1, difference - Z95 * se), high: Math.min(1, difference + Z95 * se) };
  }
  return { strata: k, statistic, p: statistic === null ? null : chiSquare1Tail(statistic), difference, interval };
}
