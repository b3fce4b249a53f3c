import { shownPath } from '../util/shown-path.js';
import { formatTable } from '../util/text-table.js';
import type { AgreeResult } from './agree.js';

/** The agreement of two marks files as terminal lines: ratio and kappa, confusion matrix, marginals, disagreements. */
export function formatAgreement(result: AgreeResult): string[] {
  const lines = [`A: ${shownPath(result.a)}`, `B: ${shownPath(result.b)}`, ''];
  if (result.matched === 0) {
    lines.push('no rep is marked pass or fail in both files: nothing to compare (kappa: null)');
    return lines;
  }
  const kappa = result.kappa === null ? 'null (each marked every rep the same way)' : result.kappa.toFixed(3);
  lines.push(`agreement ${result.agreed}/${result.matched} = ${result.ratio!.toFixed(3)}; Cohen's kappa ${kappa}`, '');
  const { passPass, passFail, failPass, failFail } = result.confusion;
  lines.push(
    ...formatTable(
      [
        ['', 'B pass', 'B fail'],
        ['A pass', String(passPass), String(passFail)],
        ['A fail', String(failPass), String(failFail)],
      ],
      ['left', 'right', 'right'],
    ),
    '',
  );
  lines.push(
    `pass rate over these ${result.matched} reps: A ${result.passRateA!.toFixed(3)}, B ${result.passRateB!.toFixed(3)}`,
  );
  if (result.unmatched > 0)
    lines.push(
      `${result.unmatched} rep(s) marked pass or fail in one file only (na, error or blank in the other): not counted`,
    );
  if (result.disagreements.length > 0) {
    lines.push('', `${result.disagreements.length} disagreement(s):`);
    const rows = result.disagreements.map((entry) => [
      entry.fixture,
      String(entry.rep),
      entry.a,
      entry.b,
      oneLine(entry.noteA),
      oneLine(entry.noteB),
    ]);
    lines.push(...formatTable([['fixture', 'rep', 'A', 'B', 'A note', 'B note'], ...rows], ['left', 'right']));
  }
  return lines;
}

function oneLine(note: string): string {
  const flat = note.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
