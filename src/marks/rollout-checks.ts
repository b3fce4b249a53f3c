import type { Checks } from '../question/checks-format.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import { applyChecks, type CheckVerdict } from '../pipeline/run-checks.js';
import type { HiddenValues } from '../pipeline/hidden-checks.js';
import { hasScreens, repScreens, type ScreenChecks } from '../pipeline/rep-screens.js';

/**
 * A rollout's mark from its checks: `checks` applied to each turn alone (its response and what it changed), then
 * `transcriptChecks` to the whole transcript. The first failing turn is named; an errored rollout stays an error.
 */
export function applyRolloutChecks(
  checks: Checks | undefined,
  transcriptChecks: Checks | undefined,
  record: RepRecord,
  other: { screens?: ScreenChecks; hidden?: readonly HiddenValues[] | undefined } = {},
): CheckVerdict {
  const screens = other.screens ?? {};
  if (record.error) {
    const at = record.error.turn !== undefined ? `turn ${record.error.turn}: ` : '';
    return {
      mark: 'error',
      reason: `${at}${record.error.stage}: ${record.error.cause}: ${record.error.message}`.slice(0, 200),
    };
  }
  const failed: string[] = [];
  let passed = 0;
  // The tool rules and hidden rows apply per turn, as checks do: each turn's calls and effects alone.
  for (const turn of checks || hasScreens(screens) ? (record.turns ?? []) : []) {
    const effects = turn.effects ?? { inserted: {}, updated: {}, deleted: {}, insertedRows: {} };
    const seen = { ...record, response: turn.response, toolCalls: turn.toolCalls, effects, error: null };
    const verdict = applyChecks(checks, seen, repScreens(screens, seen, other.hidden));
    if (verdict.mark === 'pass') passed++;
    else failed.push(`turn ${turn.turn}: ${verdict.reason}`);
  }
  if (transcriptChecks) {
    // The transcript's own checks read every response; effects are the rep's as a whole.
    const verdict = applyChecks(transcriptChecks, record);
    if (verdict.mark === 'pass') passed++;
    else failed.push(`transcript: ${verdict.reason}`);
  }
  if (failed.length > 0) return { mark: 'fail', reason: failed.join('; ').slice(0, 300) };
  return { mark: 'pass', reason: `${passed} turn and transcript check set(s) passed` };
}
