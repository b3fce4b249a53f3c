import type { Checks } from '../question/checks-format.js';
import { screenResults, screensOf, type Screen } from '../question/check-screens.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import type { ScreenResult } from '../run-dir/screen-result.js';

export { containsTerm } from '../question/check-screens.js';

/** What the checks made of one rep: its mark and the reason, one line. */
export interface CheckVerdict {
  mark: 'pass' | 'fail' | 'error';
  reason: string;
}

/** A rep's combined mark from its screens (`na` when no screen applies), with each screen's result. */
export interface ScreenedVerdict {
  mark: 'pass' | 'fail' | 'na' | 'error';
  reason: string;
  /** One result per screen, in the question's order; empty for an errored rep. */
  screens: ScreenResult[];
}

/**
 * Applies screens to a rep: each gives pass, fail or unscored; the rep fails when any screen fails, passes when one
 * passed and none failed, and is `na` when none applies. Every failed screen is named; an errored rep stays an error.
 */
export function applyScreens(
  screens: readonly Screen[],
  record: RepRecord,
  skip: readonly string[] = [],
  extra: readonly ScreenResult[] = [],
): ScreenedVerdict {
  if (record.error)
    return {
      mark: 'error',
      reason: `${record.error.stage}: ${record.error.cause}: ${record.error.message}`.slice(0, 200),
      screens: [],
    };
  const results = [...screenResults(screens, record, skip), ...extra.map((result) => ({ ...result, count: 1 }))];
  return combineScreens(results);
}

/** The combined verdict of screen results: any fail fails, else any pass passes, else `na`. */
export function combineScreens(results: readonly (ScreenResult & { count?: number })[]): ScreenedVerdict {
  const screens = results.map(({ screen, mark, reason }) => ({ screen, mark, reason }));
  const failed = results.filter((result) => result.mark === 'fail');
  if (failed.length > 0) return { mark: 'fail', reason: failed.map((result) => result.reason).join('; '), screens };
  const passed = results.filter((result) => result.mark === 'pass');
  if (passed.length === 0) return { mark: 'na', reason: 'no screen applies to this rep', screens };
  const count = passed.reduce((sum, result) => sum + (result.count ?? 1), 0);
  return { mark: 'pass', reason: `${count} check(s) passed`, screens };
}

/**
 * Applies a question's checks to a rep (a rollout's turn): every failed check is named; an errored rep stays an
 * error. A rep no screen applies to passes here (nothing failed); `judge --checks` marks it `na` instead.
 */
export function applyChecks(checks: Checks, record: RepRecord): CheckVerdict {
  const verdict = applyScreens(screensOf(checks), record);
  return verdict.mark === 'na'
    ? { mark: 'pass', reason: verdict.reason }
    : { mark: verdict.mark, reason: verdict.reason };
}
