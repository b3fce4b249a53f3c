import { describe, expect, it } from 'vitest';
import { formatTurnMarks, parseTurnMarks } from '../../src/run-dir/marks/marks-file.js';
import { formatMarks } from '../../src/run-dir/marks/format-marks.js';
import { parseMarks, parseMarksText } from '../../src/run-dir/marks/read-marks.js';

describe('the optional turn_marks column of marks.csv', () => {
  it('is read by name after the required columns, sorted by turn, and written only when a row has turn marks', () => {
    const text = 'fixture,rep,mark,note,turn_marks\nalpha,1,pass,,25:na 23:PASS 24:fail\nalpha,2,fail,,\n';
    const rows = parseMarks(text);
    expect(rows[0]!.turnMarks).toEqual([
      { turn: 23, mark: 'pass' },
      { turn: 24, mark: 'fail' },
      { turn: 25, mark: 'na' },
    ]);
    expect(rows[1]!.turnMarks).toBeUndefined();
    expect(formatMarks(rows)).toBe(
      'fixture,rep,mark,note,turn_marks\nalpha,1,pass,,23:pass 24:fail 25:na\nalpha,2,fail,,\n',
    );
    expect(formatTurnMarks([{ turn: 9, mark: 'na' }])).toBe('9:na');
  });

  it('leaves a file without it as it was', () => {
    const old = 'fixture,rep,mark,note\nalpha,1,pass,fine\nalpha,2,fail,\n';
    expect(formatMarks(parseMarks(old))).toBe(old);
  });

  it('refuses a cell that is not TURN:MARK pairs, naming the file, line and rep', () => {
    expect(parseTurnMarks('24:maybe')).toBe('turn mark "24:maybe" is not TURN:pass, TURN:fail or TURN:na');
    expect(parseTurnMarks('24:pass 24:fail')).toBe('turn 24 is marked twice in turn_marks');
    expect(() =>
      parseMarksText('fixture,rep,mark,note,turn_marks\nalpha,1,pass,,24:pass\nalpha,2,pass,,two:fail\n', 'marks.csv', {
        fixtures: ['alpha'],
        reps: 2,
      }),
    ).toThrow('marks.csv:3: alpha rep 2: turn mark "two:fail" is not TURN:pass, TURN:fail or TURN:na');
  });
});
