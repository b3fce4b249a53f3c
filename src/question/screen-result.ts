/**
 * A screen's result for one rep: each check (a term list, a pattern, an effect rule, a tool rule, a transcript rule)
 * is a named screen with its own denominator. `unscored` means the screen does not apply to this rep (a refusal case
 * has no answer terms, a fixture's `applies` list leaves it out): it is never counted as a pass, nor in the screen's
 * denominator.
 */
export type ScreenMark = 'pass' | 'fail' | 'unscored';

/** One screen's result on one rep, with the reason a person reads (which term, which call's index and argument). */
export interface ScreenResult {
  /** The screen's name: the one the question gives it, or a default derived from the check (`must-contain`). */
  screen: string;
  mark: ScreenMark;
  reason: string;
}
