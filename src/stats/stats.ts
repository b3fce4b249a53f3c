// The numbers a report rests on. The rules: rate = pass / (pass + fail), na, error and blank counted but never in
// the rate; a Wilson 95% interval beside it; passes needed = ceil(target * n) of n qualified reps; latency median =
// the lower middle observation, p95 = nearest rank; runs compared per fixture with a two-sided Fisher exact p;
// pass^k = C(pass, k) / C(pass + fail, k).

import { Z95 } from './normal.js';

/** A closed interval of rates. */
export interface Interval {
  low: number;
  high: number;
}

/** The Wilson score 95% interval of `pass` successes in `n` trials; undefined when n is 0. */
export function wilsonInterval(pass: number, n: number, z = Z95): Interval | undefined {
  if (n <= 0) return undefined;
  const p = pass / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At p = 0 or 1 the end is exactly 0 or 1 in closed form; rounding would leave it a hair inside (or outside),
  // and a target of 1 must then fall inside the interval of 10 passes in 10.
  return { low: pass === 0 ? 0 : Math.max(0, center - half), high: pass === n ? 1 : Math.min(1, center + half) };
}

/**
 * ceil(target * n) in exact arithmetic on the target as written: 0.07 * 100 is 7.000000000000001 in binary floating
 * point, and a tool that asked for 8 passes there would be wrong; 0.7000000000001 * 10 needs 8, not 7.
 */
export function passesNeeded(target: number, n: number): number {
  // Reps are counted in whole numbers and targets are finite; anything else gets plain floating point, not a throw.
  if (!Number.isInteger(n) || !Number.isFinite(target)) return Math.max(0, Math.ceil(target * n));
  const { numerator, denominator } = decimalFraction(target);
  const product = numerator * BigInt(n);
  if (product <= 0n) return 0;
  return Number(product / denominator + (product % denominator === 0n ? 0n : 1n));
}

/**
 * A number as the fraction of its shortest decimal form (`String(0.07)` is "0.07": what the question's author wrote,
 * since YAML and JSON read decimals into the nearest double and JavaScript prints the shortest one that reads back).
 */
function decimalFraction(value: number): { numerator: bigint; denominator: bigint } {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`not a finite number: ${value}`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const digits = BigInt(`${sign}${whole}${fraction}`);
  const scale = Number(exponent) - fraction.length;
  return scale >= 0
    ? { numerator: digits * 10n ** BigInt(scale), denominator: 1n }
    : { numerator: digits, denominator: 10n ** BigInt(-scale) };
}

/** What a target demands of n qualified reps: passes needed and fails tolerated. */
export function targetDemand(target: number, n: number): { n: number; passesNeeded: number; failsTolerated: number } {
  const needed = passesNeeded(target, n);
  return { n, passesNeeded: needed, failsTolerated: Math.max(0, n - needed) };
}

/** The lower middle observation (the report's median: an observed value, never an average of two); undefined if empty. */
export function lowerMedian(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1];
}

/** The nearest-rank percentile (0 < q <= 1): the smallest observation with at least q of the values at or below it. */
export function nearestRank(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(Number((q * sorted.length).toPrecision(12))));
  return sorted[Math.min(rank, sorted.length) - 1];
}

/**
 * The two-sided Fisher exact p-value of a 2x2 table [[a, b], [c, d]] (rows: runs; columns: pass, fail): the
 * probability, with the margins fixed, of a table at most as likely as the one observed.
 */
export function fisherExact(a: number, b: number, c: number, d: number): number {
  const row1 = a + b;
  const col1 = a + c;
  const n = a + b + c + d;
  if (n === 0) return 1;
  const logFactorial = logFactorials(n);
  const logP = (x: number): number =>
    logFactorial[row1]! +
    logFactorial[n - row1]! +
    logFactorial[col1]! +
    logFactorial[n - col1]! -
    logFactorial[n]! -
    logFactorial[x]! -
    logFactorial[row1 - x]! -
    logFactorial[col1 - x]! -
    logFactorial[n - row1 - col1 + x]!;
  const observed = logP(a);
  const low = Math.max(0, row1 + col1 - n);
  const high = Math.min(row1, col1);
  let p = 0;
  for (let x = low; x <= high; x++) {
    const lp = logP(x);
    // The relative tolerance keeps tables exactly as likely as the observed one from dropping out on rounding.
    if (lp <= observed + 1e-7) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

function logFactorials(n: number): number[] {
  const table = [0];
  for (let i = 1; i <= n; i++) table.push(table[i - 1]! + Math.log(i));
  return table;
}
