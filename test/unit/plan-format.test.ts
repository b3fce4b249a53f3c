import { describe, expect, it } from 'vitest';
import { formatPlan, type QuestionPlan } from '../../src/stats/plan-question.js';

const PLAN: QuestionPlan = {
  question: 'q',
  target: 0.9,
  reps: 10,
  alpha: 0.05,
  power: 0.8,
  demand: { n: 10, passesNeeded: 9, failsTolerated: 1 },
  detectable: [],
  verdict: [],
} as unknown as QuestionPlan;

describe("plan's pair of rates", () => {
  it('shows two close rates with the decimals that tell them apart, and a large count with separators', () => {
    const lines = formatPlan({ ...PLAN, pair: { from: 0.999, to: 0.9995, reps: 97462760, method: 'approximate' } });
    expect(lines.at(-1)).toBe(
      'to tell 0.9990 from 0.9995: 97,462,760 reps per fixture (normal approximation with continuity correction)',
    );
    const usual = formatPlan({ ...PLAN, pair: { from: 0.2, to: 0.8, reps: 12, method: 'exact' } });
    expect(usual.at(-1)).toBe("to tell 0.20 from 0.80: 12 reps per fixture (Fisher's exact test)");
  });
});
