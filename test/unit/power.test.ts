import { describe, expect, it } from 'vitest';
import {
  binomialPmf,
  detectableRate,
  fisherPower,
  normalQuantile,
  repsForVerdict,
  repsToTellApart,
} from '../../src/stats/power.js';

// A second implementation for the test, by another route: exact binomial coefficients in BigInt, Fisher's p-value
// as the sum of hypergeometric probabilities no larger than the observed one (Agresti, "Categorical Data
// Analysis", 3.5.1), Wilson's interval from its closed form (Wilson 1927).
const choose = (n: number, k: number): bigint => {
  let out = 1n;
  for (let i = 0; i < k; i++) out = (out * BigInt(n - i)) / BigInt(i + 1);
  return out;
};
const fisher = (a: number, b: number, c: number, d: number): number => {
  const r1 = a + b;
  const c1 = a + c;
  const n = a + b + c + d;
  const total = Number(choose(n, c1));
  const prob = (x: number) => Number(choose(r1, x) * choose(n - r1, c1 - x)) / total;
  const observed = prob(a);
  let p = 0;
  for (let x = Math.max(0, c1 - (n - r1)); x <= Math.min(r1, c1); x++)
    if (prob(x) <= observed * (1 + 1e-9)) p += prob(x);
  return p;
};
const power = (n: number, p1: number, p2: number): number => {
  let sum = 0;
  for (let x = 0; x <= n; x++)
    for (let y = 0; y <= n; y++) {
      const px = Number(choose(n, x)) * p1 ** x * (1 - p1) ** (n - x);
      const py = Number(choose(n, y)) * p2 ** y * (1 - p2) ** (n - y);
      if (fisher(x, n - x, y, n - y) <= 0.05) sum += px * py;
    }
  return sum;
};
const wilsonExcludes = (k: number, n: number, target: number): boolean => {
  const z = 1.959963984540054;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return centre + half < target || centre - half > target;
};
const decided = (n: number, rate: number, target: number): number => {
  let sum = 0;
  for (let k = 0; k <= n; k++)
    if (wilsonExcludes(k, n, target)) sum += Number(choose(n, k)) * rate ** k * (1 - rate) ** (n - k);
  return sum;
};

describe('power before the run', () => {
  it('computes binomial probabilities and the normal quantile', () => {
    expect(binomialPmf(4, 0.5)).toEqual([1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16].map((v) => expect.closeTo(v, 12)));
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8);
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212335729143, 8);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326347874040841, 8);
  });

  it("gives Fisher's exact power as a second implementation does", () => {
    for (const [n, p1, p2] of [
      [6, 0.2, 0.9],
      [10, 0.2, 0.8],
      [12, 0.5, 0.95],
    ] as const)
      expect(fisherPower(n, p1, n, p2)).toBeCloseTo(power(n, p1, p2), 9);
  });

  it('finds the smallest detectable rate: the one below it falls short of 80% power', () => {
    const rate = detectableRate(10, 0.1)!;
    expect(power(10, 0.1, rate)).toBeGreaterThanOrEqual(0.8);
    expect(power(10, 0.1, rate - 0.01)).toBeLessThan(0.8);
    expect(detectableRate(10, 0.7)).toBeUndefined();
  });

  it('finds the reps that tell two rates apart, and the normal approximation with continuity correction beyond', () => {
    const found = repsToTellApart(0.2, 0.8)!;
    expect(found.method).toBe('exact');
    expect(power(found.reps, 0.2, 0.8)).toBeGreaterThanOrEqual(0.8);
    expect(power(found.reps - 1, 0.2, 0.8)).toBeLessThan(0.8);
    // By hand (Fleiss 4.14; quantiles from Python's statistics.NormalDist): n = (1.959964 sqrt(2 * 0.505 * 0.495) +
    // 0.841621 sqrt(0.25 + 0.2499))^2 / 0.01^2 = 39,239.3; with the continuity correction
    // n/4 (1 + sqrt(1 + 4 / (n * 0.01)))^2 = 39,439.04, so 39,440 per fixture.
    expect(repsToTellApart(0.5, 0.51)).toEqual({ reps: 39440, method: 'approximate' });
    expect(repsToTellApart(0.4, 0.4)).toBeUndefined();
  });

  it('finds the reps for a decided verdict: the first n at which the interval excludes the target with 80% chance', () => {
    for (const rate of [0.6, 0.98]) {
      const n = repsForVerdict(0.9, rate)!;
      expect(decided(n, rate, 0.9)).toBeGreaterThanOrEqual(0.8);
      for (let m = 1; m < n; m++) expect(decided(m, rate, 0.9)).toBeLessThan(0.8);
    }
    expect(repsForVerdict(0.9, 0.9)).toBeUndefined();
  });
});
