import { describe, expect, it } from 'vitest';
import { attributionJson, formatAttribution } from '../../src/attribution/format-attribution.js';
import { selectTurns } from '../../src/attribution/select-turns.js';
import { sequentialAttribution } from '../../src/attribution/sequential-design.js';
import { TurnkitError } from '../../src/errors.js';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('selectTurns', () => {
  it('makes one variant per turn, windows, or the listed turns and ranges', () => {
    expect(selectTurns('each', [1, 2, 3], 'x')).toEqual([
      { label: 'turn 1', turns: [1] },
      { label: 'turn 2', turns: [2] },
      { label: 'turn 3', turns: [3] },
    ]);
    expect(selectTurns('each', [1, 2, 3, 4, 5], 'x', 2).map((s) => s.label)).toEqual([
      'turns 1-2',
      'turns 3-4',
      'turn 5',
    ]);
    expect(selectTurns('3, 7-9', range(1, 19), 'x')).toEqual([
      { label: 'turn 3', turns: [3] },
      { label: 'turn 7', turns: [7] },
      { label: 'turn 8', turns: [8] },
      { label: 'turn 9', turns: [9] },
    ]);
    expect(selectTurns('7-9,3', range(1, 19), 'x', 3).map((s) => s.label)).toEqual(['turns 3, 7, 8', 'turn 9']);
  });

  it("follows a game's own turn numbers: a prologue 0 and gaps", () => {
    expect(selectTurns('each', [0, 2, 5], 'x').map((s) => s.label)).toEqual(['turn 0', 'turn 2', 'turn 5']);
    expect(selectTurns('each', [0, 2, 5], 'x', 2).map((s) => s.turns)).toEqual([[0, 2], [5]]);
    expect(selectTurns('1-4', [0, 2, 5], 'x')).toEqual([{ label: 'turn 2', turns: [2] }]);
    expect(() => selectTurns('3', [0, 2, 5], '--turns')).toThrow(/outside 0-5/);
  });

  it('refuses in one line naming the place: unknown forms, turns out of range, a turn twice', () => {
    expect(() => selectTurns('all', range(1, 5), '--turns')).toThrow(TurnkitError);
    expect(() => selectTurns('all', range(1, 5), '--turns')).toThrow(/^--turns: "all" is not/);
    expect(() => selectTurns('4-6', range(1, 5), '--turns')).toThrow(/outside 1-5/);
    expect(() => selectTurns('5-2', range(1, 5), '--turns')).toThrow(
      /^--turns: "5-2" starts after it ends at "5-2" \(write 2-5\)$/,
    );
    expect(() => selectTurns('2,1-3', range(1, 5), '--turns')).toThrow(/names turn 2 twice/);
    expect(() => selectTurns('each', range(1, 5), '--turns', 0)).toThrow(/^--window: 0 is not/);
  });
});

describe('formatAttribution', () => {
  it('prints the ranking, what is significant and the budget; JSON carries the same numbers', async () => {
    // "turn 1" always passes once neutralised; the base and "turn 2" never do.
    const outcome = await sequentialAttribution(
      ['turn 1', 'turn 2'],
      async (_look, reps) => [
        { pass: 0, fail: reps },
        { pass: reps, fail: 0 },
        { pass: 0, fail: reps },
      ],
      { repsPerLook: 10, maxLooks: 2, alpha: 0.05 },
    );
    const lines = formatAttribution(outcome);
    expect(lines[0]).toBe('base: 0/10 passed');
    expect(lines[2]).toMatch(/^1 +turn 1 +10\/10 +100% +72%-100% +\+100 pts +<0\.001 +significant$/);
    expect(lines[3]).toMatch(/^2 +turn 2 +0\/10 +0% +0%-28% +\+0 pts +1\.000$/);
    expect(lines[4]).toBe('Neutralising turn 1 changes the pass rate (Holm p <= 0.025).');
    expect(lines[5]).toBe('budget: 30 reps over 1 look');
    const json = attributionJson(outcome) as { significant: string[]; ranking: { label: string; rate: number }[] };
    expect(json.significant).toEqual(['turn 1']);
    expect(json.ranking.map((r) => [r.label, r.rate])).toEqual([
      ['turn 1', 1],
      ['turn 2', 0],
    ]);
  });
});
