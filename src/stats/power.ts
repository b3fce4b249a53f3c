import { fisherExact, wilsonInterval } from './stats.js';

// Power before the run: what a question's reps can show, computed with the tests the report itself uses (Fisher's
// exact test for base against constructed, the Wilson interval for a verdict against the target), so that the
// plan and the report never disagree on what is decidable.

/** The level of every test a plan assumes (two-sided), and the power it asks of it: 80% chance to find a difference. */
export const ALPHA = 0.05;
export const POWER = 0.8;

/** The probability of each count 0..n of a binomial(n, p), computed in logs (no overflow at large n). */
export function binomialPmf(n: number, p: number): number[] {
  if (p <= 0) return Array.from({ length: n + 1 }, (_, k) => (k === 0 ? 1 : 0));
  if (p >= 1) return Array.from({ length: n + 1 }, (_, k) => (k === n ? 1 : 0));
  const out: number[] = [];
  let logChoose = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logChoose += Math.log(n - k + 1) - Math.log(k);
    out.push(Math.exp(logChoose + k * Math.log(p) + (n - k) * Math.log(1 - p)));
  }
  return out;
}

/**
 * Exact power of the two-sided Fisher test at level ALPHA for n1 reps at rate p1 against n2 at p2: the chance
 * that the two counts give p <= ALPHA, summed over every pair of counts (Fisher's test conditions on the margins;
 * power does not). Quadratic in the reps, fine for the hundreds a question runs.
 */
export function fisherPower(n1: number, p1: number, n2: number, p2: number): number {
  const a = binomialPmf(n1, p1);
  const b = binomialPmf(n2, p2);
  let power = 0;
  for (let x1 = 0; x1 <= n1; x1++) {
    if (a[x1]! < 1e-12) continue;
    for (let x2 = 0; x2 <= n2; x2++) {
      if (b[x2]! < 1e-12) continue;
      if (fisherExact(x1, n1 - x1, x2, n2 - x2) <= ALPHA) power += a[x1]! * b[x2]!;
    }
  }
  return power;
}

/**
 * The smallest rate above `base` (in steps of 0.01) that `reps` reps of each fixture detect with POWER;
 * undefined when not even a rate of 1 does.
 */
export function detectableRate(reps: number, base: number): number | undefined {
  for (let step = Math.round(base * 100) + 1; step <= 100; step++) {
    const rate = step / 100;
    if (fisherPower(reps, base, reps, rate) >= POWER) return rate;
  }
  return undefined;
}

/**
 * Reps per fixture that tell rates p1 and p2 apart with POWER: the normal approximation with Fleiss's
 * continuity correction (Fleiss, Levin and Paik, "Statistical Methods for Rates and Proportions", 3rd ed., 4.14),
 * then raised until Fisher's exact test reaches the power (checked up to 300 reps; beyond, the approximation).
 */
export function repsToTellApart(p1: number, p2: number): { reps: number; method: 'exact' | 'approximate' } | undefined {
  const d = Math.abs(p2 - p1);
  if (d === 0) return undefined;
  const za = normalQuantile(1 - ALPHA / 2);
  const zb = normalQuantile(POWER);
  const mean = (p1 + p2) / 2;
  const root = za * Math.sqrt(2 * mean * (1 - mean)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  const plain = (root * root) / (d * d);
  const corrected = Math.ceil((plain / 4) * (1 + Math.sqrt(1 + 4 / (plain * d))) ** 2);
  if (corrected > 300) return { reps: corrected, method: 'approximate' };
  // The exact test is conservative: start a little below the approximation, and find the first n that reaches it.
  for (let n = Math.max(2, Math.floor(corrected * 0.7)); n <= 300; n++)
    if (fisherPower(n, p1, n, p2) >= POWER) return { reps: n, method: 'exact' };
  return { reps: corrected, method: 'approximate' };
}

/** The most reps a verdict is searched up to. */
export const MAX_VERDICT_REPS = 2000;

/**
 * Reps a fixture needs for its verdict to be decidable when its true rate is `rate`: the smallest n at which the
 * Wilson 95% interval excludes the target with probability POWER (met or missed, not "uncertain"); undefined up to
 * MAX_VERDICT_REPS (a rate at the target is never decidable).
 */
export function repsForVerdict(target: number, rate: number): number | undefined {
  if (rate === target) return undefined;
  for (let n = 1; n <= MAX_VERDICT_REPS; n++) {
    const pmf = binomialPmf(n, rate);
    let decided = 0;
    for (let k = 0; k <= n; k++) {
      const interval = wilsonInterval(k, n)!;
      if (interval.high < target || interval.low > target) decided += pmf[k]!;
    }
    if (decided >= POWER) return n;
  }
  return undefined;
}

/** The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}
