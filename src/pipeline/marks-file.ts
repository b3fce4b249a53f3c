import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/** The marks a grader can give; blank means not yet marked. */
export type Mark = 'pass' | 'fail' | 'na' | 'error' | '';

/** One row of marks.csv. */
export interface MarkRow {
  fixture: string;
  rep: number;
  mark: Mark;
  note: string;
}

/** The columns every marks file starts with. */
export const MARKS_COLUMNS = ['fixture', 'rep', 'mark', 'note'] as const;

/** marks.csv text: the header, then one row per rep sorted by fixture and rep (quoted where a spreadsheet needs it). */
export function formatMarks(rows: readonly MarkRow[]): string {
  const sorted = [...rows].sort((a, b) => (a.fixture < b.fixture ? -1 : a.fixture > b.fixture ? 1 : a.rep - b.rep));
  return stringify([[...MARKS_COLUMNS], ...sorted.map((row) => [row.fixture, String(row.rep), row.mark, row.note])]);
}

/** Reads marks.csv text as written here or by a spreadsheet (quoted fields, CRLF, a BOM); checking is the reader's. */
export function parseMarks(text: string): MarkRow[] {
  const records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  return records.slice(1).map((record) => ({
    fixture: record[0] ?? '',
    rep: Number(record[1]),
    mark: (record[2] ?? '').trim().toLowerCase() as Mark,
    note: record[3] ?? '',
  }));
}
