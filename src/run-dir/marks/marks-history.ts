import { appendWhole } from '../../util/process/append-whole.js';
import { formatTurnMarks, type MarkRow } from './marks-file.js';

/** The history file beside a marks file (marks.csv → marks.history.jsonl): every change, with what it replaced. */
export function historyFileOf(marksFile: string): string {
  return marksFile.replace(/\.csv$/, '.history.jsonl');
}

/**
 * Appends changes of marks to a history file, one JSON line each, and syncs it: a mark replaced (by a grader, or by
 * `turnkit run --resume` running its rep again) is kept here rather than lost. `by` says what replaced it.
 */
export async function appendMarkHistory(
  historyFile: string,
  changes: readonly { before: MarkRow; after: MarkRow; by?: string }[],
): Promise<void> {
  if (changes.length === 0) return;
  const lines = changes.map(
    ({ before, after, by }) =>
      `${JSON.stringify({
        fixture: after.fixture,
        rep: after.rep,
        from: {
          mark: before.mark,
          note: before.note,
          grader: before.grader,
          markedAt: before.markedAt,
          ...turnMarksField(before),
        },
        to: {
          mark: after.mark,
          note: after.note,
          grader: after.grader,
          markedAt: after.markedAt,
          rubricVersion: after.rubricVersion,
          ...turnMarksField(after),
        },
        ...(by ? { by } : {}),
      })}\n`,
  );
  await appendWhole(historyFile, lines.join(''), { sync: true });
}

/** A row's per-turn marks as the history records them, when it has any (older entries are unchanged). */
function turnMarksField(row: MarkRow): { turnMarks?: string } {
  return row.turnMarks?.length ? { turnMarks: formatTurnMarks(row.turnMarks) } : {};
}
