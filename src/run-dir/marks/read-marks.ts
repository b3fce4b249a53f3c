import { DATA_FILE_LIMIT, readInputText } from '../../util/read-input.js';
import { parse } from 'csv-parse/sync';
import { TurnkitError } from '../../errors.js';
import { shownPath } from '../../util/shown-path.js';
import {
  MARKS_COLUMNS,
  parseTurnMarks,
  provenanceColumns,
  TURN_MARKS_COLUMN,
  provenanceOf,
  unguardCell,
  withLineFeeds,
  type Mark,
  type MarkRow,
} from './marks-file.js';
import { repId, type RepKey } from '../run-state.js';
import type { Manifest } from '../manifest.js';
import { inShard } from '../rep-order.js';

/** The marks a file may hold; blank is "not marked yet". */
const MARKS = ['pass', 'fail', 'na', 'error', ''] as const;

/** A mark as read, with the line it came from (for the errors that point at it). */
export interface ReadMark extends MarkRow {
  line: number;
}

/** The reps a marks file may name: a run's fixtures and reps (a shard's slice when `inRun` is given). */
export interface MarksScope {
  fixtures: readonly string[];
  reps: number;
  /** Whether a rep belongs to this run (a shard holds a slice); every rep 1..reps of a fixture when absent. */
  inRun?: (key: RepKey) => boolean;
}

/** The reps of a run as a marks file may name them: its fixtures, its reps, and its slice when it is a shard. */
export function scopeOfRun(manifest: Manifest): MarksScope {
  const fixtures = manifest.fixtures.map((fixture) => fixture.name);
  const shard = manifest.shard;
  return {
    fixtures,
    reps: manifest.question.reps,
    ...(shard ? { inRun: (key: RepKey) => inShard(fixtures, shard, key) } : {}),
  };
}

/**
 * Reads and checks a marks file against a run: the header, every mark, no rep twice, no rep the run does not have.
 * Each problem is `file:line: message`; all are reported, the first as the message. Reps the file leaves out are
 * simply not marked yet.
 */
export async function readMarksFile(path: string, scope: MarksScope | undefined): Promise<Map<string, ReadMark>> {
  const shown = shownPath(path);
  return parseMarksText(await readInputText(path, shown, DATA_FILE_LIMIT), shown, scope);
}

/**
 * Reads marks.csv text as written here or by a spreadsheet (quoted fields, CRLF, a BOM), checked as every marks
 * file is (`parseMarksText`) but for no run in particular: its rows in the file's order.
 */
export function parseMarks(text: string, shown = 'marks.csv'): MarkRow[] {
  return [...parseMarksText(text, shown, undefined).values()].map(({ line: _line, ...row }) => row);
}

/** How many problems a marks file's error lists one a line; beyond it, the first and a count. */
const LISTED_PROBLEMS = 10;

/** The checks of `readMarksFile` on text already read; without a scope, any fixture and rep is accepted. */
export function parseMarksText(raw: string, shown: string, scope: MarksScope | undefined): Map<string, ReadMark> {
  const text = withLineFeeds(raw);
  const records = csvRecords(text, shown);
  const columns = headerColumns(records[0]?.record, shown);
  const marks = new Map<string, ReadMark>();
  const problems: string[] = [];
  const lines = recordLines(text, records);
  for (const [index, entry] of records.entries()) {
    // A spreadsheet leaves rows of empty cells below the data: they say nothing.
    if (index === 0 || entry.record.every((cell) => cell.trim() === '')) continue;
    const row = readRow(entry.record, lines[index]!, `${shown}:${lines[index]!}`, columns, scope, marks);
    if (typeof row === 'string') problems.push(row);
    else marks.set(repId(row), row);
  }
  if (problems.length > LISTED_PROBLEMS)
    // A generated file gone wrong can have a problem on every one of 100,000 rows: the first and a count say enough.
    throw new TurnkitError('BAD_INPUT', `${problems[0]!} (and ${problems.length - 1} more rows with problems)`);
  if (problems.length > 0) throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
  return marks;
}

/** A CSV record with where it ends in the text. */
type CsvRecord = { record: string[]; info: { bytes: number } };

/** The text's CSV records (quoted fields, a BOM); text that is no CSV is an error naming the line to fix. */
function csvRecords(text: string, shown: string): CsvRecord[] {
  try {
    return parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as CsvRecord[];
  } catch (error) {
    const err = error as Error & { lines?: number; code?: string };
    // csv-parse names the last line for a quote never closed: the line it opened on is the one to fix.
    if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
      throw new TurnkitError(
        'BAD_INPUT',
        `${shown}:${unclosedQuoteLine(text)}: not valid CSV: a quote opens here and is never closed`,
      );
    }
    throw new TurnkitError('BAD_INPUT', `${shown}:${err.lines ?? 1}: not valid CSV: ${err.message.split('\n')[0]}`);
  }
}

/** Where a marks file's optional columns are, from its header. */
interface MarksColumns {
  provenance: ReturnType<typeof provenanceColumns>;
  turnMarksAt: number;
}

/** The header checked (the four columns first, no column twice) and where its optional columns are. */
function headerColumns(first: string[] | undefined, shown: string): MarksColumns {
  const header = first?.slice(0, MARKS_COLUMNS.length).map((cell) => cell.trim().toLowerCase());
  if (!first || header!.join(',') !== MARKS_COLUMNS.join(',')) {
    const got = first ? ` (it is "${first.join(',').slice(0, 60)}")` : ' (the file is empty)';
    throw new TurnkitError(
      'BAD_INPUT',
      `${shown}:1: missing header: the first line must be ${MARKS_COLUMNS.join(',')}${got}`,
    );
  }
  // A column named twice would be read from one place and written from another: which one the file means is unknown.
  const names = first.map((cell) => cell.trim().toLowerCase());
  const twice = names.find((name, i) => name !== '' && names.indexOf(name) !== i);
  if (twice !== undefined)
    throw new TurnkitError('BAD_INPUT', `${shown}:1: the header names the column "${twice}" twice; keep one`);
  return {
    provenance: provenanceColumns(first),
    turnMarksAt: first.findIndex(
      (cell, i) => i >= MARKS_COLUMNS.length && cell.trim().toLowerCase() === TURN_MARKS_COLUMN,
    ),
  };
}

/** One row as a mark, or the problem with it (`at` names the file and line): checked against the scope and the rows before. */
function readRow(
  record: string[],
  line: number,
  at: string,
  columns: MarksColumns,
  scope: MarksScope | undefined,
  earlierRows: ReadonlyMap<string, ReadMark>,
): ReadMark | string {
  const [rawFixture = '', repText = '', markText = '', note = ''] = record;
  // Fixture names hold no spaces: a spreadsheet's padding is not part of the name.
  const fixture = rawFixture.trim();
  const mark = markText.trim().toLowerCase();
  if (!/^\d+$/.test(repText.trim())) return `${at}: rep "${repText}" is not a whole number`;
  const rep = Number(repText.trim());
  if (!(MARKS as readonly string[]).includes(mark))
    return `${at}: unknown mark "${markText}" for ${fixture} rep ${rep} (use pass, fail, na, error or leave it blank)`;
  const key = { fixture, rep };
  if (fixture === '') return `${at}: the fixture column is empty`;
  if (scope && !scope.fixtures.includes(fixture))
    return `${at}: no fixture "${fixture}" in this run (it has ${scope.fixtures.join(', ')})`;
  if (scope && (rep < 1 || rep > scope.reps || (scope.inRun && !scope.inRun(key))))
    return `${at}: ${fixture} rep ${rep} is not a rep of this run (${scope.inRun ? 'a shard of ' : ''}${scope.reps} reps per fixture)`;
  const earlier = earlierRows.get(repId(key));
  if (earlier) return `${at}: ${fixture} rep ${rep} is marked twice (first on line ${earlier.line})`;
  const turnMarks = columns.turnMarksAt >= 0 ? parseTurnMarks(record[columns.turnMarksAt] ?? '') : [];
  if (typeof turnMarks === 'string') return `${at}: ${fixture} rep ${rep}: ${turnMarks}`;
  return {
    fixture,
    rep,
    mark: mark as Mark,
    // The guard formatMarks put before a formula-like note is not part of the note.
    note: unguardCell(note),
    ...provenanceOf(record, columns.provenance),
    ...(turnMarks.length > 0 ? { turnMarks } : {}),
    line,
  };
}

/**
 * The line each record starts on, as an editor numbers lines. csv-parse's own count is the line a record ends on,
 * and it counts a CRLF inside a quoted note as two; its byte offsets are exact, so lines are counted from those.
 */
function recordLines(text: string, records: readonly { info: { bytes: number } }[]): number[] {
  const bytes = Buffer.from(text, 'utf8');
  const lines: number[] = [];
  let line = 1;
  let at = 0;
  const advanceTo = (end: number): void => {
    for (; at < end; at++) {
      if (bytes[at] === 0x0a || (bytes[at] === 0x0d && bytes[at + 1] !== 0x0a)) line++;
    }
  };
  let start = 0;
  for (const record of records) {
    // Blank lines before a record are skipped by the parser: the record starts at its first other byte.
    while (bytes[start] === 0x0a || bytes[start] === 0x0d) start++;
    advanceTo(start);
    lines.push(line);
    start = record.info.bytes;
  }
  return lines;
}

/** The line (from 1) where the quoted field that runs to the end of the text opens. */
function unclosedQuoteLine(text: string): number {
  let line = 1;
  let opened = 1;
  let quoted = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      } else if (char === '\n') line++;
      continue;
    }
    if (char === '"' && fieldStart) {
      quoted = true;
      opened = line;
    }
    fieldStart = char === ',' || char === '\n';
    if (char === '\n') line++;
  }
  return opened;
}
