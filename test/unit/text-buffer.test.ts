import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import {
  backspace,
  bufferOf,
  cursorPosition,
  deleteForward,
  deleteToLineStart,
  insert,
  moveHorizontal,
  moveToLineEdge,
  moveVertical,
  wrap,
} from '../../src/tui/text-buffer.js';
import { keyEvents } from '../../src/tui/key-events.js';

describe('the text buffer of the editor', () => {
  it('wraps at the last space that fits, keeps offsets one to one, and breaks long words', () => {
    const lines = wrap('the mess hall is on deck 2', 10);
    // A line may hold the width in letters plus the space it breaks at (the text area keeps a column for it).
    expect(lines.map((line) => line.text)).toEqual(['the mess ', 'hall is on ', 'deck 2']);
    expect(lines.map((line) => line.start)).toEqual([0, 9, 20]);
    expect(wrap('abcdefghijkl', 5).map((line) => line.text)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrap('a\n\nb', 5).map((line) => [line.start, line.text])).toEqual([
      [0, 'a'],
      [2, ''],
      [3, 'b'],
    ]);
  });

  it('inserts typed and pasted text at the cursor, turning \\r\\n into \\n', () => {
    const buffer = insert({ text: 'deck 3', cursor: 5 }, 'no. ');
    expect(buffer).toEqual({ text: 'deck no. 3', cursor: 9 });
    expect(insert(bufferOf('a'), 'b\r\nc\rd')).toEqual({ text: 'ab\nc\nd', cursor: 6 });
  });

  it('deletes backwards and forwards, treating an emoji as one character', () => {
    expect(backspace({ text: 'deck 3', cursor: 6 })).toEqual({ text: 'deck ', cursor: 5 });
    expect(backspace({ text: 'x', cursor: 0 })).toEqual({ text: 'x', cursor: 0 });
    expect(backspace(bufferOf('ok 🚀'))).toEqual({ text: 'ok ', cursor: 3 });
    expect(deleteForward({ text: '🚀!', cursor: 0 })).toEqual({ text: '!', cursor: 0 });
    expect(moveHorizontal({ text: '🚀!', cursor: 0 }, 1).cursor).toBe(2);
    expect(deleteToLineStart({ text: 'one\ntwo three', cursor: 8 })).toEqual({ text: 'one\nthree', cursor: 4 });
  });

  it('moves up and down by screen line keeping the column, and to line edges', () => {
    const text = 'the mess hall is on deck 2';
    // Cursor on "hall" (row 1, column 2).
    const start = { text, cursor: 11 };
    expect(cursorPosition(wrap(text, 10), 11)).toEqual({ row: 1, column: 2 });
    expect(moveVertical(start, 10, -1).cursor).toBe(2);
    expect(moveVertical(start, 10, 1).cursor).toBe(22);
    expect(moveVertical({ text, cursor: 2 }, 10, -1).cursor).toBe(0);
    expect(moveVertical({ text, cursor: 19 }, 10, 1).cursor).toBe(text.length);
    expect(moveToLineEdge(start, 10, 'start').cursor).toBe(9);
    expect(moveToLineEdge(start, 10, 'end').cursor).toBe(20);
  });
});

describe('key events from one terminal read', () => {
  const none: Key = {
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
  } as Key;

  it('splits text, Enter and Ctrl keys that arrived together', () => {
    const events = keyEvents('deck 2\x13more\rnext\x7f', none);
    expect(events.map((event) => [event.input, event.key.ctrl, event.key.return, event.key.delete])).toEqual([
      ['deck 2', false, false, false],
      ['s', true, false, false],
      ['more', false, false, false],
      ['\r', false, true, false],
      ['next', false, false, false],
      ['', false, false, true],
    ]);
  });

  it('tells the Delete key (ESC [ 3 ~) from Backspace (DEL), which ink names alike', () => {
    const deleted = { ...none, delete: true };
    expect(keyEvents('', deleted, '\x1b[3~')).toEqual([{ input: '', key: { ...deleted, forwardDelete: true } }]);
    expect(keyEvents('', deleted, '\x1b[3;5~')[0]!.key.forwardDelete).toBe(true);
    expect(keyEvents('', deleted, '\x7f')).toEqual([{ input: '', key: deleted }]);
    expect(keyEvents('', deleted)).toEqual([{ input: '', key: deleted }]);
  });

  it('leaves single keys and plain text as they came', () => {
    expect(keyEvents('s', { ...none, ctrl: true })).toEqual([{ input: 's', key: { ...none, ctrl: true } }]);
    expect(keyEvents('plain words', none)).toEqual([{ input: 'plain words', key: none }]);
  });
});
