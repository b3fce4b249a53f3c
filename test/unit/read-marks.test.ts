import { describe, expect, it } from 'vitest';
import { TurnkitError } from '../../src/errors.js';
import { parseMarksText, type MarksScope } from '../../src/run-dir/marks/read-marks.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import { repId } from '../../src/run-dir/run-state.js';

const FILE = 'runs/q1/marks.csv';
const SCOPE: MarksScope = { fixtures: ['alpha', 'beta'], reps: 3 };
const HEADER = 'fixture,rep,mark,note\n';

/** The TurnkitError parseMarksText throws (fails the test when it does not throw one). */
function refusal(text: string, scope: MarksScope = SCOPE): TurnkitError {
  try {
    parseMarksText(text, FILE, scope);
  } catch (error) {
    expect(error).toBeInstanceOf(TurnkitError);
    return error as TurnkitError;
  }
  throw new Error('expected the marks to be refused');
}

describe('parseMarksText: the header', () => {
  it('refuses a first line that is not the header, on line 1, naming the header it wants', () => {
    const error = refusal('alpha,1,pass,\nalpha,2,fail,\n');
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe(
      `${FILE}:1: missing header: the first line must be fixture,rep,mark,note (it is "alpha,1,pass,")`,
    );
  });

  it('refuses an empty file, saying it is empty', () => {
    expect(refusal('').message).toBe(
      `${FILE}:1: missing header: the first line must be fixture,rep,mark,note (the file is empty)`,
    );
  });

  it('accepts a header alone: nothing marked yet', () => {
    expect(parseMarksText(HEADER, FILE, SCOPE).size).toBe(0);
  });
});

describe('parseMarksText: rows', () => {
  it('names the line of an unknown mark', () => {
    const error = refusal(`${HEADER}alpha,1,pass,\nalpha,2,maybe,\n`);
    expect(error.message).toBe(
      `${FILE}:3: unknown mark "maybe" for alpha rep 2 (use pass, fail, na, error or leave it blank)`,
    );
  });

  it('names the line of the first row when a rep is marked twice', () => {
    const error = refusal(`${HEADER}alpha,1,pass,\nbeta,1,fail,\nalpha,1,fail,\n`);
    expect(error.message).toBe(`${FILE}:4: alpha rep 1 is marked twice (first on line 2)`);
  });

  it('refuses a rep beyond the run’s reps and rep 0', () => {
    expect(refusal(`${HEADER}alpha,4,pass,\n`).message).toBe(
      `${FILE}:2: alpha rep 4 is not a rep of this run (3 reps per fixture)`,
    );
    expect(refusal(`${HEADER}alpha,0,pass,\n`).message).toBe(
      `${FILE}:2: alpha rep 0 is not a rep of this run (3 reps per fixture)`,
    );
  });

  it('refuses a fixture the run does not have, listing those it has', () => {
    expect(refusal(`${HEADER}gamma,1,pass,\n`).message).toBe(
      `${FILE}:2: no fixture "gamma" in this run (it has alpha, beta)`,
    );
  });

  it('refuses a rep outside the shard when the scope is a shard', () => {
    const scope: MarksScope = { ...SCOPE, inRun: (key) => key.rep !== 2 };
    expect(refusal(`${HEADER}alpha,1,pass,\nbeta,2,pass,\n`, scope).message).toBe(
      `${FILE}:3: beta rep 2 is not a rep of this run (a shard of 3 reps per fixture)`,
    );
  });

  it('refuses a rep that is not a whole number', () => {
    expect(refusal(`${HEADER}alpha,two,pass,\n`).message).toBe(`${FILE}:2: rep "two" is not a whole number`);
    expect(refusal(`${HEADER}alpha,1.5,pass,\n`).message).toBe(`${FILE}:2: rep "1.5" is not a whole number`);
  });

  it('reports every problem in `problems`, the first as the message', () => {
    const error = refusal(`${HEADER}alpha,1,good,\nalpha,2,pass,\ngamma,1,pass,\nbeta,9,fail,\n`);
    expect(error.problems).toEqual([
      `${FILE}:2: unknown mark "good" for alpha rep 1 (use pass, fail, na, error or leave it blank)`,
      `${FILE}:4: no fixture "gamma" in this run (it has alpha, beta)`,
      `${FILE}:5: beta rep 9 is not a rep of this run (3 reps per fixture)`,
    ]);
    expect(error.message).toBe(error.problems[0]);
  });

  it('points at the line a record starts on when a quoted note spans lines', () => {
    // csv-parse reports the line a record ends on; the error must point where the grader's row begins.
    const text = `${HEADER}alpha,1,pass,"first line\nsecond line\nthird line"\nalpha,2,bogus,\n`;
    expect(refusal(text).message).toBe(
      `${FILE}:5: unknown mark "bogus" for alpha rep 2 (use pass, fail, na, error or leave it blank)`,
    );
    const bad = `${HEADER}alpha,1,bogus,"a note\nover two lines"\n`;
    expect(refusal(bad).message).toBe(
      `${FILE}:2: unknown mark "bogus" for alpha rep 1 (use pass, fail, na, error or leave it blank)`,
    );
  });

  it('counts a CRLF inside a quoted note as one line break', () => {
    // A note typed on Windows, or one formatMarks wrote from a note holding "\r\n", has CRLF inside the quotes.
    // csv-parse counts the \r and the \n of such a break separately; the line numbers must not drift.
    const after = `${HEADER}alpha,1,pass,"one\r\ntwo"\nalpha,2,bogus,\n`;
    expect(refusal(after).message).toBe(
      `${FILE}:4: unknown mark "bogus" for alpha rep 2 (use pass, fail, na, error or leave it blank)`,
    );
    const own = 'fixture,rep,mark,note\r\nalpha,1,bogus,"one\r\ntwo\r\nthree"\r\n';
    expect(refusal(own).message).toBe(
      `${FILE}:2: unknown mark "bogus" for alpha rep 1 (use pass, fail, na, error or leave it blank)`,
    );
  });
});

describe('parseMarksText: what a spreadsheet writes', () => {
  it('reads every row when line endings change within the file (an LF header, then CR or CRLF rows)', () => {
    for (const ending of ['\r', '\r\n']) {
      const marks = parseMarksText(
        `fixture,rep,mark,note\nalpha,1,pass,ok${ending}alpha,2,fail,${ending}beta,1,na,${ending}`,
        FILE,
        SCOPE,
      );
      expect([...marks.values()].map((row) => `${row.fixture},${row.rep},${row.mark},${row.note},${row.line}`)).toEqual(
        ['alpha,1,pass,ok,2', 'alpha,2,fail,,3', 'beta,1,na,,4'],
      );
      expect(
        parseMarks(`fixture,rep,mark,note\nalpha,1,pass,ok${ending}alpha,2,fail,${ending}`).map((row) => row.mark),
      ).toEqual(['pass', 'fail']);
    }
  });

  it('accepts CRLF line ends and a BOM', () => {
    const marks = parseMarksText(`\uFEFFfixture,rep,mark,note\r\nalpha,1,pass,ok\r\nbeta,2,fail,\r\n`, FILE, SCOPE);
    expect([...marks.values()]).toEqual([
      { fixture: 'alpha', rep: 1, mark: 'pass', note: 'ok', line: 2 },
      { fixture: 'beta', rep: 2, mark: 'fail', note: '', line: 3 },
    ]);
  });

  it('reads marks case-insensitively and keeps blank marks as not marked yet', () => {
    const marks = parseMarksText(
      `${HEADER}alpha,1,PASS,\nalpha,2, Fail ,\nalpha,3,,later\nbeta,1,NA,\nbeta,2,Error,\n`,
      FILE,
      SCOPE,
    );
    expect(marks.get(repId({ fixture: 'alpha', rep: 1 }))?.mark).toBe('pass');
    expect(marks.get(repId({ fixture: 'alpha', rep: 2 }))?.mark).toBe('fail');
    expect(marks.get(repId({ fixture: 'alpha', rep: 3 }))).toEqual({
      fixture: 'alpha',
      rep: 3,
      mark: '',
      note: 'later',
      line: 4,
    });
    expect(marks.get(repId({ fixture: 'beta', rep: 1 }))?.mark).toBe('na');
    expect(marks.get(repId({ fixture: 'beta', rep: 2 }))?.mark).toBe('error');
  });

  it('accepts extra columns after the note, in the header and in rows; the provenance ones are read by name', () => {
    const marks = parseMarksText(
      'fixture,rep,mark,note,grader,colour\nalpha,1,pass,"fine, really",ann,blue\nalpha,2,fail\n',
      FILE,
      SCOPE,
    );
    expect(marks.get(repId({ fixture: 'alpha', rep: 1 }))).toEqual({
      fixture: 'alpha',
      rep: 1,
      mark: 'pass',
      note: 'fine, really',
      grader: 'ann',
      line: 2,
    });
    expect(marks.get(repId({ fixture: 'alpha', rep: 2 }))?.mark).toBe('fail');
  });

  it('skips rows of empty cells anywhere in the file, and later lines keep their numbers', () => {
    // Line 3 is ",,,", line 5 holds only spaces between its commas, line 6 is a wider empty row, line 7 an empty line.
    const text = `${HEADER}alpha,1,pass,ok\n,,,\nbeta,1,fail,\n  , ,   , \n,,,,,,\n\nalpha,2,na,\n,,,\n`;
    const marks = parseMarksText(text, FILE, SCOPE);
    expect([...marks.values()]).toEqual([
      { fixture: 'alpha', rep: 1, mark: 'pass', note: 'ok', line: 2 },
      { fixture: 'beta', rep: 1, mark: 'fail', note: '', line: 4 },
      { fixture: 'alpha', rep: 2, mark: 'na', note: '', line: 8 },
    ]);
    // The same with CRLF line ends, as a spreadsheet saves them.
    expect([...parseMarksText(text.replace(/\n/g, '\r\n'), FILE, SCOPE).values()].map((mark) => mark.line)).toEqual([
      2, 4, 8,
    ]);
  });

  it('a problem after rows of empty cells is named at its own line', () => {
    const error = refusal(
      `${HEADER},,,\nalpha,1,pass,\n , , , \n,,,\nalpha,2,maybe,\n,,,\nbeta,1,pass,\nbeta,1,fail,\n`,
    );
    expect(error.problems).toEqual([
      `${FILE}:6: unknown mark "maybe" for alpha rep 2 (use pass, fail, na, error or leave it blank)`,
      `${FILE}:9: beta rep 1 is marked twice (first on line 8)`,
    ]);
    // A row with one cell filled is not empty: it is refused, at its line.
    expect(refusal(`${HEADER},,,\n,,pass,\n`).message).toBe(`${FILE}:3: rep "" is not a whole number`);
  });

  it('keeps a multi-line note whole', () => {
    const marks = parseMarksText(`${HEADER}alpha,1,fail,"said ""deck 3""\nwhich is wrong"\n`, FILE, SCOPE);
    expect(marks.get(repId({ fixture: 'alpha', rep: 1 }))?.note).toBe('said "deck 3"\nwhich is wrong');
  });
});
