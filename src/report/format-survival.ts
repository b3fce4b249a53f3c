import { fixed, type ReportStyle, signed, styled } from './report-text.js';
import type { RolloutReport } from './rollout-report.js';

/**
 * A rollout run's survival as report lines: per fixture the reps still passing after each turn, its median first
 * failing turn, then each constructed fixture against its base per turn (delta of survival, Fisher p).
 */
export function formatSurvival(rollout: RolloutReport, style: ReportStyle): string[] {
  const { table, heading } = styled(style);
  const turns = rollout.fixtures[0]?.steps.map((step) => step.turn) ?? [];
  const lines = [heading(`Survival over ${rollout.turns} turns (reps with no failing turn so far)`), ''];
  const rows = [
    ['fixture', ...turns.map((turn) => `t${turn}`), 'median first fail'],
    ...rollout.fixtures.map((fixture) => [
      fixture.fixture,
      ...fixture.steps.map((step) => `${step.surviving}/${fixture.reps}`),
      fixture.medianFirstFailingTurn === null ? 'none failed' : `turn ${fixture.medianFirstFailingTurn}`,
    ]),
  ];
  lines.push(...table(rows, ['left', ...turns.map(() => 'right' as const), 'left']), '');
  const { marked, failed } = rollout.turnMarks;
  if (marked > 0)
    lines.push(
      `${marked} turn${marked === 1 ? '' : 's'} marked by a person (turn_marks), ${failed} fail: counted with the checks.`,
      '',
    );
  if (rollout.probes) {
    lines.push(heading("State tracking: probes the narration agreed with (the campaign's facts at each turn)"), '');
    const probeRows = [
      ['fixture', ...turns.map((turn) => `t${turn}`)],
      ...rollout.probes.map((curve) => [
        curve.fixture,
        ...curve.steps.map((step) => (step.probed === 0 ? '-' : `${step.agree}/${step.probed}`)),
      ]),
    ];
    lines.push(...table(probeRows, ['left', ...turns.map(() => 'right' as const)]), '');
  }
  if (rollout.pairs.length > 0) {
    lines.push(heading('Does the fix hold? Constructed against base, per turn'), '');
    const pairRows = [
      ['constructed', 'base', ...turns.map((turn) => `t${turn}`)],
      ...rollout.pairs.flatMap((pair) => [
        [pair.constructed, pair.base, ...pair.steps.map((step) => signed(step.delta))],
        ['', 'Fisher p', ...pair.steps.map((step) => fixed(step.p, 3))],
      ]),
    ];
    lines.push(...table(pairRows, ['left', 'left', ...turns.map(() => 'right' as const)]), '');
  }
  return lines;
}
