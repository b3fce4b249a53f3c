import { describe, expect, it } from 'vitest';
import { type ModelGraderInputs, modelGrader } from '../../src/judge/model-grader.js';

// The config's schema refuses a bad judge concurrency; a library caller's settings are checked here, before any call.
describe("a model grader's concurrency", () => {
  it('is refused in one line when it is not a positive whole number', () => {
    for (const concurrency of [0, 1.5, Number.NaN]) {
      const inputs = { settings: { model: 'm', concurrency } } as unknown as ModelGraderInputs;
      expect(() => modelGrader(inputs)).toThrow(
        expect.objectContaining({
          code: 'USAGE',
          message: `judge concurrency: expected a positive whole number, got ${concurrency}`,
        }),
      );
    }
  });
});
