import { describe, expect, it } from 'vitest';
import { ceilingVerdict } from '../../src/stats/agreement-ceiling.js';
import { calibrate, keyMismatch, refusal } from '../../src/stats/calibration.js';
import { pooledClusteredRate } from '../../src/stats/cluster-se.js';
import { intervalVerdict, roganGladen, roganGladenInterval } from '../../src/stats/corrected-rate.js';
import { holmAdjust } from '../../src/stats/holm.js';
import { mantelHaenszel } from '../../src/stats/mantel-haenszel.js';
import { chiSquare1Tail } from '../../src/stats/normal.js';
import { ppiMean } from '../../src/stats/ppi.js';

const Z = 1.959963984540054;

// Wilson (1927) in its other closed form: (x + z^2/2) / (n + z^2) ± z sqrt(n) / (n + z^2) sqrt(p q + z^2 / (4 n)).
const wilson = (x: number, n: number) => {
  const p = x / n;
  const center = (x + (Z * Z) / 2) / (n + Z * Z);
  const half = ((Z * Math.sqrt(n)) / (n + Z * Z)) * Math.sqrt(p * (1 - p) + (Z * Z) / (4 * n));
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
};

// An independent computation of the same interval, with no sampling and no PRNG: the distributions of q, Se and Sp
// integrated on a grid of cell midpoints, the corrected rate's distribution binned, and a percentile read off. Se and
// Sp have their Jeffreys posteriors, Beta(k + 1/2, m - k + 1/2); q has Beta(x, n - x + 1) for the low end and
// Beta(x + 1, n - x) for the high end, the Beta distributions whose quantiles are the exact (Clopper-Pearson) bounds.
// At 0 passes the low end's q is 0, at n passes the high end's is 1 (those Beta distributions are point masses).
const gridInterval = (
  pass: number,
  n: number,
  c: { truePass: number; falseFail: number; falsePass: number; trueFail: number },
) => {
  const steps = 160;
  const axis = (a: number, b: number) =>
    Array.from({ length: steps }, (_v, i) => {
      const x = (i + 0.5) / steps;
      return { x, w: x ** (a - 1) * (1 - x) ** (b - 1) };
    });
  const point = (x: number) => [{ x, w: 1 }];
  const ses = axis(c.truePass + 0.5, c.falseFail + 0.5);
  const sps = axis(c.trueFail + 0.5, c.falsePass + 0.5);
  const quantile = (qs: { x: number; w: number }[], p: number) => {
    const bins = new Float64Array(2001);
    let total = 0;
    for (const q of qs)
      for (const se of ses)
        for (const sp of sps) {
          const youden = se.x + sp.x - 1;
          if (Math.abs(youden) < 1e-12) continue;
          const rate = Math.min(1, Math.max(0, (q.x + sp.x - 1) / youden));
          const w = q.w * se.w * sp.w;
          bins[Math.round(rate * 2000)]! += w;
          total += w;
        }
    let sum = 0;
    for (let i = 0; i < bins.length; i++) if ((sum += bins[i]!) >= p * total) return i / 2000;
    return 1;
  };
  return {
    low: quantile(pass === 0 ? point(0) : axis(pass, n - pass + 1), 0.025),
    high: quantile(pass === n ? point(1) : axis(pass + 1, n - pass), 0.975),
  };
};

describe('judge calibration', () => {
  it('gives sensitivity, specificity with Wilson intervals and Youden J from the four counts', () => {
    // The seed's 62 of 65: say 55 of 57 person-passes judged pass, 7 of 8 person-fails judged fail.
    const c = calibrate({ truePass: 55, falseFail: 2, falsePass: 1, trueFail: 7 });
    expect(c.sensitivity).toBeCloseTo(55 / 57, 12);
    expect(c.specificity).toBeCloseTo(7 / 8, 12);
    expect(c.youden).toBeCloseTo(55 / 57 + 7 / 8 - 1, 12);
    expect(c.sensitivityInterval!.low).toBeCloseTo(wilson(55, 57).low, 10);
    expect(c.sensitivityInterval!.high).toBeCloseTo(wilson(55, 57).high, 10);
    expect(c.specificityInterval!.low).toBeCloseTo(wilson(7, 8).low, 10);
    expect(c.specificityInterval!.high).toBeCloseTo(wilson(7, 8).high, 10);
    expect(refusal(c)).toBeUndefined();
  });

  it('refuses a judge at chance, naming its J, and a calibration with no person-fail', () => {
    const chance = calibrate({ truePass: 10, falseFail: 10, falsePass: 5, trueFail: 5 });
    expect(chance.youden).toBeCloseTo(0, 12);
    expect(refusal(chance)).toMatch(/Youden's J is 0\.000/);
    expect(refusal(calibrate({ truePass: 10, falseFail: 0, falsePass: 0, trueFail: 0 }))).toMatch(/specificity/);
    // J exactly 0.2 (0.6 + 0.6 - 1, which floating point makes 0.19999999999999996) is accepted; just below is not.
    const exact = calibrate({ truePass: 6, falseFail: 4, falsePass: 4, trueFail: 6 });
    expect(exact.youden! < 0.2).toBe(true);
    expect(refusal(exact)).toBeUndefined();
    expect(refusal(calibrate({ truePass: 599, falseFail: 401, falsePass: 400, trueFail: 600 }))).toMatch(
      /Youden's J is 0\.199 \(below 0\.2\)/,
    );
    // Counts of a billion stay exact.
    expect(refusal(calibrate({ truePass: 6e8, falseFail: 4e8, falsePass: 4e8, trueFail: 6e8 }))).toBeUndefined();
  });

  it('names what differs between two judge keys', () => {
    const a = { model: 'opus', promptSha256: 'aa', rubricVersion: '2' };
    expect(keyMismatch(a, { ...a })).toBeUndefined();
    expect(keyMismatch(a, { ...a, rubricVersion: '3' })).toBe('rubricVersion 3 (calibrated: 2)');
  });
});

describe('Rogan-Gladen corrected rate', () => {
  it('is (q + Sp - 1) / (Se + Sp - 1), clipped to [0, 1] (Rogan and Gladen 1978)', () => {
    // 27 of 29 judged pass, Se 0.95, Sp 0.8: (0.931 + 0.8 - 1) / 0.75 = 0.9747.
    expect(roganGladen(27 / 29, 0.95, 0.8)).toBeCloseTo((27 / 29 - 0.2) / 0.75, 12);
    expect(roganGladen(1, 0.9, 0.9)).toBe(1);
    expect(roganGladen(0.05, 0.9, 0.9)).toBe(0);
    expect(roganGladen(0.5, 0.5, 0.5)).toBeNull();
  });

  it('has a bootstrap interval that an independent computation (the posteriors integrated on a grid) reproduces', () => {
    const counts = { truePass: 55, falseFail: 2, falsePass: 1, trueFail: 7 };
    const ours = roganGladenInterval(27, 29, counts, 12345, 4000)!;
    expect(roganGladenInterval(27, 29, counts, 12345, 4000)).toEqual(ours); // seeded: byte-stable
    const grid = gridInterval(27, 29, counts);
    expect(Math.abs(ours.low - grid.low)).toBeLessThan(0.03);
    expect(Math.abs(ours.high - grid.high)).toBeLessThan(0.03);
    // The calibration's uncertainty widens it beyond the judge's own Wilson interval of 27/29.
    expect(ours.high - ours.low).toBeGreaterThan(wilson(27, 29).high - wilson(27, 29).low);
    expect(intervalVerdict(ours, 0.9)).toBe('uncertain');
    expect(intervalVerdict({ low: 0.91, high: 0.99 }, 0.9)).toBe('met');
    expect(intervalVerdict({ low: 0.5, high: 0.89 }, 0.9)).toBe('missed');
  });
});

describe('a corrected interval at 0 or n passes', () => {
  // A calibration of a million marks, every one agreeing: Se and Sp are 1 to within 1e-5, the correction changes
  // nothing, and the corrected interval must be the judge's own counts' interval.
  const perfect = { truePass: 1_000_000, falseFail: 0, falsePass: 0, trueFail: 1_000_000 };

  it('with a perfect judge is the exact interval of the counts: (0.025)^(1/n) at n of n, 1 - that at 0', () => {
    // Clopper-Pearson in closed form at the edges: P(n of n | p) = p^n = 0.025 gives the low end of 10 of 10, and
    // (1 - p)^n = 0.025 the high end of 0 of 10: 0.6915 and 0.3085. 20000 draws put a percentile within about
    // 0.003 of its value (the report's 2000, within 0.01).
    const edge = 0.025 ** (1 / 10);
    const close = (value: number, exact: number) => expect(Math.abs(value - exact), String(value)).toBeLessThan(0.01);
    close(roganGladenInterval(10, 10, perfect, 7, 20_000)!.low, edge);
    close(roganGladenInterval(0, 10, perfect, 7, 20_000)!.high, 1 - edge);
    const all = roganGladenInterval(10, 10, perfect, 7)!;
    expect(all.high).toBe(1);
    const none = roganGladenInterval(0, 10, perfect, 7)!;
    expect(none.low).toBe(0);
    // Never narrower than the raw interval the report prints beside it (Wilson, [0.72, 1.00] and [0.00, 0.28]):
    // drawing q from its Jeffreys posterior gave [0.79, 1.00] here, more certain than the counts allow.
    expect(all.low).toBeLessThan(wilson(10, 10).low);
    expect(none.high).toBeGreaterThan(wilson(0, 10).high);
  });

  it('with an imperfect judge is wider still, 10 of 10 is not [1.00, 1.00], and agrees with the grid', () => {
    const counts = { truePass: 40, falseFail: 1, falsePass: 1, trueFail: 19 };
    const all = roganGladenInterval(10, 10, counts, 7, 4000)!;
    // Redrawing 10 of 10 at its observed rate gave 10 of 10 on every draw: [1.00, 1.00].
    expect(all.high).toBe(1);
    expect(all.low).toBeLessThan(wilson(10, 10).low);
    expect(Math.abs(all.low - gridInterval(10, 10, counts).low)).toBeLessThan(0.03);
    expect(intervalVerdict(all, 0.9)).toBe('uncertain');
    const none = roganGladenInterval(0, 10, counts, 7, 4000)!;
    expect(none.low).toBe(0);
    expect(none.high).toBeGreaterThan(wilson(0, 10).high);
    expect(Math.abs(none.high - gridInterval(0, 10, counts).high)).toBeLessThan(0.03);
  });

  it('costs the same for counts of a million as for ten (no draw per mark)', () => {
    const big = { truePass: 900_000, falseFail: 100_000, falsePass: 50_000, trueFail: 950_000 };
    // A draw per mark would be 6e9 steps here; the Beta draws are a few each. The interval hugs (0.8 + 0.95 - 1) /
    // (0.9 + 0.95 - 1) = 0.8824.
    const interval = roganGladenInterval(800_000, 1_000_000, big, 3, 2000)!;
    expect(interval.low).toBeGreaterThan(0.88);
    expect(interval.high).toBeLessThan(0.885);
  });
});

describe('prediction-powered inference', () => {
  it('is mean(judge, unlabeled) + mean(person - judge, labeled) with its variance sum (Angelopoulos et al. 2023)', () => {
    const labeled = [
      { person: 1, judge: 1 },
      { person: 1, judge: 1 },
      { person: 0, judge: 1 },
      { person: 0, judge: 0 },
    ] as const;
    const unlabeled = [1, 1, 1, 0, 1, 1] as const;
    const estimate = ppiMean(labeled, unlabeled)!;
    // By hand: mean f = 5/6; rectifiers 0, 0, -1, 0 mean -1/4; theta = 5/6 - 1/4 = 7/12.
    // var f = (5 (1/6)^2 + (5/6)^2) / 5 = 1/6; var rect = (3 (1/4)^2 + (3/4)^2) / 3 = 1/4.
    const se = Math.sqrt(1 / 6 / 6 + 1 / 4 / 4);
    expect(estimate.rate).toBeCloseTo(7 / 12, 12);
    expect(estimate.se).toBeCloseTo(se, 12);
    expect(estimate.interval.low).toBeCloseTo(Math.max(0, 7 / 12 - Z * se), 12);
    expect(estimate.interval.high).toBeCloseTo(Math.min(1, 7 / 12 + Z * se), 12);
    expect(ppiMean(labeled.slice(0, 1), unlabeled)).toBeUndefined();
  });
});

describe('fixture-clustered standard error', () => {
  it('is the sandwich G/(G-1) sum (y_g - p n_g)^2 / N^2 (Miller 2024, eq. 4)', () => {
    const pooled = pooledClusteredRate([
      { pass: 1, n: 10 },
      { pass: 8, n: 9 },
      { pass: 9, n: 10 },
    ]);
    // By hand: p = 18/29; residuals 1 - 180/29 = -151/29, 8 - 162/29 = 70/29, 9 - 180/29 = 81/29.
    const sumSquares = (151 ** 2 + 70 ** 2 + 81 ** 2) / 29 ** 2;
    const se = Math.sqrt(((3 / 2) * sumSquares) / 29 ** 2);
    expect(pooled.rate).toBeCloseTo(18 / 29, 12);
    expect(pooled.se).toBeCloseTo(se, 12);
    expect(pooled.interval!.low).toBeCloseTo(18 / 29 - Z * se, 12);
    // Wider than the naive binomial se, as fixtures differ so much.
    expect(pooled.se!).toBeGreaterThan(Math.sqrt(((18 / 29) * (11 / 29)) / 29));
    expect(pooledClusteredRate([{ pass: 3, n: 4 }]).se).toBeNull();
    // Two fixtures give one degree of freedom and an interval of [0, 1]: none is given, the report says why.
    const two = pooledClusteredRate([
      { pass: 1, n: 10 },
      { pass: 9, n: 10 },
    ]);
    expect([two.rate, two.se, two.interval, two.clusters]).toEqual([0.5, null, null, 2]);
  });
});

describe('Cochran-Mantel-Haenszel', () => {
  it('equals Pearson chi-square times (N - 1) / N for one stratum without its continuity correction', () => {
    // One stratum a=8, b=1 (constructed), c=1, d=9 (base): the seed's 1 of 10 to 8 of 9.
    // Pearson chi-square (Agresti 2013, 3.2.1): N (ad - bc)^2 / (r1 r2 c1 c2); with the 0.5 correction the MH
    // statistic is (|a - E a| - 0.5)^2 / Var a, E a = r1 c1 / N, Var a = r1 r2 c1 c2 / (N^2 (N - 1)).
    const mh = mantelHaenszel([{ constructedPass: 8, constructedFail: 1, basePass: 1, baseFail: 9 }]);
    const n = 19;
    const ea = (9 * 9) / n;
    const va = (9 * 10 * 9 * 10) / (n * n * (n - 1));
    expect(mh.statistic).toBeCloseTo((Math.abs(8 - ea) - 0.5) ** 2 / va, 10);
    const pearson = (n * (8 * 9 - 1 * 1) ** 2) / (9 * 10 * 9 * 10);
    expect((Math.abs(8 - ea) ** 2 / va) * 1).toBeCloseTo((pearson * (n - 1)) / n, 10);
    // chi-square(1) tail: P(X >= 3.841459) = 0.05.
    expect(chiSquare1Tail(3.841458820694124)).toBeCloseTo(0.05, 6);
    expect(mh.p).toBeCloseTo(chiSquare1Tail(mh.statistic!), 12);
    expect(mh.difference).toBeCloseTo(8 / 9 - 1 / 10, 12);
    expect(mh.interval).toBeNull();
  });

  it('sums over strata and pools the risk difference with a cluster-robust interval', () => {
    const strata = [
      { constructedPass: 8, constructedFail: 1, basePass: 1, baseFail: 9 },
      { constructedPass: 27, constructedFail: 2, basePass: 13, baseFail: 16 },
    ];
    const mh = mantelHaenszel(strata);
    let dev = 0;
    let v = 0;
    let sw = 0;
    let swd = 0;
    const parts: [number, number][] = [];
    for (const s of strata) {
      const n1 = s.constructedPass + s.constructedFail;
      const n0 = s.basePass + s.baseFail;
      const t = n1 + n0;
      const m1 = s.constructedPass + s.basePass;
      dev += s.constructedPass - (n1 * m1) / t;
      v += (n1 * n0 * m1 * (t - m1)) / (t * t * (t - 1));
      const w = (n1 * n0) / t;
      const d = s.constructedPass / n1 - s.basePass / n0;
      sw += w;
      swd += w * d;
      parts.push([w, d]);
    }
    expect(mh.statistic).toBeCloseTo((Math.abs(dev) - 0.5) ** 2 / v, 10);
    const D = swd / sw;
    expect(mh.difference).toBeCloseTo(D, 12);
    const se = Math.sqrt((2 * parts.reduce((s, [w, d]) => s + w * w * (d - D) ** 2, 0)) / (sw * sw));
    expect(mh.interval!.low).toBeCloseTo(D - Z * se, 10);
    expect(mh.p!).toBeLessThan(0.001);
  });
});

describe("Holm's correction", () => {
  it('multiplies the i-th smallest by m - i and keeps the order (Holm 1979)', () => {
    // By hand: sorted 0.01, 0.03, 0.04 -> 0.03, 0.06, max(0.06, 0.04) = 0.06.
    const adjusted = holmAdjust([0.01, 0.04, null, 0.03]);
    expect(adjusted[0]).toBeCloseTo(0.03, 12);
    expect(adjusted[1]).toBeCloseTo(0.06, 12);
    expect(adjusted[2]).toBeNull();
    expect(adjusted[3]).toBeCloseTo(0.06, 12);
    expect(holmAdjust([0.6, 0.9])).toEqual([1, 1]);
  });
});

describe('the ceiling as a verdict', () => {
  it('is below, within or above by the two Wilson intervals', () => {
    expect(ceilingVerdict('j', { agreed: 62, matched: 65 }, 's', { agreed: 57, matched: 60 })!.standing).toBe('within');
    expect(ceilingVerdict('j', { agreed: 30, matched: 60 }, 's', { agreed: 59, matched: 60 })!.standing).toBe('below');
    expect(ceilingVerdict('j', { agreed: 60, matched: 60 }, 's', { agreed: 30, matched: 60 })!.standing).toBe('above');
    const v = ceilingVerdict('j', { agreed: 62, matched: 65 }, 's', { agreed: 57, matched: 60 })!;
    expect(v.agreement.interval.low).toBeCloseTo(wilson(62, 65).low, 10);
  });
});
