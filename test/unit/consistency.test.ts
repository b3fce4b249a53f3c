import { describe, expect, it } from 'vitest';
import { passPowers, shownPowers, tagConsistency } from '../../src/stats/consistency.js';

/** Compares pass^k values with hand-computed fractions (null where undefined). */
function expectPowers(actual: (number | null)[], expected: (number | null)[]): void {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((value, i) => {
    if (value === null) expect(actual[i], `k = ${i + 1}`).toBeNull();
    else expect(actual[i], `k = ${i + 1}`).toBeCloseTo(value, 12);
  });
}

describe('consistency: pass^k without replacement', () => {
  it('equals C(pass, k) / C(pass + fail, k), computed by hand', () => {
    // 3 pass, 1 fail: 3/4; C(3,2)/C(4,2) = 3/6; C(3,3)/C(4,3) = 1/4; C(3,4)/C(4,4) = 0.
    expectPowers(passPowers(3, 1, 4), [3 / 4, 3 / 6, 1 / 4, 0]);
    // 7 of 10: 7/10, 21/45, 35/120, 35/210, 21/252, 7/210, 1/120, then 0.
    expectPowers(passPowers(7, 3, 10), [7 / 10, 21 / 45, 35 / 120, 35 / 210, 21 / 252, 7 / 210, 1 / 120, 0, 0, 0]);
  });

  it('is undefined (null), not 0, where k exceeds the qualified reps', () => {
    // 6 reps, one lost to na: 5 qualified, all pass.
    expectPowers(passPowers(5, 0, 6), [1, 1, 1, 1, 1, null]);
    // 4 reps, 1 pass and 1 fail qualified.
    expectPowers(passPowers(1, 1, 4), [1 / 2, 0, null, null]);
    expectPowers(passPowers(0, 0, 3), [null, null, null]);
  });

  it('per tag: the share of fixtures whose every qualified rep passed, among those with any', () => {
    expect(
      tagConsistency([
        { pass: 5, fail: 0 },
        { pass: 9, fail: 1 },
        { pass: 0, fail: 0 },
        { pass: 2, fail: 0 },
      ]),
    ).toEqual({ allPassed: 2, of: 3, share: 2 / 3 });
    expect(tagConsistency([{ pass: 0, fail: 0 }])).toEqual({ allPassed: 0, of: 0, share: null });
  });

  it('shows k = 1, 2, 3, 5, 10, ... and the reps', () => {
    expect(shownPowers(1)).toEqual([1]);
    expect(shownPowers(4)).toEqual([1, 2, 3, 4]);
    expect(shownPowers(10)).toEqual([1, 2, 3, 5, 10]);
    expect(shownPowers(250)).toEqual([1, 2, 3, 5, 10, 100, 250]);
  });
});
