import { describe, expect, it } from 'vitest';
import { tallyArms } from '../../src/attribution/count-arms.js';
import { rankVariants } from '../../src/attribution/rank-variants.js';
import { type DrawLook, sequentialAttribution } from '../../src/attribution/sequential-design.js';
import { TurnkitError } from '../../src/errors.js';
import { mulberry32 } from '../../src/util/seeded-random.js';

// A simulated SUT: each arm passes with a fixed probability, drawn from a seeded stream so every trial is the same
// on every machine. The base (arm -1) and every innocent variant pass at `baseRate`; the planted cause, once its
// turn is neutralised, passes at `causeRate`.
// `rates` takes the arm as -1 for the base and the variant's index for a variant.
function simulatedSut(seed: number, rates: (arm: number) => number): DrawLook {
  const random = mulberry32(seed);
  return async (_look, reps) =>
    Array.from({ length: labels.length + 1 }, (_, index) => {
      let pass = 0;
      for (let i = 0; i < reps; i++) if (random() < rates(index - 1)) pass++;
      return { pass, fail: reps - pass };
    });
}

const labels = ['turn 3', 'turn 7', 'turn 11', 'turn 15', 'turn 19', 'turn 23'];
const design = { repsPerLook: 10, maxLooks: 4, alpha: 0.05 };

describe('rankVariants', () => {
  it('ranks the variant whose neutralising raised the rate most first, with Holm-adjusted exact p vs the base', () => {
    const ranking = rankVariants({ pass: 3, fail: 17 }, [
      { label: 'a', pass: 4, fail: 16 },
      { label: 'b', pass: 18, fail: 2 },
      { label: 'c', pass: 3, fail: 17 },
    ]);
    expect(ranking.map((r) => r.label)).toEqual(['b', 'a', 'c']);
    expect(ranking[0]!.change).toBeCloseTo(0.75, 10);
    expect(ranking[0]!.p).toBeLessThan(0.0001);
    // Holm: the smallest p is multiplied by the number of variants (3).
    expect(ranking[0]!.holmP).toBeCloseTo(Math.min(1, 3 * ranking[0]!.p), 12);
    expect(ranking[2]!.p).toBe(1);
    expect(ranking[0]!.interval!.low).toBeGreaterThan(0.6);
  });
});

describe('sequentialAttribution on a simulated SUT', () => {
  it('ranks the planted cause first in at least 90% of seeded trials', async () => {
    const trials = 200;
    let first = 0;
    let significant = 0;
    let reps = 0;
    for (let seed = 1; seed <= trials; seed++) {
      const draw = simulatedSut(seed, (arm) => (arm === 4 ? 0.8 : 0.3));
      const outcome = await sequentialAttribution(labels, draw, design);
      if (outcome.ranking[0]!.label === 'turn 19') first++;
      if (outcome.significant.includes('turn 19')) significant++;
      reps += outcome.repsSpent;
    }
    console.log(
      `planted cause: first in ${first}/${trials} trials, significant in ${significant}/${trials}, ` +
        `mean budget ${(reps / trials).toFixed(1)} reps (max ${design.repsPerLook * design.maxLooks * (labels.length + 1)})`,
    );
    expect(first / trials).toBeGreaterThanOrEqual(0.9);
    expect(significant / trials).toBeGreaterThanOrEqual(0.8);
  });

  it('on a fixture with no cause reports significance at no more than the nominal rate', async () => {
    const trials = 400;
    let falseAlarms = 0;
    let reps = 0;
    for (let seed = 1; seed <= trials; seed++) {
      const outcome = await sequentialAttribution(
        labels,
        simulatedSut(10_000 + seed, () => 0.5),
        design,
      );
      if (outcome.significant.length > 0) falseAlarms++;
      reps += outcome.repsSpent;
    }
    console.log(
      `no cause: significant in ${falseAlarms}/${trials} trials (nominal ${design.alpha}), mean budget ${(reps / trials).toFixed(1)} reps`,
    );
    expect(falseAlarms / trials).toBeLessThanOrEqual(design.alpha);
  });

  it('stops at the first look with a significant variant, and spends every look when none is', async () => {
    const certain = await sequentialAttribution(
      labels,
      simulatedSut(1, (arm) => (arm === 0 ? 1 : 0)),
      design,
    );
    expect(certain.looks).toBe(1);
    expect(certain.repsSpent).toBe(design.repsPerLook * (labels.length + 1));
    expect(certain.significant).toEqual(['turn 3']);
    const none = await sequentialAttribution(
      labels,
      simulatedSut(1, () => 0),
      design,
    );
    expect(none.looks).toBe(design.maxLooks);
    expect(none.significant).toEqual([]);
    expect(none.levelPerLook).toBeCloseTo(0.0125, 12);
  });

  it('refuses a design it cannot run, in one line naming the setting', async () => {
    const draw = simulatedSut(1, () => 0.5);
    await expect(sequentialAttribution(labels, draw, { ...design, alpha: 1.5 })).rejects.toThrow(TurnkitError);
    await expect(sequentialAttribution(labels, draw, { ...design, repsPerLook: 0 })).rejects.toThrow(/reps per look/);
    await expect(sequentialAttribution([], draw, design)).rejects.toThrow(/variants: none/);
  });
});

describe("a look's marks counted per arm", () => {
  const marks = [
    { fixture: 'base', mark: 'pass' },
    { fixture: 'base', mark: 'error' },
    { fixture: 'v1', mark: 'fail' },
    { fixture: 'v1', mark: 'error' },
    { fixture: 'v1', mark: 'na' },
    { fixture: 'other', mark: 'pass' },
  ];
  it('leaves errored reps out of every arm by default, and counts them', () => {
    expect(tallyArms(marks, ['base', 'v1'], 'exclude')).toEqual({
      arms: [
        { pass: 1, fail: 0 },
        { pass: 0, fail: 1 },
      ],
      errors: 2,
    });
  });
  it("counts an errored rep as a fail under the question's errors: fail, as the report's rates do", () => {
    expect(tallyArms(marks, ['base', 'v1'], 'fail')).toEqual({
      arms: [
        { pass: 1, fail: 1 },
        { pass: 0, fail: 2 },
      ],
      errors: 0,
    });
  });
});
