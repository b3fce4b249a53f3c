import { stringify } from 'csv-stringify/sync';

/** The marks a grader can give; blank means not yet marked. */
export type Mark = 'pass' | 'fail' | 'na' | 'error' | '';

/** One row of marks.csv. */
export interface MarkRow {
  fixture: string;
  rep: number;
  mark: Mark;
  note: string;
  /** Who gave the mark (a person, `checks`, `judge-MODEL`). */
  grader?: string | undefined;
  /** When, as ISO 8601. */
  markedAt?: string | undefined;
  /** The rubric version the mark was given under. */
  rubricVersion?: string | undefined;
}

/** The columns every marks file starts with. */
export const MARKS_COLUMNS = ['fixture', 'rep', 'mark', 'note'] as const;

/** The optional columns after them, written when any row has them: who marked, when, under which rubric. */
export const MARKS_PROVENANCE_COLUMNS = ['grader', 'marked_at', 'rubric_version'] as const;

/**
 * Whether a row is one turnkit wrote for an errored or missing rep (no grader, the note it gives those reps), as
 * opposed to a mark a person gave: such a row is stale once --resume has run the rep.
 */
export function isRunsOwnRow(row: MarkRow): boolean {
  return (
    !row.grader &&
    (row.mark === 'error' || row.mark === '') &&
    (/^(seed|sut|teardown): /.test(row.note) || row.note === 'not run' || row.note.startsWith('not run yet'))
  );
}

/**
 * The text with every line ending between rows a line feed; breaks inside quoted fields (a note's) stay as they are.
 * An editor or a spreadsheet can leave CRLF, or old Mac CR, rows after an LF header: the CSV reader takes the first
 * ending it sees as the only one, and would read the rest as one row.
 */
export function withLineFeeds(text: string): string {
  if (!text.includes('\r')) return text;
  let out = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    // A doubled quote inside a quoted field toggles twice: still quoted.
    if (char === '"') quoted = !quoted;
    if (char === '\r' && !quoted) {
      out += '\n';
      if (text[i + 1] === '\n') i++;
      continue;
    }
    out += char;
  }
  return out;
}

/** marks.csv text: the header, then one row per rep sorted by fixture and rep (quoted where a spreadsheet needs it). */
export function formatMarks(rows: readonly MarkRow[]): string {
  const sorted = [...rows].sort((a, b) => (a.fixture < b.fixture ? -1 : a.fixture > b.fixture ? 1 : a.rep - b.rep));
  const provenance = rows.some(
    (row) => row.grader !== undefined || row.markedAt !== undefined || row.rubricVersion !== undefined,
  );
  const header = provenance ? [...MARKS_COLUMNS, ...MARKS_PROVENANCE_COLUMNS] : [...MARKS_COLUMNS];
  const cells = (row: MarkRow): string[] => {
    const base = [row.fixture, String(row.rep), row.mark, row.note];
    return provenance ? [...base, row.grader ?? '', row.markedAt ?? '', row.rubricVersion ?? ''] : base;
  };
  return stringify([header, ...sorted.map(cells)]);
}

/** Where a header puts the provenance columns (by name, anywhere after the four required ones). */
export function provenanceColumns(header: readonly string[]): {
  grader: number;
  markedAt: number;
  rubricVersion: number;
} {
  const at = (name: string): number =>
    header.findIndex((cell, i) => i >= MARKS_COLUMNS.length && cell.trim().toLowerCase() === name);
  return { grader: at('grader'), markedAt: at('marked_at'), rubricVersion: at('rubric_version') };
}

/** A record's provenance fields that are present and non-empty. */
export function provenanceOf(
  record: readonly string[],
  columns: ReturnType<typeof provenanceColumns>,
): Pick<MarkRow, 'grader' | 'markedAt' | 'rubricVersion'> {
  const value = (index: number): string | undefined => (index >= 0 && record[index] ? record[index] : undefined);
  const grader = value(columns.grader);
  const markedAt = value(columns.markedAt);
  const rubricVersion = value(columns.rubricVersion);
  return {
    ...(grader ? { grader } : {}),
    ...(markedAt ? { markedAt } : {}),
    ...(rubricVersion ? { rubricVersion } : {}),
  };
}
