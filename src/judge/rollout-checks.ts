import type { Screen } from '../question/check-screens.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import type { ScreenResult } from '../question/screen-result.js';
import { applyScreens, type ScreenedVerdict } from '../checks/run-checks.js';

/**
 * A rollout's mark from its screens: the question's `checks` applied to each turn alone (its response and what it
 * changed), then the transcript's screens to the whole transcript. The first failing turn is named; an errored
 * rollout stays an error. A turn screen's result over the rep: fail when a turn failed it, else pass when a turn
 * passed it, else unscored.
 */
export function applyRolloutScreens(
  checks: readonly Screen[],
  transcript: readonly Screen[],
  record: RepRecord,
  skip: readonly string[] = [],
  /** The other screens' results (tool rules, hidden rows) of one turn, as repScreens gives them. */
  others: (turn: RepRecord) => ScreenResult[] = () => [],
): ScreenedVerdict {
  if (record.error) {
    const at = record.error.turn !== undefined ? `turn ${record.error.turn}: ` : '';
    return {
      mark: 'error',
      reason: `${at}${record.error.stage}: ${record.error.cause}: ${record.error.message}`.slice(0, 200),
      screens: [],
    };
  }
  const failed: string[] = [];
  let passed = 0;
  const byScreen = new Map<string, ScreenResult[]>();
  const names = new Set(checks.map((screen) => screen.name));
  for (const turn of record.turns ?? []) {
    const effects = turn.effects ?? { inserted: {}, updated: {}, deleted: {}, insertedRows: {} };
    const seen = { ...record, response: turn.response, toolCalls: turn.toolCalls, effects, error: null };
    const extra = skipped(others(seen), skip);
    for (const result of extra) names.add(result.screen);
    if (checks.length === 0 && extra.length === 0) continue;
    const verdict = applyScreens(checks, seen, skip, extra);
    if (verdict.mark === 'fail') failed.push(`turn ${turn.turn}: ${verdict.reason}`);
    else passed++;
    for (const result of verdict.screens)
      byScreen.set(result.screen, [
        ...(byScreen.get(result.screen) ?? []),
        { ...result, reason: `turn ${turn.turn}: ${result.reason}` },
      ]);
  }
  const screens: ScreenResult[] = [...names].map((name) => overTurns(name, byScreen.get(name) ?? []));
  if (transcript.length > 0) {
    // The transcript's own screens read every response; effects are the rep's as a whole.
    const verdict = applyScreens(transcript, record, skip);
    if (verdict.mark === 'fail') failed.push(`transcript: ${verdict.reason}`);
    else passed++;
    screens.push(...verdict.screens);
  }
  if (failed.length > 0) return { mark: 'fail', reason: failed.join('; ').slice(0, 300), screens };
  if (screens.length > 0 && screens.every((result) => result.mark === 'unscored'))
    return { mark: 'na', reason: 'no screen applies to this rep', screens };
  return { mark: 'pass', reason: `${passed} turn and transcript check set(s) passed`, screens };
}

function overTurns(screen: string, turns: readonly ScreenResult[]): ScreenResult {
  const failed = turns.filter((result) => result.mark === 'fail');
  if (failed.length > 0)
    return {
      screen,
      mark: 'fail',
      reason: failed
        .map((result) => result.reason)
        .join('; ')
        .slice(0, 300),
    };
  const passed = turns.filter((result) => result.mark === 'pass').length;
  if (passed > 0) return { screen, mark: 'pass', reason: `passed on ${passed} turn(s)` };
  return { screen, mark: 'unscored', reason: turns[0]?.reason.replace(/^turn \d+: /, '') ?? 'no turn was played' };
}

/** Other screens' results with the fixture's skipped ones unscored. */
export function skipped(results: readonly ScreenResult[], skip: readonly string[]): ScreenResult[] {
  return results.map((result) =>
    skip.includes(result.screen)
      ? { ...result, mark: 'unscored' as const, reason: 'the question skips it for this fixture' }
      : result,
  );
}
