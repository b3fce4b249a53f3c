import { describe, expect, it } from 'vitest';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import type { TurnRecord } from '../../src/run-dir/rollout-record.js';
import { repSpend, sutCalls } from '../../src/pipeline/run-spend.js';
import { callSpend, costOf, sumSpend } from '../../src/model/spend.js';
import { answerSpend } from '../../src/sut/sut-answer.js';
import { readJudgeSpends } from '../../src/report/report-spend.js';
import type { Run } from '../../src/run-dir/read-run.js';
import { repId } from '../../src/run-dir/run-state.js';

describe('tokens and cost', () => {
  it('prices tokens per million, and sums calls exactly (rounded to 1e-9, so 0.1 + 0.2 is 0.3)', () => {
    expect(costOf({ inputTokens: 1_000, outputTokens: 100 }, { input: 0.5, output: 2 })).toBe(0.0007);
    expect(costOf({ inputTokens: 1_000, outputTokens: 100 }, undefined)).toBeUndefined();
    const calls = [
      callSpend(undefined, 0.1, undefined),
      callSpend({ inputTokens: 3, outputTokens: 4 }, 0.2, { input: 1, output: 1 }),
      callSpend({ inputTokens: 5, outputTokens: 6 }, undefined, undefined),
    ];
    expect(calls[1]).toEqual({ inputTokens: 3, outputTokens: 4, cost: 0.2 });
    expect(sumSpend(calls)).toEqual({ calls: 3, inputTokens: 8, outputTokens: 10, cost: 0.3, unpriced: 1 });
    expect(sumSpend([])).toEqual({ calls: 0, inputTokens: 0, outputTokens: 0, cost: null, unpriced: 0 });
    // 8 calls of 200 in and 7 out at 2.5 and 10 per million: 8 x 0.00057.
    const judge = callSpend({ inputTokens: 200, outputTokens: 7 }, undefined, { input: 2.5, output: 10 });
    expect(sumSpend(Array.from({ length: 8 }, () => judge))).toEqual({
      calls: 8,
      inputTokens: 1_600,
      outputTokens: 56,
      cost: 0.00456,
      unpriced: 0,
    });
  });

  it("reads a SUT answer's usage and cost, and says what is wrong with a malformed one", () => {
    expect(answerSpend({ response: 'x', usage: { input_tokens: 5, output_tokens: 2 }, cost: 0.01 })).toEqual({
      usage: { inputTokens: 5, outputTokens: 2 },
      cost: 0.01,
    });
    expect(answerSpend({ response: 'x' })).toEqual({});
    expect(answerSpend({ response: 'x', usage: { input_tokens: 1.5, output_tokens: 2 } })).toEqual({
      error: '"usage" must be { "input_tokens": n, "output_tokens": m } with whole numbers n, m from 0 to 1000000000',
    });
    expect(answerSpend({ response: 'x', cost: '0.1' })).toEqual({ error: '"cost" must be a number from 0 to 1000000' });
    // Negative and absurd figures are refused, not counted (issue 30 item 15).
    for (const usage of [
      { input_tokens: -5, output_tokens: 2 },
      { input_tokens: 1e300, output_tokens: 2 },
      { input_tokens: 5, output_tokens: 2 ** 53 + 2 },
    ])
      expect(answerSpend({ response: 'x', usage })).toEqual({
        error: '"usage" must be { "input_tokens": n, "output_tokens": m } with whole numbers n, m from 0 to 1000000000',
      });
    for (const cost of [-0.01, 1e300])
      expect(answerSpend({ response: 'x', cost })).toEqual({ error: '"cost" must be a number from 0 to 1000000' });
  });
});

describe('a rep counted in SUT calls', () => {
  const turn = (n: number): TurnRecord => ({
    turn: n,
    input: {},
    caseFile: '',
    response: 'ok',
    error: null,
    timings: { playerMs: 0, sutMs: 0, turnkitMs: 0 },
    effects: null,
    turnRow: 'none',
  });
  const rep = (extra: Partial<RepRecord>): RepRecord =>
    ({
      fixture: 'f',
      rep: 1,
      spend: { inputTokens: 30, outputTokens: 6, cost: null },
      error: null,
      ...extra,
    }) as RepRecord;

  it('is one call for one turn, and one per turn played for a rollout, less a last turn that never called', () => {
    expect(sutCalls(rep({}))).toBe(1);
    expect(sutCalls(rep({ turns: [turn(23), turn(24), turn(25)] }))).toBe(3);
    const playerFailed = { stage: 'player' as const, cause: 'exit', message: 'no input', turn: 25 };
    expect(sutCalls(rep({ turns: [turn(23), turn(24), turn(25)], error: playerFailed }))).toBe(2);
    const sutFailed = { stage: 'sut' as const, cause: 'exit', message: 'exit 1', turn: 25 };
    expect(sutCalls(rep({ turns: [turn(23), turn(24), turn(25)], error: sutFailed }))).toBe(3);
  });

  it("sums a rollout's calls, and counts every one unpriced when its total cost is unknown", () => {
    const rollout = rep({ turns: [turn(23), turn(24), turn(25)] });
    expect(repSpend(rollout)).toEqual({ calls: 3, inputTokens: 30, outputTokens: 6, cost: null, unpriced: 3 });
    const priced = rep({ turns: [turn(23), turn(24)], spend: { inputTokens: 2, outputTokens: 2, cost: 0.5 } });
    expect(sumSpend([repSpend(rollout), repSpend(priced), repSpend(rep({ spend: undefined }))])).toEqual({
      calls: 5,
      inputTokens: 32,
      outputTokens: 8,
      cost: 0.5,
      unpriced: 3,
    });
  });
});

describe("a run's judge spends", () => {
  it('skips lines that are not objects (null, a number) and keeps the spends around them', async () => {
    const spend = { inputTokens: 10, outputTokens: 2, cost: 0.5 };
    const text = ['null', '7', JSON.stringify({ fixture: 'f', rep: 1, spend }), 'not json', ''].join('\n');
    const run = {
      fileNames: async () => ['judge-model.jsonl', 'marks.csv'],
      text: async (name: string) => (name === 'judge-model.jsonl' ? text : ''),
    } as unknown as Run;
    expect([...(await readJudgeSpends(run))]).toEqual([[repId({ fixture: 'f', rep: 1 }), [spend]]]);
  });
});
