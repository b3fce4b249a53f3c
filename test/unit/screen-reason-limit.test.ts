import { describe, expect, it } from 'vitest';
import { combineScreens, NOTE_LIMIT, SCREEN_REASON_LIMIT } from '../../src/checks/run-checks.js';

// A screen's reason may quote what the SUT sent (a tool argument, a matched text): bounded in the screens file and in
// the rep's note, saying how much was left out.
describe('screen reasons are capped', () => {
  it('a 2 MB reason is cut to its limit in the screen and the note, with the count of what was left out', () => {
    const huge = `does not match: ${'x'.repeat(2_000_000)}`;
    const verdict = combineScreens([
      { screen: 'big', mark: 'fail', reason: huge },
      { screen: 'small', mark: 'fail', reason: 'short reason' },
    ]);
    expect(verdict.mark).toBe('fail');
    const [big, small] = verdict.screens;
    expect(big!.reason.length).toBeLessThan(SCREEN_REASON_LIMIT + 40);
    expect(big!.reason).toBe(
      `${huge.slice(0, SCREEN_REASON_LIMIT)}… (${huge.length - SCREEN_REASON_LIMIT} more characters)`,
    );
    expect(small!.reason).toBe('short reason');
    expect(verdict.reason.length).toBeLessThanOrEqual(NOTE_LIMIT + 40);
    expect(verdict.reason.endsWith('; short reason')).toBe(true);
  });

  it('never cuts inside a surrogate pair', () => {
    const reason = `${'a'.repeat(SCREEN_REASON_LIMIT - 1)}😀${'b'.repeat(10)}`;
    const [screen] = combineScreens([{ screen: 's', mark: 'fail', reason }]).screens;
    expect(screen!.reason.startsWith(`${'a'.repeat(SCREEN_REASON_LIMIT - 1)}…`)).toBe(true);
  });
});
