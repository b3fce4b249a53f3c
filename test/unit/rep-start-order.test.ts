import { describe, expect, it } from 'vitest';
import { planReps, startOrder } from '../../src/run-dir/rep-order.js';
import { repId } from '../../src/run-dir/run-state.js';

const ids = (keys: { fixture: string; rep: number }[]): string[] => keys.map((key) => `${key.fixture}:${key.rep}`);

describe('the order reps start in', () => {
  it('alternates which fixture of a round goes first, rep by rep', () => {
    const fixtures = ['base', 'fixed'];
    expect(ids(startOrder(fixtures, planReps(fixtures, 4)))).toEqual([
      'base:1',
      'fixed:1',
      'fixed:2',
      'base:2',
      'base:3',
      'fixed:3',
      'fixed:4',
      'base:4',
    ]);
  });

  it('runs every pair of fixtures in each order equally often over an even number of rounds', () => {
    const fixtures = ['a', 'b', 'c'];
    const order = ids(startOrder(fixtures, planReps(fixtures, 6)));
    for (const [x, y] of [
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
    ] as const) {
      let xFirst = 0;
      for (let rep = 1; rep <= 6; rep++) if (order.indexOf(`${x}:${rep}`) < order.indexOf(`${y}:${rep}`)) xFirst++;
      expect(xFirst, `${x} before ${y}`).toBe(3);
    }
  });

  it("keeps a round's alternation for a subset: a shard's reps or a resume's pending ones", () => {
    const fixtures = ['a', 'b', 'c'];
    const shard = planReps(fixtures, 4, { index: 1, count: 2 });
    expect(ids(startOrder(fixtures, shard))).toEqual(['a:1', 'c:1', 'b:2', 'a:3', 'c:3', 'b:4']);
    const done = new Set([repId({ fixture: 'b', rep: 2 }), repId({ fixture: 'a', rep: 1 })]);
    const pending = planReps(fixtures, 2).filter((key) => !done.has(repId(key)));
    expect(ids(startOrder(fixtures, pending))).toEqual(['b:1', 'c:1', 'c:2', 'a:2']);
  });
});
