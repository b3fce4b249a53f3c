import { stringify } from 'csv-stringify/sync';
import {
  guardCell,
  MARKS_COLUMNS,
  MARKS_PROVENANCE_COLUMNS,
  type MarkRow,
  formatTurnMarks,
  TURN_MARKS_COLUMN,
} from './marks-file.js';

// Writing marks.csv, apart from reading it (marks-file.ts): the writer needs csv-stringify (10 modules), which a
// command that only reads marks (turnkit report) then never loads.

/**
 * marks.csv text: the header, then one row per rep sorted by fixture and rep (quoted where a spreadsheet needs it,
 * and a note that would run as a formula guarded by `guardCell`).
 */
export function formatMarks(rows: readonly MarkRow[]): string {
  const sorted = [...rows].sort((a, b) => (a.fixture < b.fixture ? -1 : a.fixture > b.fixture ? 1 : a.rep - b.rep));
  const provenance = rows.some(
    (row) => row.grader !== undefined || row.markedAt !== undefined || row.rubricVersion !== undefined,
  );
  const perTurn = rows.some((row) => (row.turnMarks?.length ?? 0) > 0);
  const header = [
    ...MARKS_COLUMNS,
    ...(provenance ? MARKS_PROVENANCE_COLUMNS : []),
    ...(perTurn ? [TURN_MARKS_COLUMN] : []),
  ];
  const cells = (row: MarkRow): string[] => {
    const base = [row.fixture, String(row.rep), row.mark, guardCell(row.note)];
    if (provenance) base.push(row.grader ?? '', row.markedAt ?? '', row.rubricVersion ?? '');
    if (perTurn) base.push(formatTurnMarks(row.turnMarks ?? []));
    return base;
  };
  return stringify([header, ...sorted.map(cells)]);
}
