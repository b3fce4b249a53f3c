import { describe, expect, it } from 'vitest';
import { MISLEADING_NARRATION, MISLEADING_TURN, PROBE_TURN, planTurns } from '../../src/sample/turn-script.js';
import { CONNECTIONS, LOCATIONS } from '../../src/sample/ship-plan.js';

describe('the sample session plan', () => {
  it('is the same for the same seed and differs for another', () => {
    expect(planTurns(60, 7)).toEqual(planTurns(60, 7));
    expect(planTurns(60, 8)).not.toEqual(planTurns(60, 7));
  });

  it('plants the misleading narration and the probe turn the demo relies on', () => {
    const turns = planTurns(40, 7);
    expect(turns[MISLEADING_TURN - 1]!.narration).toBe(MISLEADING_NARRATION);
    expect(turns[PROBE_TURN - 2]!.location).toBe('Engineering');
    expect(turns[PROBE_TURN - 1]!.input).toMatch(/mess hall/);
  });

  it('only walks along real connections, and narrates deck changes with the right decks', () => {
    const deckOf = new Map(LOCATIONS.map((location) => [location.name, location.deck]));
    const linked = new Set(CONNECTIONS.flatMap((c) => [`${c.from}|${c.to}`, `${c.to}|${c.from}`]));
    const turns = planTurns(500, 11);
    let scriptedOrFree = 0;
    for (let i = 1; i < turns.length; i++) {
      const [before, after] = [turns[i - 1]!, turns[i]!];
      if (before.location === after.location || (i >= 15 && i <= 23)) continue;
      expect(linked.has(`${before.location}|${after.location}`), `${before.location} -> ${after.location}`).toBe(true);
      const match = /from deck (\d) to deck (\d)/.exec(after.narration);
      if (match)
        expect([Number(match[1]), Number(match[2])]).toEqual([deckOf.get(before.location), deckOf.get(after.location)]);
      scriptedOrFree++;
    }
    expect(scriptedOrFree).toBeGreaterThan(100);
  });
});
