import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fisherExact,
  lowerMedian,
  nearestRank,
  passesNeeded,
  targetDemand,
  wilsonInterval,
} from '../../src/stats/stats.js';

describe('wilsonInterval', () => {
  // Expected bounds were computed independently with python3 from the closed-form Wilson score formula
  // (center ± half-width, z = 1.959963984540054), clamped to [0, 1]; 8/9, 0/10 and 10/10 also match published tables.
  it.each([
    [8, 9, 0.565, 0.980109],
    [0, 10, 0, 0.277533],
    [10, 10, 0.722467, 1],
    [1, 2, 0.094531, 0.905469],
    [45, 50, 0.786398, 0.956524],
    [7, 20, 0.181192, 0.567146],
  ])('%i of %i passes → [%f, %f]', (pass, n, low, high) => {
    const interval = wilsonInterval(pass, n);
    expect(interval).toBeDefined();
    expect(interval!.low).toBeCloseTo(low, 4);
    expect(interval!.high).toBeCloseTo(high, 4);
  });

  it('is undefined with nothing qualified', () => {
    expect(wilsonInterval(0, 0)).toBeUndefined();
  });

  it('ends exactly at 1 when every rep passed and at 0 when none did', () => {
    // In closed form the upper bound at p = 1 is (1 + z²/n) / (1 + z²/n) = 1 exactly (and the lower bound at p = 0
    // is 0). The report flags `uncertain` when low <= target <= high, so with target 1 an all-pass fixture must
    // have high === 1, not 0.9999999999999999.
    for (let n = 1; n <= 60; n++) {
      expect(wilsonInterval(n, n)!.high, `${n}/${n}`).toBe(1);
      expect(wilsonInterval(0, n)!.low, `0/${n}`).toBe(0);
    }
  });
});

describe('fisherExact (two-sided)', () => {
  // Expected p-values come from an exact-fraction computation in python3 (fractions.Fraction and math.comb):
  // the hypergeometric probabilities of every table with the observed margins whose probability is <= the observed
  // table's, summed exactly. The fractions are noted beside each value.
  it.each([
    [[10, 0, 2, 8], 0.0007144558], // 3/4199
    [[8, 1, 1, 8], 0.0033730975], // 41/12155
    [[3, 1, 1, 3], 0.4857142857], // 17/35
    [[5, 5, 5, 5], 1],
    [[19, 1, 9, 11], 0.0012476325], // 83/66526, 20 reps a side
    [[20, 0, 10, 10], 0.0004359198], // 1/2294, 20 reps a side, lopsided
    [[8, 1, 6, 3], 0.5764705882], // 49/85
    [[7, 2, 9, 0], 0.4705882353], // 8/17
  ])('%j → %f', (table, expected) => {
    const [a, b, c, d] = table as [number, number, number, number];
    expect(fisherExact(a, b, c, d)).toBeCloseTo(expected, 8);
  });

  it('is 1 for an empty table, and symmetric in the order of the runs', () => {
    expect(fisherExact(0, 0, 0, 0)).toBe(1);
    expect(fisherExact(2, 8, 10, 0)).toBeCloseTo(fisherExact(10, 0, 2, 8), 12);
    expect(fisherExact(1, 8, 8, 1)).toBeCloseTo(fisherExact(8, 1, 1, 8), 12);
  });

  it('never exceeds 1 when every table is as likely as the observed one', () => {
    expect(fisherExact(5, 5, 5, 5)).toBeLessThanOrEqual(1);
    expect(fisherExact(1, 1, 1, 1)).toBe(1);
  });
});

describe('passesNeeded and targetDemand', () => {
  it('takes 0.07 × 100 as 7 though the float product is a hair above 7', () => {
    // The reason passesNeeded does not simply Math.ceil(target * n).
    expect(0.07 * 100).toBe(7.000000000000001);
    expect(Math.ceil(0.07 * 100)).toBe(8);
    expect(passesNeeded(0.07, 100)).toBe(7);
  });

  it.each([
    [0.88, 9, 8],
    [0.9, 9, 9],
    [0.9, 10, 9],
    [1, 10, 10],
    [0.9, 8, 8], // ceil(7.2)
    [0, 10, 0],
    // Targets written with more digits than a rounding to 12 places keeps: the exact decimal decides.
    [0.7000000000001, 10, 8],
    [0.6999999999999, 10, 7],
    [1e-7, 100, 1],
    [0.125, 8, 1],
    [0.9, 0, 0],
    // Outside what a report asks (whole reps, a finite target): plain floating point rather than a throw.
    [0.1, 2.5, 1],
  ])('target %f of %i reps needs %i passes', (target, n, needed) => {
    expect(passesNeeded(target, n)).toBe(needed);
  });

  it('tolerates n - needed fails', () => {
    expect(targetDemand(0.9, 10)).toEqual({ n: 10, passesNeeded: 9, failsTolerated: 1 });
    expect(targetDemand(0.9, 9)).toEqual({ n: 9, passesNeeded: 9, failsTolerated: 0 });
    expect(targetDemand(0.88, 9)).toEqual({ n: 9, passesNeeded: 8, failsTolerated: 1 });
  });

  it('equals the integer ceil(k·n/10^d) for targets of up to 6 decimals, as a person computes it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 5000 }),
        (decimals, k, n) => {
          const scale = 10 ** decimals;
          fc.pre(k <= scale);
          const target = Number(`${Math.floor(k / scale)}.${String(k % scale).padStart(decimals, '0')}`);
          const exact = Number((BigInt(k) * BigInt(n) + BigInt(scale) - 1n) / BigInt(scale));
          expect(passesNeeded(target, n)).toBe(exact);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('equals the integer ceil(p·n/100) for every whole percentage', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 200 }), (p, n) => {
        const exact = Math.floor((p * n + 99) / 100); // integer arithmetic: no float product involved
        expect(passesNeeded(p / 100, n)).toBe(exact);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('lowerMedian', () => {
  it('is an observed value: the lower middle of an even count', () => {
    expect(lowerMedian([1, 2, 3, 4])).toBe(2);
    expect(lowerMedian([5])).toBe(5);
    expect(lowerMedian([])).toBeUndefined();
    expect(lowerMedian([40, 10, 30, 20])).toBe(20);
    expect(lowerMedian([9, 1, 5])).toBe(5);
  });

  it('sorts numerically (100 after 9) and leaves its argument alone', () => {
    const values = [100, 9, 20];
    expect(lowerMedian(values)).toBe(20);
    expect(values).toEqual([100, 9, 20]);
  });
});

describe('nearestRank', () => {
  const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

  it('p95 is the smallest value with at least 95% at or below it', () => {
    expect(nearestRank(range(20), 0.95)).toBe(19);
    expect(nearestRank(range(10), 0.95)).toBe(10);
    expect(nearestRank(range(100), 0.95)).toBe(95);
    expect(nearestRank([7], 0.95)).toBe(7);
    expect(nearestRank([], 0.95)).toBeUndefined();
  });

  it('does not depend on the input order', () => {
    expect(nearestRank(range(20).reverse(), 0.95)).toBe(19);
  });
});
