import { describe, expect, it } from 'vitest';
import { firstFailingStep, fixtureSurvival, survivalPair } from '../../src/stats/survival.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import type { TurnRecord } from '../../src/run-dir/rollout-record.js';

// A rep whose turns end as given: 'p' passes its checks, 'f' fails them, 'e' errors.
function rep(rep: number, outcomes: string): RepRecord {
  const turns: TurnRecord[] = [...outcomes].map((outcome, i) => ({
    turn: 23 + i,
    input: { player_input: `input ${i}` },
    caseFile: '',
    response: outcome === 'e' ? null : `response ${i}`,
    error: outcome === 'e' ? { cause: 'exit', message: 'exit 1' } : null,
    timings: { playerMs: 0, sutMs: 1, turnkitMs: 1 },
    effects: null,
    turnRow: 'sut',
    ...(outcome === 'e' ? {} : { check: { mark: outcome === 'f' ? 'fail' : 'pass', reason: '' } as const }),
  }));
  return {
    fixture: 'f',
    rep,
    attempt: 1,
    startedAt: '',
    request: { campaign: '1', turn: 23, input: {}, caseFile: '', fixture: 'f', rep },
    response: null,
    error: outcomes === '' ? { stage: 'seed', cause: 'seed', message: 'no' } : null,
    exit: null,
    timings: { seedMs: 0, sutMs: 0, teardownMs: 0, totalMs: 0 },
    scratch: null,
    effects: null,
    turns,
    rollout: { turns: 4, played: turns.length },
  };
}

describe('rollout survival', () => {
  // By hand: rep 1 never fails; reps 2 and 4 fail at turn 2 (24); rep 3 errors at turn 3 (25); rep 5 never seeded.
  const base = [rep(1, 'pppp'), rep(2, 'pf'), rep(3, 'ppe'), rep(4, 'pfpp'), rep(5, '')];

  it("finds each rep's first failing turn", () => {
    expect(base.map((record) => firstFailingStep(record))).toEqual([undefined, 2, 3, 2, null]);
  });

  it('counts the reps still passing after each turn, and the median first failing turn', () => {
    const survival = fixtureSurvival('base', base, 4, 23);
    expect(survival).toEqual({
      fixture: 'base',
      reps: 4,
      left: 1,
      failed: 3,
      // Failing steps 2, 2, 3: the lower median is 2, turn 24.
      medianFirstFailingTurn: 24,
      steps: [
        { step: 1, turn: 23, surviving: 4, share: 1 },
        { step: 2, turn: 24, surviving: 2, share: 0.5 },
        { step: 3, turn: 25, surviving: 1, share: 0.25 },
        { step: 4, turn: 26, surviving: 1, share: 0.25 },
      ],
    });
  });

  it('compares a constructed fixture with its base turn by turn, with Fisher p', () => {
    const fixed = fixtureSurvival('fixed', [rep(1, 'pppp'), rep(2, 'pppp'), rep(3, 'pppp'), rep(4, 'pppp')], 4, 23);
    expect(fixed.medianFirstFailingTurn).toBeNull();
    const pair = survivalPair(fixed, fixtureSurvival('base', base, 4, 23));
    expect(pair.constructed).toBe('fixed');
    // [[4,0],[4,0]]: p = 1. [[4,0],[2,2]]: hypergeometric 15, 40, 15 of 70: p = 30/70.
    // [[4,0],[1,3]]: 5, 30, 30, 5 of 70: p = 10/70.
    expect(pair.steps.map((step) => step.delta)).toEqual([0, 0.5, 0.75, 0.75]);
    const p = pair.steps.map((step) => step.p!);
    expect(p[0]).toBeCloseTo(1, 10);
    expect(p[1]).toBeCloseTo(30 / 70, 10);
    expect(p[2]).toBeCloseTo(10 / 70, 10);
    expect(p[3]).toBeCloseTo(10 / 70, 10);
  });
});
