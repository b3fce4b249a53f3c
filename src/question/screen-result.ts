/**
 * A screen's result for one rep. `unscored`: the screen does not apply to this rep (a fixture's `applies` leaves it
 * out); never counted as a pass, nor in the screen's denominator.
 */
export type ScreenMark = 'pass' | 'fail' | 'unscored';

/** One screen's result on one rep, with the reason a person reads (which term, which call's index and argument). */
export interface ScreenResult {
  /** The screen's name: the one the question gives it, or a default derived from the check (`must-contain`). */
  screen: string;
  mark: ScreenMark;
  reason: string;
}
