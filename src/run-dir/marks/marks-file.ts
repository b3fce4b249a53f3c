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
  /**
   * A rollout's optional per-turn marks (the `turn_marks` column, `24:pass 25:fail`), for a person who marks turns
   * as well; the rep's own mark is still the one that counts for its rate.
   */
  turnMarks?: readonly TurnMark[] | undefined;
}

/** One turn's mark in a rollout rep's `turn_marks` cell. */
export interface TurnMark {
  turn: number;
  mark: 'pass' | 'fail' | 'na';
}

/** The optional column of per-turn marks, written only when a row has some (older files stay as they were). */
export const TURN_MARKS_COLUMN = 'turn_marks';

/** A `turn_marks` cell: `TURN:MARK` pairs by turn, separated by spaces. */
export function formatTurnMarks(marks: readonly TurnMark[]): string {
  return [...marks]
    .sort((a, b) => a.turn - b.turn)
    .map((entry) => `${entry.turn}:${entry.mark}`)
    .join(' ');
}

/** Reads a `turn_marks` cell; a string saying what is wrong with it when it is not `TURN:pass|fail|na ...`. */
export function parseTurnMarks(cell: string): TurnMark[] | string {
  const marks = new Map<number, TurnMark>();
  for (const token of cell.trim().split(/\s+/).filter(Boolean)) {
    const match = /^(\d+):(pass|fail|na)$/i.exec(token);
    if (!match) return `turn mark "${token.slice(0, 40)}" is not TURN:pass, TURN:fail or TURN:na`;
    const turn = Number(match[1]);
    if (marks.has(turn)) return `turn ${turn} is marked twice in turn_marks`;
    marks.set(turn, { turn, mark: match[2]!.toLowerCase() as TurnMark['mark'] });
  }
  return [...marks.values()].sort((a, b) => a.turn - b.turn);
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

// A cell a spreadsheet would run as a formula (OWASP's CSV injection list), behind any quotes already guarding one.
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A free-text cell (a note, which may hold an LLM's or a player's words) as written: one starting as a formula would
 * (= + - @, tab, CR) gets a single quote before it, so that a spreadsheet shows it as text. A cell already starting
 * with quotes before such a character gets one more, so that `unguardCell` gives every cell back exactly.
 */
export function guardCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A free-text cell as read: the one quote `guardCell` put before a formula-like start taken off again. */
export function unguardCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
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
