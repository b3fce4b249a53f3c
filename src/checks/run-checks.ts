import type { Checks } from '../question/checks-format.js';
import { screenResults, screensOf, type Screen } from '../question/check-screens.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import type { ScreenResult } from '../question/screen-result.js';

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
  // The other screens (tool rules, hidden rows) come first, as their failures are named first.
  const results = [
    ...extra.map((result) => ({ ...result, count: 1, named: true })),
    ...screenResults(screens, record, skip),
  ];
  return combineScreens(results);
}

/** The most characters of one screen's reason kept in the screens file (a reason quoting a SUT's text can be megabytes). */
export const SCREEN_REASON_LIMIT = 500;
/** The most characters of a rep's note in the marks file, where every failed screen's reason is joined. */
export const NOTE_LIMIT = 2_000;

// A reason cut to a limit, saying how much was left out, never ending inside a surrogate pair.
function capped(reason: string, limit: number): string {
  if (reason.length <= limit) return reason;
  const cut = reason.slice(0, limit);
  const kept = /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
  return `${kept}… (${reason.length - kept.length} more characters)`;
}

/** The combined verdict of screen results: any fail fails, else any pass passes, else `na`. */
export function combineScreens(
  results: readonly (ScreenResult & { count?: number; named?: boolean })[],
): ScreenedVerdict {
  const screens = results.map(({ screen, mark, reason }) => ({
    screen,
    mark,
    reason: capped(reason, SCREEN_REASON_LIMIT),
  }));
  const failed = results.filter((result) => result.mark === 'fail');
  // A check's reason says what failed ("does not contain ..."); another screen's is prefixed with its name.
  const reasonOf = (result: (typeof results)[number]): string =>
    capped(result.named ? `${result.screen}: ${result.reason}` : result.reason, SCREEN_REASON_LIMIT);
  if (failed.length > 0) return { mark: 'fail', reason: capped(failed.map(reasonOf).join('; '), NOTE_LIMIT), screens };
  const passed = results.filter((result) => result.mark === 'pass');
  if (passed.length === 0) return { mark: 'na', reason: 'no screen applies to this rep', screens };
  const count = passed.reduce((sum, result) => sum + (result.count ?? 1), 0);
  const unscored = results.filter((result) => result.mark === 'unscored').length;
  return { mark: 'pass', reason: `${count} check(s) passed${unscored > 0 ? `, ${unscored} unscored` : ''}`, screens };
}

/**
 * Applies a question's checks to a rep (a rollout's turn), with the results of its other screens (tool rules, hidden
 * rows) folded in: every failed check is named; an errored rep stays an error; an unscored screen counts neither
 * way. A rep no screen applies to passes here (nothing failed); `judge --checks` marks it `na` instead.
 */
export function applyChecks(
  checks: Checks | undefined,
  record: RepRecord,
  screens: readonly ScreenResult[] = [],
): CheckVerdict {
  const verdict = applyScreens(checks ? screensOf(checks) : [], record, [], screens);
  return verdict.mark === 'na'
    ? { mark: 'pass', reason: verdict.reason }
    : { mark: verdict.mark, reason: verdict.reason };
}
